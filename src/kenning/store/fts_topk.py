"""The best ``k`` rows of a word query under FTS5's BM25, exactly, without scoring every match.

A natural query reaches FTS5 as a disjunction of phrases, ``"a" OR "b" OR "c"``. FTS5 scores a
row as a sum over the expression's phrases, in their order, of ``idf(p) × tf-part(p, row)``:
- ``idf(p)`` depends on the phrase and the whole table only (FTS5 counts the rows matching
  the phrase alone), never on the rest of the expression;
- a phrase the row does not hold adds ``+0.0``, which changes no float;
- ``tf-part = f × (k1 + 1) / (f + K)`` with ``K = k1 × (1 - b + b × D / avgdl) >= 0.3``, so it
  is strictly below ``k1 + 1 = 2.2`` for any non-negative column weights.

So the rows holding exactly the phrases of a subset ``S`` are the rows of
``"s1" AND "s2" NOT "o1"``; FTS5 scores them there bit for bit as under the disjunction (the
phrases they hold keep their order) and none scores ``2.2 × Σ idf(S)`` or more. Every
matching row holds exactly one subset. :func:`best` scores the subsets by decreasing bound
and stops once the ``k``-th best score found beats the next bound: the rows left unscored
can neither enter nor tie (ties go to the lower rowid, as in the plain query). On the
queries of ``bench/speed.py`` the rare subsets (every phrase, pairs) fill the top and the
single-phrase subsets, nearly all the matches, are seldom scored.

Costs, never results, shape the statements (:func:`plan`): subsets of two or more phrases
expected small share a statement per first phrase (``"a" AND ("b" OR "c")``: the phrases
still in order, and each one under the OR is positioned on every row that holds it); a
NOT over phrases holding many rows becomes ``rowid NOT IN (…)``, leaving those phrases out
of the scored expression (FTS5 would count all their rows for idf).

The plain query runs instead for: one live phrase; more than :data:`MAX_PHRASES`; few
matches; phrases that are all common (:data:`COMMON_FROM`); single-phrase subsets still to
score that hold most rows; statements whose own counting would pass half the cost of
scoring every match; an expression that is not a plain disjunction of phrases (``--syntax
fts`` with prefixes, ``NEAR``, columns, ``AND``); a ranking that is not ``bm25()`` with
non-negative weights; a connection already in a transaction (FTS5's pending writes are not
in the stored row count read here).
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass
from itertools import combinations

K1_PLUS_1 = 2.2  # FTS5's bm25(): k1 = 1.2 (and b = 0.75) are compiled in
MAX_PHRASES = 6  # live phrases pruned at most; more run the plain query
MAX_SUBSET_STEPS = 4  # live phrases pruned with one statement per subset at most (15)
FEW_MATCHES = 200  # below this many matches (phrase counts summed) the plain query is cheaper
SMALL_SET = 150  # rows a subset of 2+ phrases is expected to hold at most, to share a statement
EXCLUDE_BY_QUERY = 10_000  # rows of the excluded phrases from which they are excluded in SQL
SCORE_COST = 30  # scoring a row costs about as much as counting this many (1.5-2.5 µs, 0.07 µs)
OVERHEAD_SHARE = 0.5  # share of the plain query's scoring the statements' own counting may cost
# When every phrase is in 1/16 of the rows or more, subsets of several phrases are seldom
# small (common words come together: `def`, `return`, `self`), each statement recounts long
# doclists, and pruning pays nothing on average (bench/query_cost.py): the plain query runs.
COMMON_FROM = 16
PLAIN_FROM = 0.75  # share of the rows expected still to score from which the plain query runs
SAFETY = 1e-9  # relative margin on a bound, for float rounding (scores are about 1 to 100)

_PHRASE = r'"(?:[^"]|"")*"'
_DISJUNCTION = re.compile(rf"{_PHRASE}(?: OR {_PHRASE})*")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_SCORING = re.compile(rf"bm25\(\w+((?:, ?{_NUMBER})*)\)")


@dataclass(frozen=True)
class Index:
    """An FTS5 table and its ranking expression, ``bm25(<table>, <column weights >= 0>)``."""

    table: str
    scoring: str


def best(conn: sqlite3.Connection, index: Index, match: str, k: int, spare: int = 0) -> list[tuple[int, float]]:
    """``(rowid, score)`` of the best rows of ``<table> MATCH match``, exactly as
    ``SELECT rowid, <scoring> AS s … ORDER BY s, rowid LIMIT n`` returns them (FTS5 scores:
    lower is better), with ``n = k``; or ``n = max(k, spare)`` when every match is scored
    anyway (the plain query), since more rows then cost nothing."""
    phrases = phrases_of(match)
    if (
        k < 1
        or phrases is None
        or len(phrases) < 2
        or len(phrases) > 2 * MAX_PHRASES
        or conn.in_transaction
        or not bounded(index.scoring)
    ):
        return plain(conn, index, match, max(k, spare))
    try:
        conn.execute("BEGIN")  # one snapshot for the counts and every step
    except sqlite3.OperationalError:  # another thread began one on this connection meanwhile
        return plain(conn, index, match, max(k, spare))
    try:
        return _pruned(conn, index, match, phrases, k, spare)
    finally:
        conn.execute("COMMIT")


def plain(conn: sqlite3.Connection, index: Index, match: str, k: int) -> list[tuple[int, float]]:
    """The reference: every matching row scored, the best ``k`` kept."""
    return _rows(conn, index, match, k)


def phrases_of(match: str) -> tuple[str, ...] | None:
    """The quoted phrases of ``"a" OR "b" …`` (as written), or None for any other expression."""
    if not _DISJUNCTION.fullmatch(match):
        return None
    return tuple(re.findall(_PHRASE, match))


def bounded(scoring: str) -> bool:
    """Whether the bounds hold for this ranking expression: FTS5's ``bm25()`` with column
    weights that are plain numbers, none negative (a negative weight can make a phrase's
    share exceed ``2.2 × idf``)."""
    found = _SCORING.fullmatch(scoring)
    return found is not None and all(float(w) >= 0 for w in re.findall(_NUMBER, found.group(1)))


def bound(row_count: int, matching: int) -> float:
    """Strict upper bound of one phrase's share of a score: ``2.2 × idf`` as FTS5 computes
    idf (floored at 1e-6), with a margin for rounding."""
    idf = max(1e-6, math.log((row_count - matching + 0.5) / (matching + 0.5)))
    return K1_PLUS_1 * idf * (1 + SAFETY)


@dataclass(frozen=True)
class Step:
    """One statement of a plan: the rows holding every phrase of ``every``, at least one of
    ``some`` (when there are any: they follow ``every`` in the phrases' order) and none of the
    others. No row of the step scores ``bound`` or more."""

    every: tuple[int, ...]
    some: tuple[int, ...]
    bound: float


def plan(counts: list[int], row_count: int) -> list[Step]:
    """The steps covering every matching row once, highest bound first (none: run the plain
    query).

    One step per subset of phrases, unless every subset of two or more phrases is expected
    small (``SMALL_SET`` rows, phrases taken as independent): then those subsets go in
    ``len(counts) - 1`` steps, the rows whose first phrase is ``i`` (``"a" AND ("b" OR "c")``,
    ``"b" AND "c" NOT "a"``), each statement costing about as much to start as to score
    ``SMALL_SET`` rows. An estimate only decides the cost, never the result."""
    bounds = [bound(row_count, n) for n in counts]
    everything = range(len(counts))

    def total(indexes: tuple[int, ...]) -> float:
        return sum(bounds[i] for i in indexes) * (1 + SAFETY)

    subsets = [subset for size in range(len(counts), 0, -1) for subset in combinations(everything, size)]
    if all(
        _expected_rows(Step(subset, (), 0.0), counts, row_count) <= SMALL_SET for subset in subsets if len(subset) > 1
    ):
        steps = [Step((i,), tuple(everything[i + 1 :]), total(tuple(everything[i:]))) for i in everything[:-1]]
        steps += [Step((i,), (), total((i,))) for i in everything]
    elif len(counts) <= MAX_SUBSET_STEPS:
        steps = [Step(subset, (), total(subset)) for subset in subsets]
    else:
        return []  # too many statements: the plain query
    steps.sort(key=lambda step: (-step.bound, -len(step.every) - len(step.some), step.every))
    return steps


def exactly(phrases: tuple[str, ...], subset: tuple[int, ...]) -> str:
    """The MATCH expression of the rows holding the phrases of ``subset`` and no other,
    phrases in their original order (the order FTS5 sums them in)."""
    return _inside(phrases, Step(subset, (), 0.0)) + _not(phrases, subset)


def _inside(phrases: tuple[str, ...], step: Step) -> str:
    found = " AND ".join(phrases[i] for i in step.every)
    if step.some:
        found += " AND (" + " OR ".join(phrases[i] for i in step.some) + ")"
    return found


def _not(phrases: tuple[str, ...], inside: tuple[int, ...]) -> str:
    return "".join(f" NOT {p}" for i, p in enumerate(phrases) if i not in inside)


def _expected_rows(step: Step, counts: list[int], row_count: int) -> float:
    """Rows of a step if the phrases were independent: an estimate for costs only."""
    share = [n / row_count for n in counts]
    found = float(row_count)
    for i, p in enumerate(share):
        if i in step.every:
            found *= p
        elif i not in step.some:
            found *= 1 - p
    if step.some:
        found *= 1 - math.prod(1 - share[i] for i in step.some)
    return found


def _pruned(
    conn: sqlite3.Connection, index: Index, match: str, phrases: tuple[str, ...], k: int, spare: int
) -> list[tuple[int, float]]:
    row_count = stored_row_count(conn, index)
    if row_count is None:
        return plain(conn, index, match, max(k, spare))
    common = -(-row_count // COMMON_FROM)  # rows from which a phrase is common
    counts = _counts(conn, index, phrases, common)  # counted up to `common` only: cheap
    # A phrase no row holds adds 0.0 to every score: leaving it out changes nothing.
    live = tuple(p for p, n in zip(phrases, counts, strict=True) if n)
    if len(live) < 2 or len(live) > MAX_PHRASES or min(n for n in counts if n) >= common:
        return plain(conn, index, match, max(k, spare))
    live_counts = [n if n < common else _count(conn, index, p) for p, n in zip(phrases, counts, strict=True) if n]
    if sum(live_counts) < FEW_MATCHES or row_count < max(live_counts):
        return plain(conn, index, match, max(k, spare))
    steps = plan(live_counts, row_count)
    if not steps:
        return plain(conn, index, match, max(k, spare))
    expected = [_expected_rows(step, live_counts, row_count) for step in steps]
    # Each statement makes FTS5 count the rows of its phrases again (for idf): past a share of
    # what scoring every match costs, that overhead alone makes the plain query cheaper.
    budget = OVERHEAD_SHARE * SCORE_COST * max(max(live_counts), sum(expected))
    overhead = sum(live_counts)  # about the counts above
    kept: list[tuple[int, float]] = []
    for n, step in enumerate(steps):
        threshold = -kept[k - 1][1] if len(kept) >= k else 0.0
        if threshold > step.bound:
            break  # every row not yet scored scores below the k-th found
        if len(step.every) + len(step.some) == 1:  # the single-phrase steps hold most rows
            needed = sum(e for later, e in zip(steps[n:], expected[n:], strict=True) if later.bound > threshold)
            if needed >= PLAIN_FROM * sum(expected):
                return plain(conn, index, match, max(k, spare))  # it costs about the same, in one statement
        inside = (*step.every, *step.some)
        outside = [i for i in range(len(live)) if i not in inside]
        by_query = bool(outside) and sum(live_counts[i] for i in outside) >= EXCLUDE_BY_QUERY
        overhead += sum(live_counts[i] for i in (inside if by_query else range(len(live))))
        if overhead > budget:
            return plain(conn, index, match, max(k, spare))
        if not by_query:
            rows = _rows(conn, index, _inside(live, step) + _not(live, inside), k)
        else:  # FTS5 would count every row of a NOT phrase for its idf: exclude in SQL
            rows = _rows_except(conn, index, _inside(live, step), " OR ".join(live[i] for i in outside), k)
        kept = sorted([*kept, *rows], key=lambda row: (row[1], row[0]))[:k]
    return kept


def _counts(conn: sqlite3.Connection, index: Index, phrases: tuple[str, ...], cap: int) -> list[int]:
    """How many rows hold each phrase, up to ``cap`` (one statement)."""
    count = f"(SELECT count(*) FROM (SELECT 1 FROM {index.table} WHERE {index.table} MATCH ? LIMIT ?))"
    found = conn.execute(f"SELECT {', '.join([count] * len(phrases))}", [v for p in phrases for v in (p, cap)])
    return [int(n) for n in found.fetchone()]


def stored_row_count(conn: sqlite3.Connection, index: Index) -> int | None:
    """The row count FTS5 divides by in idf: the first varint of the table's averages
    record (rowid 1 of ``<table>_data``), None when it cannot be read."""
    found = conn.execute(f"SELECT block FROM {index.table}_data WHERE id = 1").fetchone()
    return _row_count(found[0] if found else None)


def _row_count(block: object) -> int | None:
    if not isinstance(block, bytes) or not block:
        return None
    return _varint(block)


def _varint(data: bytes) -> int | None:
    """SQLite's varint (big-endian, 7 bits a byte, the 9th byte whole)."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return None


def _count(conn: sqlite3.Connection, index: Index, phrase: str) -> int:
    sql = f"SELECT count(*) FROM {index.table} WHERE {index.table} MATCH ?"
    return int(conn.execute(sql, (phrase,)).fetchone()[0])


def _rows(conn: sqlite3.Connection, index: Index, match: str, k: int) -> list[tuple[int, float]]:
    rows = conn.execute(
        f"SELECT rowid, {index.scoring} AS s FROM {index.table} WHERE {index.table} MATCH ? ORDER BY s, rowid LIMIT ?",
        (match, k),
    ).fetchall()
    return [(row[0], row[1]) for row in rows]


def _rows_except(conn: sqlite3.Connection, index: Index, match: str, outside: str, k: int) -> list[tuple[int, float]]:
    """``_rows`` of ``match`` without the rows holding any phrase of ``outside``, which are
    left out of the scored expression (so FTS5 does not count their rows)."""
    table = index.table
    rows = conn.execute(
        f"SELECT rowid, {index.scoring} AS s FROM {table} WHERE {table} MATCH ? AND rowid NOT IN "
        f"(SELECT rowid FROM {table} WHERE {table} MATCH ?) ORDER BY s, rowid LIMIT ?",
        (match, f"({match}) AND ({outside})", k),
    ).fetchall()
    return [(row[0], row[1]) for row in rows]
