"""``store.fts`` on PostgreSQL: the same FTS5-syntax expressions (built by ``search/``),
translated here into a ``tsquery`` for words and into ``LIKE`` tests for trigrams.

Words: ``facts.words`` (``kenning_simple``, PostgreSQL migration 0005: words as FTS5 reads
them) ranked by FTS5's own BM25 (column weights title, keywords, path, body; inverse document
frequency; length normalisation) computed from the word postings (PostgreSQL migration 0008), not from
the fact rows; ties go to the lower id. Trigrams: every term must occur inside
``facts.grams`` (lower-cased title, keywords and path; a pg_trgm GIN index serves the
``LIKE``), scored by the weighted count of the columns holding a term (title 4, keywords 3,
path 1, as the SQLite trigram weights).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from kenning.errors import InvalidQuery, QueryTooCostly
from kenning.store.postgres.connection import STATEMENT_TIMEOUT_MS, PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from kenning.store.fts import Filters

# ts_rank_cd's normalisation 1 (the rank divided by 1 + log(document length)), for the lexical
# search over graph nodes (graph_lookup.py); excerpts are ranked by BM25 below.
LENGTH_NORMALISATION = 1
SYNTAX_HINT = (  # the same as store.fts.SYNTAX_HINT (which imports this module)
    'FTS syntax: terms, "phrases", prefix*, AND / OR / NOT between terms, balanced parentheses, '
    "column:term for title, keywords, path or body; or search in natural syntax"
)
_TOKEN = re.compile(
    r"\s*(?:(?P<spec>(?P<minus>-\s*)?(?P<cols>\{[^}]*\}|\"(?:[^\"]|\"\")*\"|[^\s()\"{}:*-]+)\s*:)"
    r'|(?P<phrase>"(?:[^"]|"")*")|(?P<open>\()|(?P<close>\))|(?P<bare>[^\s()"]+))'
)
_WORD = re.compile(r"[^\W_]+")  # FTS5 unicode61: `_` separates words
_NOT_BARE = re.compile(r"[^A-Za-z0-9_\x1a\x80-\U0010ffff]")  # FTS5's bareword characters (fts5_expr.c)
# The weight of each column in ``facts.words`` (PostgreSQL migration 0005): a column filter
# (``title:word``, ``{title body}:word``, ``-path:word``, ``title:(a OR b)``) keeps a term's
# matches to those columns' positions, as FTS5 does.
COLUMN_WEIGHTS = {"title": "A", "keywords": "B", "path": "C", "body": "D"}
ALL_COLUMNS = "ABCD"

Token = tuple[str, str, bool, str]  # (kind, text, prefix, the term's column weights: ALL_COLUMNS unless filtered)


def tokens(match: str) -> list[Token]:
    """``(kind, text, prefix, columns)`` with kind ``term``, ``op`` (AND, OR, NOT), ``(`` or
    ``)``; a term's ``columns`` are the weights of the columns it may match (a column filter
    before it or before its parentheses); a malformed expression raises ``InvalidQuery``."""
    found: list[Token] = []
    pos, text = 0, match.strip()
    scopes = [ALL_COLUMNS]  # the columns of each open parenthesis
    spec: str | None = None  # a column filter waiting for its term or parenthesis
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise InvalidQuery(
                f"invalid search syntax: unterminated string near {text[pos : pos + 20]!r}", hint=SYNTAX_HINT
            )
        pos = m.end()
        if m["spec"]:
            if spec is not None:
                raise InvalidQuery("invalid search syntax: two column filters in a row", hint=SYNTAX_HINT)
            spec = _columns(m["cols"], negated=bool(m["minus"]))
            continue
        columns = "".join(c for c in scopes[-1] if spec is None or c in spec)
        if m["phrase"]:
            prefix = text[pos : pos + 1] == "*"
            pos += prefix
            found.append(("term", m["phrase"][1:-1].replace('""', '"'), prefix, columns))
        elif m["open"]:
            scopes.append(columns)
            found.append(("(", "", False, ALL_COLUMNS))
        elif m["close"]:
            if spec is not None:
                raise InvalidQuery("invalid search syntax: a column filter needs a term", hint=SYNTAX_HINT)
            if len(scopes) > 1:
                scopes.pop()
            found.append((")", "", False, ALL_COLUMNS))
        elif m["bare"] in ("AND", "OR", "NOT") and spec is None:
            found.append(("op", m["bare"], False, ALL_COLUMNS))
        else:
            found.append(("term", _bareword(m["bare"]), m["bare"].endswith("*"), columns))
        spec = None
    if spec is not None:
        raise InvalidQuery("invalid search syntax: a column filter needs a term", hint=SYNTAX_HINT)
    _check(found)
    if any(kind == "term" and not _WORD.search(text) for kind, text, _, _ in found):
        found = _without_empty(found)
    return found


def _without_empty(found: list[Token]) -> list[Token]:
    """The expression without its terms of no word (``""``, ``"!!"``), as FTS5 drops them: an
    AND or OR keeps its other operands, ``a NOT <empty>`` is ``a``, ``<empty> NOT b`` is empty.
    An expression left empty matches nothing."""
    pos = 0

    def parse(level: int) -> Any:
        """A term, (operator, [left, right]) or None; level 0: OR, 1: AND, 2: NOT, 3: a term or (…)."""
        nonlocal pos
        if level == 3:
            token = found[pos]
            pos += 1
            if token[0] == "(":
                inner = parse(0)
                pos += 1  # its ")"
                return inner
            return token if _WORD.search(token[1]) else None
        op = ("OR", "AND", "NOT")[level]
        left = parse(level + 1)
        while pos < len(found):
            kind, text = found[pos][:2]
            if (kind, text) == ("op", op):
                pos += 1
            elif not (op == "AND" and kind in ("term", "(")):
                break
            right = parse(level + 1)
            if op == "NOT":
                left = None if left is None else left if right is None else ("NOT", [left, right])
            else:
                kept = [t for t in (left, right) if t is not None]
                left = None if not kept else kept[0] if len(kept) == 1 else (op, kept)
        return left

    def tokens_of(tree: Any) -> list[Token]:
        if isinstance(tree[1], str):  # a term
            return [tree]
        op, (left, right) = tree
        out = [("(", "", False, ALL_COLUMNS), *tokens_of(left), ("op", op, False, ALL_COLUMNS)]
        return [*out, *tokens_of(right), (")", "", False, ALL_COLUMNS)]

    tree = parse(0)
    return tokens_of(tree) if tree is not None else [("term", "", False, "")]  # no column: matches nothing


def _bareword(bare: str) -> str:
    """An unquoted term, without its prefix ``*``: letters, digits, ``_`` and any non-ASCII
    character, as FTS5 reads one; anything else is ``InvalidQuery`` with SQLite's message."""
    stray = _NOT_BARE.search(bare.removesuffix("*"))
    if stray:
        what = f"unexpected {stray.group()!r} (quote a term holding punctuation)"
        raise InvalidQuery(f"invalid search syntax: {what}", hint=SYNTAX_HINT)
    return bare.removesuffix("*")


def _columns(spec: str, *, negated: bool) -> str:
    """The weights a column filter names (``title``, ``"title"``, ``{title body}``), or all
    the others after ``-``; an unknown column is ``InvalidQuery``, as on SQLite."""
    if spec.startswith("{"):
        names = spec[1:-1].split()
    elif spec.startswith('"'):
        names = [spec[1:-1].replace('""', '"')]
    else:
        names = [spec]
    weights = set()
    for name in names:
        weight = COLUMN_WEIGHTS.get(name.lower())
        if weight is None:
            what = f"{name!r} is not a column (columns: {', '.join(COLUMN_WEIGHTS)}; quote a term holding ':' or '-')"
            raise InvalidQuery(f"invalid search syntax: {what}", hint=SYNTAX_HINT)
        weights.add(weight)
    return "".join(c for c in ALL_COLUMNS if (c in weights) != negated)


def _check(found: list[Token]) -> None:
    depth, expect_operand = 0, True
    for kind, text, _, _ in found:
        if kind == "op":
            if expect_operand:
                raise InvalidQuery(f"invalid search syntax: unexpected {text}", hint=SYNTAX_HINT)
            expect_operand = True
        elif kind == "(":
            depth += 1
            expect_operand = True
        elif kind == ")":
            depth -= 1
            if depth < 0 or expect_operand:
                raise InvalidQuery("invalid search syntax: unbalanced parentheses", hint=SYNTAX_HINT)
        else:
            expect_operand = False
    if depth or expect_operand:
        raise InvalidQuery("invalid search syntax: incomplete expression", hint=SYNTAX_HINT)


def _join(found: list[Token], term: Any, ops: dict[str, str]) -> str:
    """The expression with each term rendered by ``term(text, prefix, columns)`` and FTS5's
    implicit AND made explicit."""
    out: list[str] = []
    previous = None
    for kind, text, prefix, columns in found:
        if kind in ("term", "(") and previous in ("term", ")"):
            out.append(ops["AND"])
        out.append(term(text, prefix, columns) if kind == "term" else ops[text] if kind == "op" else kind)
        previous = kind
    return " ".join(out)


def _lexemes(text: str, prefix: bool, columns: str = ALL_COLUMNS) -> str:
    words = _WORD.findall(text)
    if not columns:  # filters that leave no column (``title:(body:x)``), an emptied expression: nothing
        return "('x' & !'x')"
    if not words:
        return "''"
    weights = "" if columns == ALL_COLUMNS else columns
    quoted = ["'" + w.replace("'", "''") + "'" for w in words]
    marks = [":" + weights if weights else ""] * len(words)  # 'word':AB: only in those columns
    if prefix:
        marks[-1] = ":*" + weights
    quoted = [q + mark for q, mark in zip(quoted, marks, strict=True)]
    return "(" + " <-> ".join(quoted) + ")"


def tsquery(match: str) -> str:
    """The ``to_tsquery`` text of an FTS5 expression (FTS5's binary NOT is ``& !``)."""
    return _join(tokens(match), _lexemes, {"AND": "&", "OR": "|", "NOT": "& !"})


def _where(filters: Filters) -> tuple[str, list[Any]]:
    clauses = ["f.lifecycle = ANY(%s)"]
    params: list[Any] = [list(filters.lifecycles)]
    if filters.types:
        clauses.append("f.type = ANY(%s)")
        params.append(list(filters.types))
    if filters.path_prefix:
        clauses.append("left(f.source_uri, %s) = %s")
        params.extend([len(filters.path_prefix), filters.path_prefix])
    if filters.memory_type:
        clauses.append("f.memory_type = %s")
        params.append(filters.memory_type)
    for bound, op in ((filters.since, ">="), (filters.until, "<=")):
        if bound:
            clauses.append(f"left(coalesce(f.date_source, f.date_indexed), 10) {op} %s")
            params.append(bound)
    return " AND ".join(clauses), params


# FTS5's bm25 constants (fts5_aux.c).
K1, B = 1.2, 0.75
# The facts of the question's words, scored by FTS5's BM25 from the postings (PostgreSQL migration 0008):
# the inverse document frequency of each word from its postings, hits weighted per column,
# the length normalised by the project's average (word_stats). Each question word is a row of
# `terms` (a repeated word counts twice, as in FTS5); the words of a phrase share its weight
# (FTS5 scores a phrase by its own hits: an approximation there).
_BM25 = f"""
terms AS MATERIALIZED (
    SELECT u.lexeme, t.share FROM unnest(%s::text[], %s::float8[]) AS t(word, share),
        unnest(to_tsvector('kenning_simple', t.word)) AS u WHERE u.lexeme <> ' '),
stats AS MATERIALIZED (
    SELECT docs::float8 AS docs, {K1 * B}::float8 / greatest(words::float8 / greatest(docs, 1), 1e-9) AS per_word
    FROM word_stats WHERE project = %s),
boosts AS MATERIALIZED (
    SELECT t.lexeme, t.share * (CASE WHEN x > 0 THEN x ELSE 1e-6 END) * {K1 + 1}::float8 AS boost
    FROM terms t CROSS JOIN stats s,
        LATERAL (SELECT sum(cardinality(w.ids))::float8 AS n FROM word_postings w
            WHERE w.project = %s AND w.lexeme = t.lexeme) AS df,
        LATERAL ln(greatest((s.docs - df.n + 0.5) / (df.n + 0.5), 1e-9)) AS x
    WHERE df.n IS NOT NULL),
postings AS (
    SELECT v.id, k.boost * v.f / (v.f + {K1 * (1 - B)}::float8 + (SELECT per_word FROM stats) * v.n) AS s
    FROM boosts k JOIN word_postings w ON w.project = %s AND w.lexeme = k.lexeme,
        LATERAL (SELECT x.id, x.n::float8 AS n, %s::float8 * (x.h & 65535) + %s::float8 * ((x.h >> 16) & 65535)
            + %s::float8 * ((x.h >> 32) & 65535) + %s::float8 * (x.h >> 48) AS f
            FROM unnest(w.ids, w.hits, w.lens) AS x(id, h, n)) AS v)"""


def _or_words(found: list[Token]) -> list[str] | None:
    """The words of an expression that is words joined by OR (what natural questions become),
    none filtered to columns: its matches are the union of the words' postings. ``None`` for
    any other shape."""
    words_found: list[str] = []
    for k, (kind, text, prefix, columns) in enumerate(found):
        if k % 2:
            if (kind, text) != ("op", "OR"):
                return None
            continue
        parts = _WORD.findall(text) if kind == "term" and not prefix and columns == ALL_COLUMNS else []
        if len(parts) != 1 or ":" in text:
            return None
        words_found.append(parts[0])
    return words_found


def _positive_words(found: list[Token]) -> list[tuple[str, float]]:
    """The words of the terms an expression wants (not those under a NOT), each with its share
    of its term's weight (a phrase of n words: 1/n each): what scores a match."""
    wanted: list[tuple[str, float]] = []
    negated_depth, depth, after_not = -1, 0, False
    for kind, text, _, _ in found:
        if kind == "(":
            depth += 1
            if after_not and negated_depth < 0:
                negated_depth = depth
        elif kind == ")":
            if depth == negated_depth:
                negated_depth = -1
            depth -= 1
        elif kind == "term" and negated_depth < 0 and not after_not:
            parts = _WORD.findall(text)
            wanted.extend((w, 1 / len(parts)) for w in parts)
        after_not = (kind, text) == ("op", "NOT")
    return wanted


def words(
    conn: PgConnection, match: str, filters: Filters, limit: int, weights: tuple[float, ...]
) -> list[tuple[int, float]]:
    """FTS5's BM25 over the word postings. A question of words joined by OR (the usual shape)
    ranks the union of their postings, then reads the facts in score order only until
    ``limit`` pass the filters; any other expression takes its matches from the GIN index
    (``@@``) and scores them the same way."""
    found = tokens(match)
    where, params = _where(filters)
    ored = _or_words(found)
    scored = [(w, 1.0) for w in ored] if ored is not None else _positive_words(found)
    score_params = [
        [w for w, _ in scored],
        [share for _, share in scored],
        conn.project,
        conn.project,
        conn.project,
        *weights,
    ]
    if ored is not None:
        sql = (
            f"WITH {_BM25}, ranked AS MATERIALIZED "
            "(SELECT id, sum(s) AS s FROM postings GROUP BY id ORDER BY 2 DESC, 1 LIMIT %s) "
            "SELECT r.id, r.s FROM ranked r WHERE (SELECT true FROM facts f WHERE f.id = r.id AND f.project = %s "
            f"AND {where}) LIMIT %s"
        )
        # The best few first (a top-N sort, not a sort of every match); when the filters leave
        # fewer than ``limit`` of them, every match is ranked: the same answer either way.
        head = max(4 * limit, 200)
        rows = conn.execute(sql, (*score_params, head, conn.project, *params, limit)).fetchall()
        if len(rows) < limit:
            rows = conn.execute(sql, (*score_params, None, conn.project, *params, limit)).fetchall()
    else:
        sql = (
            f"WITH {_BM25}, matched AS MATERIALIZED (SELECT f.id FROM facts f WHERE f.project = %s "
            f"AND f.words @@ to_tsquery('kenning_simple', %s) AND {where}) "
            "SELECT m.id, coalesce(sum(p.s), 0) AS s FROM matched m LEFT JOIN postings p USING (id) "
            "GROUP BY m.id ORDER BY 2 DESC, 1 LIMIT %s"
        )
        rows = conn.execute(sql, (*score_params, conn.project, tsquery(match), *params, limit)).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def words_match(conn: PgConnection, match: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM facts WHERE project = %s AND words @@ to_tsquery('kenning_simple', %s) LIMIT 1",
            (conn.project, tsquery(match)),
        ).fetchone()
        is not None
    )


def count_words(conn: PgConnection, match: str, filters: Filters) -> int:
    where, params = _where(filters)
    return int(
        conn.execute(
            "SELECT count(*) FROM facts f WHERE f.project = %s AND f.words @@ to_tsquery('kenning_simple', %s) "
            f"AND {where}",
            (conn.project, tsquery(match), *params),
        ).fetchone()[0]
    )


def _like(text: str) -> str:
    return "%" + re.sub(r"([\\%_])", r"\\\1", text.lower()) + "%"


def _grams(match: str, weights: tuple[float, ...] = (4.0, 3.0, 1.0)) -> tuple[str, str, list[str]]:
    """(boolean SQL over ``f.grams``, score SQL, the LIKE patterns each takes in order)."""
    found = tokens(match)
    patterns = [_like(text) for kind, text, _, _ in found if kind == "term"]
    test = _join(
        found,
        lambda _t, _p, columns: "f.grams LIKE %s" if columns else "(f.grams LIKE %s AND false)",
        {"AND": "AND", "OR": "OR", "NOT": "AND NOT"},
    )
    title, keywords, path = (float(w) for w in weights)
    score = (
        " + ".join(
            f"({title} * (lower(f.title) LIKE %s)::int + {keywords} * (lower(f.keywords) LIKE %s)::int"
            f" + {path} * (lower(f.path) LIKE %s)::int)"
            for _ in patterns
        )
        or "0"
    )
    return test, score, patterns


def trigrams(
    conn: PgConnection, match: str, filters: Filters, limit: int, weights: tuple[float, ...] = (4.0, 3.0, 1.0)
) -> list[tuple[int, float]]:
    test, score, patterns = _grams(match, weights)
    where, params = _where(filters)
    rows = conn.execute(
        f"SELECT f.id, {score} AS s FROM facts f WHERE f.project = %s AND ({test}) AND {where} "
        "ORDER BY s DESC, f.id LIMIT %s",
        (*[p for p in patterns for _ in range(3)], conn.project, *patterns, *params, limit),
    ).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def count_trigrams(conn: PgConnection, match: str, filters: Filters) -> int:
    test, _, patterns = _grams(match)
    where, params = _where(filters)
    return int(
        conn.execute(
            f"SELECT count(*) FROM facts f WHERE f.project = %s AND ({test}) AND {where}",
            (conn.project, *patterns, *params),
        ).fetchone()[0]
    )


def estimated_postings(conn: PgConnection, terms: Counter[tuple[str, bool]]) -> int:
    """Facts of the project each term (a prefix: every word it starts) reaches, summed over its
    occurrences: the ``fts_guard`` estimate, from the word postings (a prefix: the GIN index)."""
    total = 0
    for (term, prefix), times in terms.items():
        query = _lexemes(term, prefix)
        if query == "''":
            continue
        if prefix:
            sql = "SELECT count(*) FROM facts WHERE project = %s AND words @@ to_tsquery('kenning_simple', %s)"
        else:  # the rarest of its words (a term of several words matches no more facts than that)
            sql = (
                "SELECT coalesce(min(n), 0) FROM (SELECT sum(cardinality(w.ids)) AS n FROM word_postings w "
                "WHERE w.project = %s AND w.lexeme IN (SELECT lexeme FROM unnest(to_tsvector('kenning_simple', %s))) "
                "GROUP BY w.lexeme) AS found"
            )
            query = " ".join(_WORD.findall(term))
        total += int(conn.execute(sql, (conn.project, query)).fetchone()[0]) * times
    return total


@contextmanager
def time_budget(conn: PgConnection, seconds: float) -> Iterator[None]:
    """Each statement inside ends after ``seconds`` (the server cancels it): ``QueryTooCostly``."""
    import psycopg  # the extra: only with a PostgreSQL store open

    conn.execute(f"SET statement_timeout = {max(1, int(seconds * 1000))}")
    try:
        yield
    except psycopg.errors.QueryCanceled as exc:
        raise QueryTooCostly(
            f"the query ran past its {seconds:g} s budget and was stopped",
            hint="narrow it: more specific terms, longer prefixes, a type or path filter",
        ) from exc
    finally:
        conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
