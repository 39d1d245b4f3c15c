"""FTS5's query syntax read for PostgreSQL: the expressions ``search/`` builds (terms,
"phrases", prefix*, AND / OR / NOT, parentheses, column filters) checked as FTS5 checks them
and translated into a ``to_tsquery`` text over ``facts.words`` (``store.postgres.fts`` runs it)."""

from __future__ import annotations

import re

from kenning.errors import InvalidQuery

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SYNTAX_HINT = (  # the same as store.fts.SYNTAX_HINT (which imports this module)
    'FTS syntax: terms, "phrases", prefix*, AND / OR / NOT between terms, balanced parentheses, '
    "column:term for title, keywords, path or body; or search in natural syntax"
)
_TOKEN = re.compile(
    r"\s*(?:(?P<spec>(?P<minus>-\s*)?(?P<cols>\{[^}]*\}|\"(?:[^\"]|\"\")*\"|[^\s()\"{}:*-]+)\s*:)"
    r'|(?P<phrase>"(?:[^"]|"")*")|(?P<open>\()|(?P<close>\))|(?P<bare>[^\s()"]+))'
)
_STAR = re.compile(r"\s*\*")
WORD = re.compile(r"[^\W_]+")  # FTS5 unicode61: `_` separates words
# Not one of FTS5's bareword characters (fts5_expr.c: A-Z a-z 0-9 _, 0x1A and every non-ASCII
# character), spelled as the ASCII it leaves: ``[^…\x80-\U0010ffff]`` took 6 ms to compile (timed by hand).
_NOT_BARE = re.compile(r"[\x00-\x19\x1b-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]")
# The weight of each column in ``facts.words`` (PostgreSQL migration 0005): a column filter
# (``title:word``, ``{title body}:word``, ``-path:word``, ``title:(a OR b)``) keeps a term's
# matches to those columns' positions, as FTS5 does.
COLUMN_WEIGHTS = {"title": "A", "keywords": "B", "path": "C", "body": "D"}
ALL_COLUMNS = "ABCD"
# The trigram search's columns (SQLite's ``facts_trigram``, migration 0016: titles and paths).
TRIGRAM_COLUMNS = {"title": "A", "path": "C"}

# SQLite's messages for the same mistakes (store.fts.syntax_error), so that both engines say the same.
_ENDS_EARLY = "the expression ends too early (an operator or a parenthesis waits for a term)"
_STRAY_CLOSE = "unexpected ')' (quote a term holding punctuation)"
_GROUP_BESIDE = "a parenthesised group needs AND, OR or NOT between it and what stands beside it"

Token = tuple[str, str, bool, str]  # (kind, text, prefix, the term's column weights: ALL_COLUMNS unless filtered)


def tokens(match: str, known: dict[str, str] = COLUMN_WEIGHTS) -> list[Token]:
    """``(kind, text, prefix, columns)`` with kind ``term``, ``op`` (AND, OR, NOT), ``(`` or
    ``)``; a term's ``columns`` are the weights of the columns it may match (a column filter
    before it or before its parentheses), among those of ``known``; a malformed expression, or
    a filter naming a column not in ``known``, raises ``InvalidQuery``."""
    found: list[Token] = []
    pos, text = 0, match.strip()
    scopes = [ALL_COLUMNS]  # the columns of each open parenthesis
    spec: str | None = None  # a column filter waiting for its term or parenthesis
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise InvalidQuery("invalid search syntax: a quote is not closed", hint=SYNTAX_HINT)
        pos = m.end()
        if m["spec"]:
            if spec is not None:
                raise InvalidQuery("invalid search syntax: two column filters in a row", hint=SYNTAX_HINT)
            spec = _columns(m["cols"], negated=bool(m["minus"]), known=known)
            continue
        columns = "".join(c for c in scopes[-1] if spec is None or c in spec)
        if m["phrase"]:
            star = _STAR.match(text, pos)  # `"a"*`, `"a" *`: FTS5 reads both as a prefix
            pos = star.end() if star else pos
            found.append(("term", m["phrase"][1:-1].replace('""', '"'), star is not None, columns))
        elif m["open"]:
            scopes.append(columns)
            found.append(("(", "", False, ALL_COLUMNS))
        elif m["close"]:
            if spec is not None:
                raise InvalidQuery(f"invalid search syntax: {_STRAY_CLOSE}", hint=SYNTAX_HINT)
            if len(scopes) > 1:
                scopes.pop()
            found.append((")", "", False, ALL_COLUMNS))
        elif m["bare"] in ("AND", "OR", "NOT") and spec is None:
            found.append(("op", m["bare"], False, ALL_COLUMNS))
        else:
            star = None if m["bare"].endswith("*") else _STAR.match(text, pos)  # `a *` as `a*`
            pos = star.end() if star else pos
            found.append(("term", _bareword(m["bare"]), m["bare"].endswith("*") or star is not None, columns))
        spec = None
    if spec is not None:
        raise InvalidQuery(f"invalid search syntax: {_ENDS_EARLY}", hint=SYNTAX_HINT)
    _check(found)
    if any(kind == "term" and not WORD.search(text) for kind, text, _, _ in found):
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
            return token if WORD.search(token[1]) else None
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
    if bare == "*":
        raise InvalidQuery(
            "invalid search syntax: a lone '*' (a prefix needs a term before it: config*)", hint=SYNTAX_HINT
        )
    stray = _NOT_BARE.search(bare.removesuffix("*"))
    if stray:
        what = f"unexpected {stray.group()!r} (quote a term holding punctuation)"
        raise InvalidQuery(f"invalid search syntax: {what}", hint=SYNTAX_HINT)
    return bare.removesuffix("*")


def _columns(spec: str, *, negated: bool, known: dict[str, str]) -> str:
    """The weights a column filter names (``title``, ``"title"``, ``{title body}``), or all
    the other ``known`` ones after ``-``; an unknown column is ``InvalidQuery``, as on SQLite."""
    if spec.startswith("{"):
        names = spec[1:-1].split()
    elif spec.startswith('"'):
        names = [spec[1:-1].replace('""', '"')]
    else:
        names = [spec]
    weights = set()
    for name in names:
        weight = known.get(name.lower())
        if weight is None:
            what = f"{name!r} is not a column (columns: {', '.join(known)}; quote a term holding ':' or '-')"
            raise InvalidQuery(f"invalid search syntax: {what}", hint=SYNTAX_HINT)
        weights.add(weight)
    return "".join(c for c in ALL_COLUMNS if c in known.values() and (c in weights) != negated)


def _check(found: list[Token]) -> None:
    depth, expect_operand, previous = 0, True, None
    for kind, text, _, _ in found:
        if (kind == "(" and previous in ("term", ")")) or (kind == "term" and previous == ")"):
            # FTS5 joins terms side by side (an implicit AND), never a group to what stands beside it
            raise InvalidQuery(f"invalid search syntax: {_GROUP_BESIDE}", hint=SYNTAX_HINT)
        previous = kind
        if kind == "op":
            if expect_operand:
                raise InvalidQuery(f"invalid search syntax: {text} needs a term on each side", hint=SYNTAX_HINT)
            expect_operand = True
        elif kind == "(":
            depth += 1
            expect_operand = True
        elif kind == ")":
            depth -= 1
            if depth < 0 or expect_operand:
                raise InvalidQuery(f"invalid search syntax: {_STRAY_CLOSE}", hint=SYNTAX_HINT)
        else:
            expect_operand = False
    if depth or expect_operand:
        raise InvalidQuery(f"invalid search syntax: {_ENDS_EARLY}", hint=SYNTAX_HINT)


def join(found: list[Token], term: Any, ops: dict[str, str]) -> str:
    """The expression with each term rendered by ``term(text, prefix, columns)`` and FTS5's
    implicit AND made explicit: terms side by side are one group, which binds tighter than
    any operator (``a NOT b c`` is ``a NOT (b AND c)``, as FTS5 reads it)."""
    out: list[str] = []
    previous = None
    for kind, text, prefix, columns in _runs_grouped(found):
        if kind in ("term", "(") and previous in ("term", ")"):
            out.append(ops["AND"])
        out.append(term(text, prefix, columns) if kind == "term" else ops[text] if kind == "op" else kind)
        previous = kind
    return " ".join(out)


def _runs_grouped(found: list[Token]) -> list[Token]:
    """``found`` with each run of two or more terms side by side in parentheses."""
    out: list[Token] = []
    run: list[Token] = []
    for token in [*found, ("end", "", False, ALL_COLUMNS)]:
        if token[0] == "term":
            run.append(token)
            continue
        if len(run) > 1:
            out += [("(", "", False, ALL_COLUMNS), *run, (")", "", False, ALL_COLUMNS)]
        else:
            out += run
        run = []
        if token[0] != "end":
            out.append(token)
    return out


def lexemes(text: str, prefix: bool, columns: str = ALL_COLUMNS) -> str:
    words = WORD.findall(text)
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
    return join(tokens(match), lexemes, {"AND": "&", "OR": "|", "NOT": "& !"})
