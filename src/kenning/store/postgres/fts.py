"""``store.fts`` on PostgreSQL: the same FTS5-syntax expressions (built by ``search/``),
translated into a ``tsquery`` for words (``fts_syntax``) and into ``LIKE`` tests for trigrams.

Words: ``facts.words`` (``kenning_simple``, PostgreSQL migration 0005: words as FTS5 reads
them) ranked by FTS5's own BM25 (column weights title, keywords, path, body; inverse document
frequency; length normalisation) computed from the word postings (PostgreSQL migration 0008), not from
the fact rows; ties go to the lower id; a column-filtered term counts in its columns only.
Trigrams: every term must occur inside the lower-cased title or path its filter leaves it (as
SQLite's ``facts_trigram``), found through ``facts.grams`` (title, keywords and path; a pg_trgm
GIN index serves the ``LIKE``), scored by the weighted count of the columns holding a term
(title 4, path 1, as the SQLite trigram weights).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from kenning.errors import QueryTooCostly
from kenning.store.fold import fold, like_escaped
from kenning.store.postgres.connection import STATEMENT_TIMEOUT_MS, PgConnection
from kenning.store.postgres.fts_phrases import Phrase, phrase, phrase_ctes, phrase_params
from kenning.store.postgres.fts_syntax import (
    ALL_COLUMNS,
    TRIGRAM_COLUMNS,
    WORD,
    Token,
    join,
    lexemes,
    tokens,
    tsquery,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from kenning.store.fts import Filters

# ts_rank_cd's normalisation 1 (the rank divided by 1 + log(document length)), for the lexical
# search over graph nodes (graph_lookup.py); excerpts are ranked by BM25 below.
LENGTH_NORMALISATION = 1


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
# `terms` (a repeated word counts twice, as in FTS5); a phrase is scored as one term beside them
# (``fts_phrases``), the words of a prefix phrase share its weight. A term's `mask` keeps the hit
# counts of the columns its filter names (`title:word`; -1: every column): as in FTS5, its hits
# and its document frequency count in those columns only.
_TERMS = f"""
terms AS MATERIALIZED (
    SELECT u.lexeme, t.share, t.mask FROM unnest(%s::text[], %s::float8[], %s::bigint[]) AS t(word, share, mask),
        unnest(to_tsvector('kenning_simple', t.word)) AS u WHERE u.lexeme <> ' '),
stats AS MATERIALIZED (
    SELECT docs::float8 AS docs, {K1 * B}::float8 / greatest(words::float8 / greatest(docs, 1), 1e-9) AS per_word
    FROM word_stats WHERE project = %s)"""
_IDF = "(CASE WHEN x > 0 THEN x ELSE 1e-6 END)"
_SATURATED = f"k.boost * v.f / (v.f + {K1 * (1 - B)}::float8 + (SELECT per_word FROM stats) * v.n)"
# No term filtered (the usual case): the column weights are constants and every posting counts.
_BM25 = f"""{_TERMS},
boosts AS MATERIALIZED (
    SELECT t.lexeme, t.share * {_IDF} * {K1 + 1}::float8 AS boost
    FROM terms t CROSS JOIN stats s,
        LATERAL (SELECT sum(cardinality(w.ids))::float8 AS n FROM word_postings w
            WHERE w.project = %s AND w.lexeme = t.lexeme) AS df,
        LATERAL ln(greatest((s.docs - df.n + 0.5) / (df.n + 0.5), 1e-9)) AS x
    WHERE df.n IS NOT NULL),
postings AS (
    SELECT v.id, {_SATURATED} AS s
    FROM boosts k JOIN word_postings w ON w.project = %s AND w.lexeme = k.lexeme,
        LATERAL (SELECT x.id, x.n::float8 AS n, %s::float8 * (x.h & 65535) + %s::float8 * ((x.h >> 16) & 65535)
            + %s::float8 * ((x.h >> 32) & 65535) + %s::float8 * (x.h >> 48) AS f
            FROM unnest(w.ids, w.hits, w.lens) AS x(id, h, n)) AS v)"""
# Some term filtered: each term weighs only its columns, counts only the postings with hits
# there, and its document frequency from those (about a fifth slower than the statement above
# for the same unfiltered question, 300,000 facts: kept for filtered expressions).
_BM25_FILTERED = f"""{_TERMS},
boosts AS MATERIALIZED (
    SELECT t.lexeme, t.mask, t.share * {_IDF} * {K1 + 1}::float8 AS boost,
        CASE WHEN t.mask & 65535 <> 0 THEN %s::float8 ELSE 0 END AS wt,
        CASE WHEN (t.mask >> 16) & 65535 <> 0 THEN %s::float8 ELSE 0 END AS wk,
        CASE WHEN (t.mask >> 32) & 65535 <> 0 THEN %s::float8 ELSE 0 END AS wp,
        CASE WHEN (t.mask >> 48) & 65535 <> 0 THEN %s::float8 ELSE 0 END AS wb
    FROM terms t CROSS JOIN stats s,
        LATERAL (SELECT CASE WHEN t.mask = -1 THEN sum(cardinality(w.ids))
            ELSE sum((SELECT count(*) FROM unnest(w.hits) AS h WHERE h & t.mask <> 0)) END::float8 AS n
            FROM word_postings w WHERE w.project = %s AND w.lexeme = t.lexeme) AS df,
        LATERAL ln(greatest((s.docs - df.n + 0.5) / (df.n + 0.5), 1e-9)) AS x
    WHERE df.n > 0),
postings AS (
    SELECT v.id, {_SATURATED} AS s
    FROM boosts k JOIN word_postings w ON w.project = %s AND w.lexeme = k.lexeme,
        LATERAL (SELECT x.id, x.n::float8 AS n, k.wt * (x.h & 65535) + k.wk * ((x.h >> 16) & 65535)
            + k.wp * ((x.h >> 32) & 65535) + k.wb * (x.h >> 48) AS f
            FROM unnest(w.ids, w.hits, w.lens) AS x(id, h, n) WHERE x.h & k.mask <> 0) AS v)"""


def hit_mask(columns: str) -> int:
    """The bits of a posting's hit counts (title, keywords, path, body: 16 bits each, PostgreSQL
    migration 0008) that a term filtered to ``columns`` counts, as a signed 64-bit integer
    (-1: every column)."""
    mask = sum(0xFFFF << (16 * ALL_COLUMNS.index(c)) for c in columns)
    return mask - (1 << 64) if mask >= 1 << 63 else mask


Scored = tuple[str, float, int]  # (word, share of its term's weight, hit mask of the term's columns)


def _or_words(found: list[Token]) -> list[Scored] | None:
    """The words of an expression that is words joined by OR (what natural questions become),
    each with the columns its filter leaves it (``title:a OR b``): its matches are the union of
    the words' postings in those columns. ``None`` for any other shape."""
    words_found: list[Scored] = []
    for k, (kind, text, prefix, columns) in enumerate(found):
        if k % 2:
            if (kind, text) != ("op", "OR"):
                return None
            continue
        parts = WORD.findall(text) if kind == "term" and not prefix and columns else []
        if len(parts) != 1 or ":" in text:
            return None
        words_found.append((parts[0], 1.0, hit_mask(columns)))
    return words_found


def _positive_terms(found: list[Token]) -> tuple[list[Scored], list[Phrase]]:
    """The words and the phrases an expression wants (not those under a NOT): what scores a
    match. A phrase of several words is one term (``fts_phrases``); a prefix phrase (``"a b*"``)
    gives each of its n words a share of 1/n of a term's weight. As FTS5's ``bm25()``, a term
    filtered to columns counts its hits in those columns only, and its inverse document
    frequency from the facts holding it there."""
    wanted: list[Scored] = []
    phrases: list[Phrase] = []
    negated_depth, depth, after_not = -1, 0, False
    for kind, text, prefix, columns in found:
        if kind == "(":
            depth += 1
            if after_not and negated_depth < 0:
                negated_depth = depth
        elif kind == ")":
            if depth == negated_depth:
                negated_depth = -1
            depth -= 1
        elif kind == "term" and negated_depth < 0 and not after_not:
            parts = WORD.findall(text)
            if columns and len(parts) > 1 and not prefix:
                phrases.append(phrase(parts, columns))
            elif columns:
                wanted.extend((w, 1 / len(parts), hit_mask(columns)) for w in parts)
        after_not = (kind, text) == ("op", "NOT")
    return wanted, phrases


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
    scored, phrases = (ored, []) if ored is not None else _positive_terms(found)
    filtered = any(mask != -1 for _, _, mask in scored)
    bm25 = _BM25_FILTERED if filtered else _BM25
    per_term = [[w for w, _, _ in scored], [share for _, share, _ in scored], [mask for _, _, mask in scored]]
    if filtered:
        score_params = [*per_term, conn.project, *weights, conn.project, conn.project]
    else:
        score_params = [*per_term, conn.project, conn.project, conn.project, *weights]
    if ored is not None:
        sql = (
            f"WITH {bm25}, ranked AS MATERIALIZED "
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
        scores, extra = "postings", []
        matched = "FROM facts f WHERE f.project = %s AND f.words @@ to_tsquery('kenning_simple', %s)"
        matched_params = [conn.project, tsquery(match)]
        if phrases:
            bm25 += phrase_ctes(K1, B, _IDF)
            scores = "(SELECT id, s FROM postings UNION ALL SELECT id, s FROM phrase_scores)"
            extra = phrase_params(phrases, conn.project, weights)
            if len(found) == 1:  # the phrase alone: its facts, read once for its hits, are the matches
                matched, matched_params = (
                    "FROM phrase_hits h JOIN facts f ON f.id = h.id WHERE f.project = %s",
                    [conn.project],
                )
        sql = (
            f"WITH {bm25}, matched AS MATERIALIZED (SELECT f.id {matched} AND {where}) "
            f"SELECT m.id, coalesce(sum(p.s), 0) AS s FROM matched m LEFT JOIN {scores} p USING (id) "
            "GROUP BY m.id ORDER BY 2 DESC, 1 LIMIT %s"
        )
        rows = conn.execute(sql, (*score_params, *extra, *matched_params, *params, limit)).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def words_held(conn: PgConnection, match: str, cap: int) -> int:
    return int(
        conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM facts WHERE project = %s "
            "AND words @@ to_tsquery('kenning_simple', %s) LIMIT %s) AS held",
            (conn.project, tsquery(match), cap),
        ).fetchone()[0]
    )


def word_rows(conn: PgConnection) -> int:
    """How many facts the project's word statistics count (``word_stats``)."""
    found = conn.execute("SELECT docs FROM word_stats WHERE project = %s", (conn.project,)).fetchone()
    return int(found[0]) if found else 0


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
    return "%" + like_escaped(fold(text)) + "%"


# The trigram columns, their weights and their text (SQLite: ``facts_trigram``, title and path, ranked
# with ``store.fts.TRIGRAM_WEIGHTS``).
TRIGRAM_WEIGHTS = (4.0, 1.0)
_TRIGRAM_TEXT = {"A": "lower(f.title)", "C": "lower(f.path)"}


def _grams(match: str, weights: tuple[float, ...] = TRIGRAM_WEIGHTS) -> tuple[str, str, list[str], list[str]]:
    """(boolean SQL, score SQL, the LIKE patterns the test takes in order, those the score
    takes). A term is looked for in the title and path its filter leaves it (``title:"fig"``,
    ``-path:"fig"``; keywords and body are not trigram columns: ``InvalidQuery``, as on
    SQLite), each a ``LIKE`` inside its own column; ``f.grams`` (title, keywords and path, one
    text) holds every match, and its pg_trgm index finds them."""
    found = tokens(match, TRIGRAM_COLUMNS)
    terms = [
        (_like(text), [c for c in columns if c in _TRIGRAM_TEXT]) for kind, text, _, columns in found if kind == "term"
    ]
    tests = iter(terms)

    def test(_text: str, _prefix: bool, _columns: str) -> str:
        _, columns = next(tests)
        if not columns:
            return "(f.grams LIKE %s AND false)"
        return "(f.grams LIKE %s AND (" + " OR ".join(f"{_TRIGRAM_TEXT[c]} LIKE %s" for c in columns) + "))"

    sql = join(found, test, {"AND": "AND", "OR": "OR", "NOT": "AND NOT"})
    test_patterns = [p for pattern, columns in terms for p in [pattern] * (1 + len(columns))]
    weight = dict(zip(_TRIGRAM_TEXT, (float(w) for w in weights), strict=True))
    score = " + ".join(f"{weight[c]} * ({_TRIGRAM_TEXT[c]} LIKE %s)::int" for _, columns in terms for c in columns)
    score_patterns = [pattern for pattern, columns in terms for _ in columns]
    return sql, score or "0", test_patterns, score_patterns


def trigrams(
    conn: PgConnection, match: str, filters: Filters, limit: int, weights: tuple[float, ...] = TRIGRAM_WEIGHTS
) -> list[tuple[int, float]]:
    test, score, patterns, score_patterns = _grams(match, weights)
    where, params = _where(filters)
    rows = conn.execute(
        f"SELECT f.id, {score} AS s FROM facts f WHERE f.project = %s AND ({test}) AND {where} "
        "ORDER BY s DESC, f.id LIMIT %s",
        (*score_patterns, conn.project, *patterns, *params, limit),
    ).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def count_trigrams(conn: PgConnection, match: str, filters: Filters) -> int:
    test, _, patterns, _ = _grams(match)
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
        query = lexemes(term, prefix)
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
            query = " ".join(WORD.findall(term))
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
