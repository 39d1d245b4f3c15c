"""The best ``k`` rows of a word query under FTS5's BM25, exactly, without scoring every match.

A natural query reaches FTS5 as a disjunction of phrases, ``"a" OR "b" OR "c"``. FTS5 scores a
row as a sum over the query's phrases, in their order, of ``idf(p) × tf-part(p, row)``:
- ``idf(p)`` depends on the phrase and the whole table only (FTS5 counts the rows matching
  the phrase alone), never on the rest of the expression;
- a phrase the row does not contain adds ``+0.0``, which changes no float;
- ``tf-part = f × (k1 + 1) / (f + K)`` with ``K = k1 × (1 - b + b × D / avgdl) >= 0.3``, so it
  is strictly below ``k1 + 1 = 2.2`` whatever the (non-negative) column weights.

So the rows holding exactly the phrases of a subset ``S`` (and none of the others) are the
rows of ``"s1" AND "s2" NOT "o1"``, FTS5 gives them there the very score they get under the
disjunction (the phrases keep their order), and none of them scores ``2.2 × Σ idf(S)`` or
more. Every matching row holds exactly one such subset. :func:`best` ranks each subset's rows
by decreasing bound and stops once the ``k``-th best score found beats the next bound: the
rows left unscored cannot enter, nor tie (ties go to the lower rowid, as in the plain query).
On the queries of ``bench/speed.py`` the rare subsets (every phrase, pairs) fill the top and
the single-phrase subsets, nearly all the matches, are never scored.

Anything else runs the plain query: a single live phrase, more than :data:`MAX_PHRASES`
(2^n subsets), few matches, an expression that is not a plain disjunction of phrases
(``--syntax fts`` with prefixes, ``NEAR``, columns, ``AND``), a connection already inside a
transaction (FTS5's pending writes are not in the stored totals read here).
"""

from __future__ import annotations

import math
import re
import sqlite3
from itertools import combinations

K1_PLUS_1 = 2.2  # FTS5's bm25(): k1 = 1.2 (and b = 0.75) are compiled in
MAX_PHRASES = 4  # live phrases pruned by subsets (15 subsets); more run the plain query
FEW_MATCHES = 200  # below this many matches (phrase counts summed) the plain query is cheaper
SAFETY = 1e-9  # relative margin on a bound, for float rounding (scores are about 1 to 100)

_PHRASE = r'"(?:[^"]|"")*"'
_DISJUNCTION = re.compile(rf"{_PHRASE}(?: OR {_PHRASE})*")


def best(conn: sqlite3.Connection, match: str, k: int, scoring: str) -> list[tuple[int, float]]:
    """``(rowid, score)`` of the best ``k`` rows of ``facts_fts MATCH match``, exactly as
    ``SELECT rowid, <scoring> AS s … ORDER BY s, rowid LIMIT k`` returns them (FTS5 scores:
    lower is better). ``scoring`` is ``bm25(facts_fts, <column weights >= 0>)``."""
    phrases = phrases_of(match)
    if phrases is None or len(phrases) < 2 or len(phrases) > 2 * MAX_PHRASES or conn.in_transaction:
        return plain(conn, match, k, scoring)
    conn.execute("BEGIN")  # one snapshot for the counts and every subset
    try:
        return _pruned(conn, match, phrases, k, scoring)
    finally:
        conn.execute("COMMIT")


def plain(conn: sqlite3.Connection, match: str, k: int, scoring: str) -> list[tuple[int, float]]:
    """The reference: every matching row scored, the best ``k`` kept."""
    return _rows(conn, match, k, scoring)


def phrases_of(match: str) -> tuple[str, ...] | None:
    """The quoted phrases of ``"a" OR "b" …`` (as written), or None for any other expression."""
    if not _DISJUNCTION.fullmatch(match):
        return None
    return tuple(re.findall(_PHRASE, match))


def bound(row_count: int, matching: int) -> float:
    """Strict upper bound of one phrase's share of a score: ``2.2 × idf`` as FTS5 computes
    idf (floored at 1e-6), with a margin for rounding."""
    idf = max(1e-6, math.log((row_count - matching + 0.5) / (matching + 0.5)))
    return K1_PLUS_1 * idf * (1 + SAFETY)


def subsets_by_bound(bounds: list[float]) -> list[tuple[float, tuple[int, ...]]]:
    """Every non-empty subset of phrase indexes with its bound, highest bound first (ties:
    larger subsets first, then index order, so the plan is deterministic)."""
    found = [
        (sum(bounds[i] for i in subset) * (1 + SAFETY), subset)
        for size in range(len(bounds), 0, -1)
        for subset in combinations(range(len(bounds)), size)
    ]
    found.sort(key=lambda item: (-item[0], -len(item[1]), item[1]))
    return found


def exactly(phrases: tuple[str, ...], subset: tuple[int, ...]) -> str:
    """The MATCH expression of the rows holding the phrases of ``subset`` and no other,
    phrases in their original order (the order FTS5 sums them in)."""
    inside = " AND ".join(phrases[i] for i in subset)
    outside = "".join(f" NOT {p}" for i, p in enumerate(phrases) if i not in subset)
    return inside + outside


def _pruned(conn: sqlite3.Connection, match: str, phrases: tuple[str, ...], k: int,
            scoring: str) -> list[tuple[int, float]]:
    counts = [_count(conn, p) for p in phrases]
    # A phrase no row holds adds 0.0 to every score: leaving it out changes nothing.
    live = tuple(p for p, n in zip(phrases, counts) if n)
    live_counts = [n for n in counts if n]
    row_count = stored_row_count(conn)
    if (len(live) < 2 or len(live) > MAX_PHRASES or sum(live_counts) < FEW_MATCHES
            or row_count is None or row_count < max(live_counts)):
        return plain(conn, match, k, scoring)
    kept: list[tuple[int, float]] = []
    for limit, subset in subsets_by_bound([bound(row_count, n) for n in live_counts]):
        if len(kept) >= k and -kept[k - 1][1] > limit:
            break  # every row not yet scored scores below the k-th found
        rows = _rows(conn, exactly(live, subset), k, scoring)
        kept = sorted([*kept, *rows], key=lambda row: (row[1], row[0]))[:k]
    return kept


def stored_row_count(conn: sqlite3.Connection) -> int | None:
    """The row count FTS5 divides by in idf: the first varint of the table's averages
    record (rowid 1 of ``facts_fts_data``), None when it cannot be read."""
    found = conn.execute("SELECT block FROM facts_fts_data WHERE id = 1").fetchone()
    if found is None or not isinstance(found[0], bytes) or not found[0]:
        return None
    return _varint(found[0])


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


def _count(conn: sqlite3.Connection, phrase: str) -> int:
    return int(conn.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (phrase,)).fetchone()[0])


def _rows(conn: sqlite3.Connection, match: str, k: int, scoring: str) -> list[tuple[int, float]]:
    rows = conn.execute(
        f"SELECT rowid, {scoring} AS s FROM facts_fts WHERE facts_fts MATCH ? ORDER BY s, rowid LIMIT ?",
        (match, k),
    ).fetchall()
    return [(row[0], row[1]) for row in rows]
