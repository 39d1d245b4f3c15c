"""The best ``k`` rows of a sum of impact lists (``postings.py`` keeps the lists).

A row's score is the sum of its impacts over the lists, in the lists' order (a list the row
is not in adds 0.0): the float sums FTS5 makes for a disjunction of phrases. Long lists are
summed in numpy (a dependency of every level, imported on first need: a one-shot search
never sums long lists): one score per rowid, the best ``k`` by partition. For short lists, or
where numpy was left out of the install, a pure-Python term-at-a-time MaxScore prunes: lists
are taken by decreasing upper bound ``u_p`` (their best impact); a row first seen at list
``i`` can score at most ``c_i + Σ u_later``, so once that falls below the ``k``-th best
partial sum found (a lower bound of the final ``k``-th score: impacts are never negative)
the rest of the list only adds to rows already held, and rows whose partial sum plus
``Σ u_later`` falls below it are dropped. The survivors are rescored in the lists' own
order, so the float sums are FTS5's.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

NUMPY_FROM = 1_000  # postings in a query's lists from which they are summed in numpy, when installed
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


def top_k(lists: list[Posting], k: int, *, use_numpy: bool = True) -> list[tuple[int, float]]:
    """The best ``k`` rows of the sum of ``lists`` (in their order, repeats counted), as
    ``(rowid, -score)``, best first, ties to the lower rowid: summed in numpy when the lists are
    long and ``use_numpy`` allows it (numpy importable), else pruned in pure Python."""
    if use_numpy and sum(len(p) for p in lists) >= NUMPY_FROM:
        np = numpy_if_installed()
        if np is not None:
            return _top_k_numpy(np, lists, k)
    return _top_k_python(lists, k)


def _top_k_numpy(np: Any, lists: list[Posting], k: int) -> list[tuple[int, float]]:
    """Every posting added into one score per rowid, the phrases in their own order (the
    float sums FTS5 makes: a row starts at 0.0 and each phrase it holds adds its impact).

    The best ``k`` are then taken among the rows scoring at least a floor ``L`` that cannot
    exceed the ``k``-th best score: the ``k``-th best of the full scores of one list's rows (they
    are ``k`` distinct rows scoring that much), the shortest list with more than ``k`` rows (a rare
    phrase: its rows score high). A comparison over the score array then leaves a few rows to
    sort, instead of a partition over every row matched (SciFact ×10: p50 0.74 → 0.24 ms a question,
    bench/topk_floor.py).
    ``L`` must be positive: unmatched rows score 0.0. Without such a list, every matched row."""
    size = max((p.docs[-1] for p in lists if len(p)), default=-1) + 1
    scores = np.zeros(size)
    for p in lists:
        if len(p):
            scores[np.frombuffer(p.docs, dtype=np.int64)] += np.frombuffer(p.impacts, dtype=np.float64)
    longer = [p for p in lists if len(p) > k]  # rowids unique in a list: more than k rows
    if longer:
        rows = scores[np.frombuffer(min(longer, key=len).docs, dtype=np.int64)]
        floor = np.partition(rows, len(rows) - k)[len(rows) - k]
        if floor > 0.0:
            found = np.flatnonzero(scores >= floor)
            return _best(np, scores, found, k)
    matched = np.zeros(size, dtype=bool)
    for p in lists:
        if len(p):
            matched[np.frombuffer(p.docs, dtype=np.int64)] = True
    found = np.flatnonzero(matched)
    if len(found) > k:
        values = scores[found]
        kth = np.partition(values, len(values) - k)[len(values) - k]
        found = found[values >= kth]  # the k best and every row tied with the k-th
    return _best(np, scores, found, k)


def _best(np: Any, scores: Any, found: Any, k: int) -> list[tuple[int, float]]:
    """The ``k`` best of the rows ``found`` (ascending rowids), ties to the lower rowid."""
    best = found[np.lexsort((found, -scores[found]))[:k]]
    return [(int(doc), -float(scores[doc])) for doc in best]


def numpy_if_installed() -> Any:
    """numpy, imported on first need only (start-up time: a one-shot search never sums long
    lists); None where it was left out of the install (``pip install --no-deps``)."""
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
