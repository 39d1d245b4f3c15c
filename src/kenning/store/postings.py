"""Exact top-k of a disjunction of phrases from per-phrase impact lists kept in memory.

FTS5's ``bm25()`` scores a row of ``"a" OR "b" …`` as ``((0.0 + c_a) + c_b) + …`` where
``c_p = idf(p) × tf-part(p, row)`` depends on the phrase, the row and the whole table only, and
a phrase the row does not hold adds ``0.0`` (see ``fts_topk``). A one-phrase query returns
``-c_p`` for every row holding ``p``, bit for bit. So a phrase's *impact list* — every row
holding it with its ``c_p``, read once with ``SELECT rowid, bm25(…) … MATCH '"p"'`` — gives
the score of any disjunction of cached phrases, exactly as FTS5 computes it: the scoring
function is FTS5's own, and the top ``k`` (ties to the lower rowid) is the plain query's.

A query then costs what its phrases' lists hold, never a statement once they are read.
Long lists are summed in numpy when it is installed (the ``dense`` extra: an optional
accelerator, imported only then): one score per rowid, the phrases added in their own
order, the best ``k`` by partition. Without numpy, or for short lists, a pure-Python
term-at-a-time MaxScore prunes: phrases are taken by decreasing upper bound ``u_p`` (their
best impact); a row first seen at phrase ``i`` can score at most ``c_i + Σ u_later``, so once
that falls below the ``k``-th best partial sum found (a lower bound of the final ``k``-th
score: impacts are never negative) the rest of the list only adds to rows already held,
and rows whose partial sum plus ``Σ u_later`` falls below it are dropped. The survivors are
rescored in the phrases' own order, so the float sums are FTS5's.

The lists live per process, per store file and ranking expression, and are dropped when
the store's write counter (``store_version``, see ``version.py``) or the table's averages
record moves; nothing is persisted (the store does not grow). A phrase's list is read the
first time it is asked (one statement scoring its rows: about what the plain query spends
on them). Only processes that called :func:`enable` keep lists: the
MCP and web servers, which keep the lists of the words they are asked; a one-shot CLI
search runs ``fts_topk`` as before. At most
:data:`MAX_POSTINGS` postings are kept (16 bytes each), the least recently used dropped first.
"""

from __future__ import annotations

import heapq
import sqlite3
from array import array
from bisect import bisect_left

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

MAX_POSTINGS = 8_000_000  # postings kept per process, all stores together (16 bytes each: 128 MB)
MAX_PHRASES = 24  # more phrases: the caller's path
NUMPY_FROM = 1_000  # postings in a query's lists from which they are summed in numpy, when installed
USE_NUMPY = True
SAFETY = 1e-9  # relative margin on bounds, for float rounding (scores are about 1 to 100)


class Posting:
    """One phrase's impact list: rows in rowid order with their impacts (16 bytes a posting);
    by decreasing impact (ties: lower rowid first) when the pure-Python sum needs it."""

    __slots__ = ("docs", "impacts", "top", "_by_impact")

    def __init__(self, docs: array[int], impacts: array[float]) -> None:
        self.docs = docs
        self.impacts = impacts
        self.top = max(impacts, default=0.0)
        self._by_impact: tuple[array[int], array[float]] | None = None

    def __len__(self) -> int:
        return len(self.docs)

    def by_impact(self) -> tuple[array[int], array[float]]:
        if self._by_impact is None:
            docs, impacts = self.docs, self.impacts
            order = sorted(range(len(docs)), key=impacts.__getitem__, reverse=True)  # stable: rowid order kept
            self._by_impact = array("q", [docs[i] for i in order]), array("d", [impacts[i] for i in order])
        return self._by_impact

    def impact(self, doc: int) -> float:
        """The phrase's share of ``doc``'s score (0.0 when the row does not hold it)."""
        i = bisect_left(self.docs, doc)
        return self.impacts[i] if i < len(self.docs) and self.docs[i] == doc else 0.0


class _Cache:
    """The lists of one store file and ranking expression, valid for one ``state``."""

    __slots__ = ("state", "lists")

    def __init__(self, state: tuple[object, ...]) -> None:
        self.state = state
        self.lists: dict[str, Posting] = {}  # least recently used first


_CACHES: dict[tuple[str, str, str], _Cache] = {}
_LOCK: Any = None  # set by enable(); the servers answer from several threads


def enable(on: bool = True) -> None:
    """Let this process keep impact lists: long-lived servers (MCP, web) call it; a one-shot
    command leaves it off (a list read once costs more than the query it serves)."""
    global _LOCK
    if not on:
        _LOCK = None
        clear()
    elif _LOCK is None:
        import threading  # start-up time: only the servers pay for it

        _LOCK = threading.Lock()


def best(
    conn: sqlite3.Connection, table: str, scoring: str, phrases: tuple[str, ...], k: int
) -> list[tuple[int, float]] | None:
    """``(rowid, score)`` of the best ``k`` rows of ``<table> MATCH "p1" OR "p2" …`` exactly as
    ``SELECT rowid, <scoring> AS s … ORDER BY s, rowid LIMIT k`` returns them (FTS5 scores:
    lower is better); None when the lists cannot serve (the caller runs the query).
    ``scoring`` must be ``bm25()`` with non-negative column weights (``fts_topk.bounded``)."""
    lock = _LOCK
    if lock is None or k < 1 or not phrases or len(phrases) > MAX_PHRASES or conn.in_transaction:
        return None
    with lock:
        cache = _cache(conn, table, scoring)
        if cache is None:
            return None
        lists = _lists(conn, cache, table, scoring, phrases)
        if lists is None:
            return None
        return top_k(lists, k)


def top_k(lists: list[Posting], k: int) -> list[tuple[int, float]]:
    """The best ``k`` rows of the sum of ``lists`` (in their order, repeats counted), as
    ``(rowid, -score)``, best first, ties to the lower rowid: summed in numpy when it is
    installed (the ``dense`` extra) and the lists are long, else pruned in pure Python."""
    if sum(len(p) for p in lists) >= NUMPY_FROM:
        np = _numpy()
        if np is not None:
            return _top_k_numpy(np, lists, k)
    return _top_k_python(lists, k)


def _top_k_numpy(np: Any, lists: list[Posting], k: int) -> list[tuple[int, float]]:
    """Every posting added into one score per rowid, the phrases in their own order (the
    float sums FTS5 makes: a row starts at 0.0 and each phrase it holds adds its impact)."""
    size = max((p.docs[-1] for p in lists if len(p)), default=-1) + 1
    scores = np.zeros(size)
    matched = np.zeros(size, dtype=bool)
    for p in lists:
        if len(p):
            docs = np.frombuffer(p.docs, dtype=np.int64)
            scores[docs] += np.frombuffer(p.impacts, dtype=np.float64)  # rowids unique in a list
            matched[docs] = True
    found = np.flatnonzero(matched)
    if len(found) > k:
        values = scores[found]
        kth = np.partition(values, len(values) - k)[len(values) - k]
        found = found[values >= kth]  # the k best and every row tied with the k-th
    best = found[np.lexsort((found, -scores[found]))[:k]]
    return [(int(doc), -float(scores[doc])) for doc in best]


def _numpy() -> Any:
    """numpy when installed and allowed (``USE_NUMPY``), else None; imported on first need
    only (start-up time: a one-shot search never sums long lists)."""
    if not USE_NUMPY:
        return None
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _top_k_python(lists: list[Posting], k: int) -> list[tuple[int, float]]:
    terms = sorted((p for p in lists if len(p)), key=lambda p: -p.top)  # a repeated phrase counts twice
    rest = [0.0] * (len(terms) + 1)  # rest[i]: the most the phrases after i-1 can add
    for i in range(len(terms) - 1, -1, -1):
        rest[i] = rest[i + 1] + terms[i].top * (1 + SAFETY)
    acc: dict[int, float] = {}
    theta = 0.0  # the k-th best partial sum so far (0.0 until k rows are held)
    for i, term in enumerate(terms):
        later = rest[i + 1]
        floor = theta * (1 - SAFETY) - later  # a row first seen here with a lower impact cannot enter
        before = terms[:i]
        held = set(acc) if i else set()
        admitted = 0
        by_docs, by_impacts = term.by_impact()
        for doc, c in zip(by_docs, by_impacts, strict=True):
            if c < floor:
                break
            admitted += 1
            s = acc.get(doc)
            if s is not None:
                acc[doc] = s + c
            elif before:
                acc[doc] = c + sum(p.impact(doc) for p in before)
            else:
                acc[doc] = c
        if admitted < len(term) and held:  # rows held before and not in the admitted prefix
            missing = held.difference(by_docs[:admitted])
            if len(missing) * 8 < len(term) - admitted:  # a bisect costs about 8 steps of a scan
                for doc in missing:
                    c = term.impact(doc)
                    if c:
                        acc[doc] += c
            else:
                for doc, c in zip(by_docs[admitted:], by_impacts[admitted:], strict=True):
                    if doc in missing:
                        acc[doc] += c
        if len(acc) >= k:
            theta = heapq.nlargest(k, acc.values())[-1]
            cutoff = theta * (1 - SAFETY) - later
            if cutoff > 0:
                acc = {doc: s for doc, s in acc.items() if s >= cutoff}
    if len(acc) > k:
        theta = heapq.nlargest(k, acc.values())[-1] * (1 - SAFETY)
        survivors = [doc for doc, s in acc.items() if s >= theta]
    else:
        survivors = list(acc)
    scored = []
    for doc in survivors:
        s = 0.0
        for p in lists:  # the phrases' own order: FTS5's float sum
            s += p.impact(doc)
        scored.append((-s, doc))
    scored.sort()
    return [(doc, s) for s, doc in scored[:k]]


def _cache(conn: sqlite3.Connection, table: str, scoring: str) -> _Cache | None:
    """This store's lists for ``scoring``, emptied when the store moved; None for a store
    without a file (nothing to key the lists on)."""
    path = next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")
    if not path:
        return None
    state = tuple(
        conn.execute(
            f"SELECT (SELECT version FROM store_version WHERE id = 1), (SELECT block FROM {table}_data WHERE id = 1)"
        ).fetchone()
    )
    key = (path, table, scoring)
    cache = _CACHES.get(key)
    if cache is None or cache.state != state:
        cache = _CACHES[key] = _Cache(state)
    return cache


def _lists(
    conn: sqlite3.Connection, cache: _Cache, table: str, scoring: str, phrases: tuple[str, ...]
) -> list[Posting] | None:
    """The lists of ``phrases`` (repeats kept), reading the missing ones when allowed."""
    found: dict[str, Posting] = {}
    for phrase in dict.fromkeys(phrases):
        posting = cache.lists.pop(phrase, None)
        if posting is not None:
            cache.lists[phrase] = found[phrase] = posting  # moved to the most recently used end
    for phrase in dict.fromkeys(phrases):
        if phrase not in found:  # read once: about what scoring its rows in the query costs
            found[phrase] = _read(conn, table, scoring, phrase)
            _store(cache, phrase, found[phrase])
    return [found[p] for p in phrases]


def _store(cache: _Cache, phrase: str, posting: Posting) -> None:
    cache.lists[phrase] = posting
    total = sum(len(p) for c in _CACHES.values() for p in c.lists.values())
    while total > MAX_POSTINGS:
        oldest = min((c for c in _CACHES.values() if c.lists), key=lambda c: c is cache)  # others first
        dropped = oldest.lists.pop(next(iter(oldest.lists)))
        total -= len(dropped)
        if dropped is posting:
            break


def clear() -> None:
    """Forget every list (tests, benchmarks)."""
    _CACHES.clear()


def cached_postings() -> int:
    """Postings held by this process."""
    return sum(len(p) for c in _CACHES.values() for p in c.lists.values())


def _read(conn: sqlite3.Connection, table: str, scoring: str, phrase: str) -> Posting:
    docs: array[int] = array("q")
    impacts: array[float] = array("d")
    for doc, score in conn.execute(f"SELECT rowid, {scoring} FROM {table} WHERE {table} MATCH ?", (phrase,)):
        docs.append(doc)
        impacts.append(-score)
    return Posting(docs, impacts)
