"""How many of some facts a disjunction of phrases matches, from the impact lists a server keeps
(``postings.held_docs``), without a statement: the count of superseded matches every served
answer makes (``fts.count_words``; the caller counts in SQL when these return None).

- :func:`count_holding`: a few facts, each looked up in each list (rowid order, a bisection);
- :func:`count_marked`: many (a project whose files were rewritten), counted in numpy over the
  lists with a mask of those facts, kept per store state.

SQLite-only, as the lists are; another engine needs no counterpart.
"""

from __future__ import annotations

import sqlite3
from array import array
from bisect import bisect_left
from typing import Any

from kenning.bounded import keep
from kenning.store import impact_sum, postings

MASKS_KEPT = 8
_MASKS: dict[tuple[object, ...], Any] = {}  # count_marked's masks of facts, by store state and filter


def count_holding(conn: sqlite3.Connection, table: str, phrases: tuple[str, ...], ids: list[int]) -> int | None:
    """How many of ``ids`` hold one of ``phrases`` at least (the rows ``<table> MATCH "p1" OR
    "p2" …`` finds among them); None when the lists are not all held (``postings.held_docs``)."""
    held = postings.held_docs(conn, table, phrases)
    if held is None:
        return None
    return sum(1 for i in ids if any(_holds(docs, i) for docs in held[1]))


def count_marked(
    conn: sqlite3.Connection, table: str, phrases: tuple[str, ...], marked: str, params: tuple[object, ...]
) -> int | None:
    """How many of the facts ``SELECT f.id FROM facts f WHERE <marked>`` selects hold one of
    ``phrases`` at least: numpy over the lists and a mask of those facts, the mask kept for the
    store's state (the first count after a move reads the ids); None as :func:`count_holding`,
    or without numpy. The lists are asked first: a one-shot command keeps none, and importing
    numpy for nothing cost its spelling rule 50 ms or more."""
    held = postings.held_docs(conn, table, phrases)
    np = impact_sum.numpy_if_installed() if held is not None else None
    if held is None or np is None:
        return None
    key = (*held[0], marked, params)
    mask = _MASKS.get(key)
    if mask is None:
        rows = conn.execute(f"SELECT f.id FROM facts f WHERE {marked}", params)
        ids = np.fromiter((row[0] for row in rows), np.int64)
        mask = np.zeros(int(ids.max()) + 1 if len(ids) else 0, dtype=bool)
        mask[ids] = True
        keep(_MASKS, key, mask, MASKS_KEPT)
    hit = np.zeros(len(mask), dtype=bool)
    for docs in held[1]:
        found = np.frombuffer(docs, dtype=np.int64)
        hit[found[found < len(mask)]] = True
    return int(np.count_nonzero(hit & mask))


def _holds(docs: array[int], doc: int) -> bool:
    at = bisect_left(docs, doc)
    return at < len(docs) and docs[at] == doc
