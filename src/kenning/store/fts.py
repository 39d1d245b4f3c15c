"""Full-text candidates: FTS5 BM25 over words, FTS5 trigrams over titles, identifiers and
paths. Query parsing, escaping, fusion and every scoring feature above the engine's own
ranking stay in ``search/``; this module only answers "which facts, with which engine
score", under the serving filters.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from kenning.bounded import keep
from kenning.errors import InvalidQuery
from kenning.records import Lifecycle
from kenning.store import fts_tokens, fts_topk, match_counts, postings
from kenning.store.postgres import fts as pg
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from kenning.store.handle import EngineConnection

OVERFETCH = 3  # FTS page size as a multiple of the hits wanted, before filtering
COUNT_AMONG = 256  # facts passing a count's filters looked up in the impact lists, at most
COUNT_BY_ROWID = 32  # and without the lists, looked up by FTS5 one rowid at a time
TRIGRAM_WEIGHTS = (4.0, 1.0)  # title, path (migration 0016: keywords are in the word index only)
SYNTAX_HINT = (
    'FTS syntax: terms, "phrases", prefix*, AND / OR / NOT between terms, balanced parentheses, '
    "column:term for title, keywords, path or body; or search in natural syntax"
)
COLUMNS = ("title", "keywords", "path", "body")
TRIGRAM_COLUMNS = ("title", "path")  # migration 0016
_NEAR = re.compile(r'syntax error near "(.*)"$', re.DOTALL)
_COLUMN = re.compile(r"no such column: (.*)$", re.DOTALL)


# A parenthesised group beside a term (``a (b OR c)``, ``(b OR c) a``): FTS5 joins terms side by
# side, never a group to what stands beside it, and names the next operator or term in its error.
_GROUP_BESIDE = (
    re.compile(r"(?:^|[\s(])(?!(?:NEAR|AND|OR|NOT)\s*\()[^\s():{}^-][^\s():]*\s*\("),
    re.compile(r"\)\s*(?!(?:AND|OR|NOT)\b)[^\s)]"),
)


def syntax_error(exc: sqlite3.Error, columns: tuple[str, ...] = COLUMNS, match: str = "") -> InvalidQuery:
    """The ``InvalidQuery`` for an expression FTS5 refused, in kenning's words (the same for
    every interface, and as PostgreSQL's reading of the expression says it; the engine's wording
    never reaches a user); ``columns``: the index's; ``match``: the expression."""
    message = str(exc).removeprefix("fts5: ")
    if near := _NEAR.search(message):
        token = near.group(1)
        what = "the expression ends too early (an operator or a parenthesis waits for a term)"
        if any(pattern.search(match) for pattern in _GROUP_BESIDE):
            what = "a parenthesised group needs AND, OR or NOT between it and what stands beside it"
        elif token in ("AND", "OR", "NOT"):
            what = f"{token} needs a term on each side"
        elif token:
            what = f"unexpected {token!r} (quote a term holding punctuation)"
    elif column := _COLUMN.search(message):
        name = column.group(1)
        what = f"{name!r} is not a column (columns: {', '.join(columns)}; quote a term holding ':' or '-')"
    elif "unterminated string" in message:
        what = "a quote is not closed"
    elif "special query" in message:
        what = "a lone '*' (a prefix needs a term before it: config*)"
    elif "expected integer" in message:
        what = "NEAR(…) takes terms, then a comma and a number: NEAR(a b, 5)"
    else:
        what = "this expression cannot be read"
    return InvalidQuery(f"invalid search syntax: {what}", hint=SYNTAX_HINT)


@dataclass(frozen=True)
class Filters:
    """What a search may serve: types, lifecycles, path prefix, memory type, and a date
    window (``since`` / ``until``, inclusive ``YYYY-MM-DD``) on the fact's date: the
    source's date (a decision record's own date), else the day it was indexed."""

    types: tuple[str, ...] = ()
    lifecycles: tuple[str, ...] = ("active",)
    path_prefix: str | None = None
    memory_type: str | None = None
    since: str | None = None
    until: str | None = None


def word_index(weights: tuple[float, ...]) -> fts_topk.Index:
    """The word index ranked by ``bm25()`` with column weights (title, keywords, path, body)."""
    return fts_topk.Index("facts_fts", f"bm25(facts_fts, {', '.join(map(str, weights))})")


def trigram_index(weights: tuple[float, ...] = TRIGRAM_WEIGHTS) -> fts_topk.Index:
    return fts_topk.Index("facts_trigram", f"bm25(facts_trigram, {', '.join(map(str, weights))})")


def words(
    conn: EngineConnection, match: str, filters: Filters, limit: int, weights: tuple[float, ...]
) -> list[tuple[int, float]]:
    """``(fact id, score)`` of the best ``limit`` facts for an FTS5 expression over the word
    index, among those passing ``filters``; higher scores are better, ties go to the lower
    id. A malformed expression raises ``InvalidQuery``."""
    if is_pg(conn):
        return pg.words(conn, match, filters, limit, weights)
    try:
        return _best_passing(conn, word_index(weights), match, filters, limit)
    except sqlite3.OperationalError as exc:
        raise syntax_error(exc, match=match) from exc


def trigrams(conn: EngineConnection, match: str, filters: Filters, limit: int) -> list[tuple[int, float]]:
    """As :func:`words`, over the trigram index: titles and paths (``TRIGRAM_COLUMNS``, the
    only columns a filter may name there)."""
    if is_pg(conn):
        return pg.trigrams(conn, match, filters, limit)
    try:
        return _best_passing(conn, trigram_index(), match, filters, limit)
    except sqlite3.OperationalError as exc:
        raise syntax_error(exc, TRIGRAM_COLUMNS, match) from exc


def check_syntax(conn: EngineConnection, match: str) -> None:
    """``InvalidQuery`` — the one :func:`words` would raise — when the word index cannot read
    ``match``, without running it: SQLite parses it against an empty table of the same columns
    and tokenizer (``fts_tokens.empty_table``), PostgreSQL reads it as ``words`` does."""
    if is_pg(conn):
        pg.tokens(match)
        return
    empty = fts_tokens.empty_table(conn, "facts_fts", COLUMNS)
    try:
        empty.execute("SELECT 1 FROM facts_fts WHERE facts_fts MATCH ?", (match,)).fetchall()
    except sqlite3.OperationalError as exc:
        raise syntax_error(exc, match=match) from exc


def words_match(conn: EngineConnection, match: str) -> bool:
    """Whether any fact, whatever its lifecycle, matches ``match`` in the word index."""
    return words_held(conn, match, 1) > 0


def words_held(conn: EngineConnection, match: str, cap: int) -> int:
    """How many facts, whatever their lifecycle, match ``match`` in the word index, counted up to
    ``cap`` (``cap`` when there are more): a term's weight in a project without reading every row.

    Kept per store state (``postings.store_key``: the file, its write counter and the word
    index's averages record, as the impact lists are), so a server asks the index once a term
    between two writes: ``p53`` or ``IL-6`` in a question is checked on every question that
    holds it, and a phrase of common tokens costs a few hundred microseconds to find. A count
    kept answers any ``cap`` it decides (under the cap it was counted to, or a smaller ``cap``):
    a term asked with two caps is counted once when the larger comes first."""
    if is_pg(conn):
        return pg.words_held(conn, match, cap)
    store = postings.store_key(conn, "facts_fts")
    key = (*store, match) if store is not None else None
    if key is not None:
        known = _MATCHED.get(key)
        if known is not None and (known[0] < known[1] or cap <= known[1]):
            return min(known[0], cap)
    found = conn.execute(
        "SELECT count(*) FROM (SELECT 1 FROM facts_fts WHERE facts_fts MATCH ? LIMIT ?)", (match, cap)
    ).fetchone()[0]
    if key is not None:
        keep(_MATCHED, key, (found, cap), MATCHED_KEPT)
    return found


def word_rows(conn: EngineConnection) -> int:
    """How many rows the word index holds, as its ranking counts them (a record's read, no scan)."""
    if is_pg(conn):
        return pg.word_rows(conn)
    return fts_topk.stored_row_count(conn, fts_topk.Index("facts_fts", "")) or 0


MATCHED_KEPT = 4096
_MATCHED: dict[tuple[object, ...], tuple[int, int]] = {}  # (count, the cap it was counted to)


def holds_type(conn: EngineConnection, fact_type: str, lifecycles: tuple[str, ...]) -> bool:
    """Whether any fact of ``fact_type`` has one of ``lifecycles`` (an index lookup per
    lifecycle); PostgreSQL: True (not asked there)."""
    if is_pg(conn):
        return True
    marks = ",".join("?" * len(lifecycles))
    sql = f"SELECT 1 FROM facts WHERE lifecycle IN ({marks}) AND type = ? LIMIT 1"
    return conn.execute(sql, (*lifecycles, fact_type)).fetchone() is not None


def count_words(conn: EngineConnection, match: str, filters: Filters) -> int:
    """How many facts passing ``filters`` match ``match`` in the word index."""
    if is_pg(conn):
        return pg.count_words(conn, match, filters)
    return _count(conn, "facts_fts", match, filters)


def count_trigrams(conn: EngineConnection, match: str, filters: Filters) -> int:
    """How many facts passing ``filters`` match ``match`` in the trigram index."""
    if is_pg(conn):
        return pg.count_trigrams(conn, match, filters)
    try:
        return _count(conn, "facts_trigram", match, filters)
    except sqlite3.OperationalError as exc:
        raise syntax_error(exc, TRIGRAM_COLUMNS, match) from exc


def _count(conn: sqlite3.Connection, table: str, match: str, filters: Filters) -> int:
    where, params = _where(filters)
    phrases = fts_topk.phrases_of(match)
    # The facts passing the filters, up to what a look-up takes: none is the common case (no
    # superseded fact at all, the count every served answer makes) and answers at once.
    cap = COUNT_AMONG + 1 if phrases else 1
    passing = [row[0] for row in conn.execute(f"SELECT f.id FROM facts f WHERE {where} LIMIT ?", (*params, cap))]
    if not passing:
        return 0
    if phrases:
        counted = _counted_without_scan(conn, table, match, phrases, passing, where, params)
        if counted is not None:
            return counted
    # CROSS JOIN: the FTS table drives. Driven by a selective filter, SQLite re-ran the MATCH
    # once per fact, re-expanding a prefix term every time (14 s for `s*` on 27 MB).
    return int(
        conn.execute(
            f"SELECT count(*) FROM {table} CROSS JOIN facts f ON f.id = {table}.rowid "
            f"WHERE {table} MATCH ? AND {where}",
            (match, *params),
        ).fetchone()[0]
    )


def _counted_without_scan(
    conn: sqlite3.Connection,
    table: str,
    match: str,
    phrases: tuple[str, ...],
    passing: list[int],
    where: str,
    params: list[Any],
) -> int | None:
    """How many facts passing the filters match a disjunction of phrases, without reading
    every match (25 ms a question on LoCoMo x10, 4.5 ms on Django, for any superseded fact at
    all): ``passing`` (all of them when at most :data:`COUNT_AMONG`) looked up in the impact
    lists the ranking just read, or, lists not held (a one-shot command, the trigram index)
    and at most :data:`COUNT_BY_ROWID` of them, by rowid in one FTS5 statement; more of them
    (a project whose files were rewritten): a mask of them over the lists. None: the caller
    counts every match."""
    if len(passing) > COUNT_AMONG:
        return match_counts.count_marked(conn, table, phrases, where, tuple(params))
    counted = match_counts.count_holding(conn, table, phrases, passing)
    if counted is None and len(passing) <= COUNT_BY_ROWID:
        marks = ",".join("?" * len(passing))
        sql = f"SELECT count(*) FROM {table} WHERE {table} MATCH ? AND rowid IN ({marks})"
        counted = int(conn.execute(sql, (match, *passing)).fetchone()[0])
    return counted


def _where(filters: Filters, alias: str = "f") -> tuple[str, list[Any]]:
    clauses = [f"{alias}.lifecycle IN ({','.join('?' * len(filters.lifecycles))})"]
    params: list[Any] = list(filters.lifecycles)
    if filters.types:
        clauses.append(f"{alias}.type IN ({','.join('?' * len(filters.types))})")
        params.extend(filters.types)
    if filters.path_prefix:
        clauses.append(f"substr({alias}.source_uri, 1, ?) = ?")
        params.extend([len(filters.path_prefix), filters.path_prefix])
    if filters.memory_type:
        clauses.append(f"{alias}.memory_type = ?")
        params.append(filters.memory_type)
    for bound, op in ((filters.since, ">="), (filters.until, "<=")):
        if bound:
            clauses.append(f"substr(coalesce({alias}.date_source, {alias}.date_indexed), 1, 10) {op} ?")
            params.append(bound)
    return " AND ".join(clauses), params


def _best_passing(
    conn: sqlite3.Connection, index: fts_topk.Index, match: str, filters: Filters, limit: int
) -> list[tuple[int, float]]:
    """Fast path: rank in the FTS table alone (the best ``limit`` first, then a page
    over-fetched ``OVERFETCH`` times), then filter; when filters removed too many from a full
    page, run the exact joined query.

    ``fts_topk.best`` returns the first rows of the full ranking, at least ``limit`` of them
    (or all); the first ``limit`` passing among them are the first ``limit`` passing of the page.
    """
    page = limit * OVERFETCH
    ranked = _ranked(conn, index, match, limit, spare=page)
    ids = [r[0] for r in ranked]
    kept = _passing(conn, ids[:limit], filters)  # the best ``limit`` first: most often all pass
    if len(kept) == limit:
        return [(r[0], -r[1]) for r in ranked[:limit]]
    kept |= _passing(conn, ids[limit:], filters)
    hits = [(r[0], -r[1]) for r in ranked if r[0] in kept]
    if len(hits) >= limit or len(ranked) < limit:
        return hits[:limit]
    if len(ranked) == limit < page:  # only the best `limit` were ranked: rank a page
        ranked = _ranked(conn, index, match, page)
        kept = _passing(conn, [r[0] for r in ranked], filters)
        hits = [(r[0], -r[1]) for r in ranked if r[0] in kept]
    if len(hits) >= limit or len(ranked) < page:
        return hits[:limit]
    where, params = _where(filters)
    rows = conn.execute(
        f"SELECT f.id, {index.scoring} AS s FROM {index.table} JOIN facts f ON f.id = {index.table}.rowid "
        f"WHERE {index.table} MATCH ? AND {where} ORDER BY s, f.id LIMIT ?",
        (match, *params, limit),
    ).fetchall()
    return [(row[0], -row[1]) for row in rows]


def _ranked(
    conn: sqlite3.Connection, index: fts_topk.Index, match: str, k: int, spare: int = 0
) -> list[tuple[int, float]]:
    """The first rows of ``match``'s full ranking, at least ``k`` of them (or all): from the
    impact lists kept in memory (``postings``) when the expression is a disjunction of phrases
    they can serve, else from ``fts_topk`` (pruned FTS5 statements)."""
    phrases = fts_topk.phrases_of(match)
    if phrases and fts_topk.bounded(index.scoring):
        found = postings.best(conn, index.table, index.scoring, phrases, k)
        if found is not None:
            return found
    return fts_topk.best(conn, index, match, k, spare)


def _passing(conn: sqlite3.Connection, ids: list[int], filters: Filters) -> set[int]:
    if not ids:
        return set()
    excluded = _left_out(conn, filters)
    if excluded is not None:
        return {fact_id for fact_id in ids if fact_id not in excluded}
    where, params = _where(filters)
    marks = ",".join("?" * len(ids))
    return {
        row[0]
        for row in conn.execute(
            f"SELECT f.id FROM facts f NOT INDEXED WHERE f.id IN ({marks}) AND {where}", (*ids, *params)
        )
    }


LEFT_OUT_KEPT = 4
_LEFT_OUT: dict[tuple[object, ...], frozenset[int]] = {}  # by store state and lifecycles


def _left_out(conn: sqlite3.Connection, filters: Filters) -> frozenset[int] | None:
    """The facts a filter of lifecycles alone leaves out (the superseded and retired ones, by
    default), kept per store state in a server (``postings.enabled``): its answers then filter a
    ranking's rows in memory instead of one statement each (``bench/nl_latency.py
    --mcp-baseline``: server CPU a call 6.30 against 6.47 ms on SciFact x10). None: the caller
    asks SQL (other filters; a one-shot command, which would read these ids for one answer; a
    transaction in progress)."""
    if filters.types or filters.path_prefix or filters.memory_type or filters.since or filters.until:
        return None
    if not postings.enabled() or conn.in_transaction:
        return None
    store = postings.store_key(conn, "facts_fts")  # its write counter: any write moves it
    if store is None:
        return None
    key = (*store, filters.lifecycles)
    known = _LEFT_OUT.get(key)
    if known is None:
        others = sorted({lc.value for lc in Lifecycle} - set(filters.lifecycles))  # IN: the index serves it
        marks = ",".join("?" * len(others))
        sql = f"SELECT id FROM facts WHERE lifecycle IN ({marks})"
        known = frozenset(row[0] for row in conn.execute(sql, others)) if others else frozenset()
        keep(_LEFT_OUT, key, known, LEFT_OUT_KEPT)
    return known
