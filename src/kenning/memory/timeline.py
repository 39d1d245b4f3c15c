"""Chronological context around anchor facts.

A saved memory's neighbours are the memories saved just before and after it (by date, then
id). A fact read from a file has its neighbours in that file: the excerpts just above and
below it, by line. Only active facts are neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kenning.errors import NotFound
from kenning.memory.layers import freshness_map
from kenning.memory.observations import MEMORY_SOURCE_KINDS
from kenning.project import Project
from kenning.records import Fact, Freshness
from kenning.store import facts as fact_store
from kenning.store import memory as memory_store
from kenning.store.handle import Connection

MAX_DEPTH = 3


@dataclass(frozen=True)
class Entry:
    fact: Fact
    freshness: Freshness
    anchor: int  # the anchor this entry is context for
    offset: int  # negative before the anchor, 0 the anchor itself, positive after


def around(
    conn: Connection, project: Project, anchors: list[int], before: int, after: int, *, now: datetime
) -> list[Entry]:
    """Context windows around each anchor, in anchor order; a fact shown near an earlier
    anchor is not repeated, and an anchor stays marked as one (offset 0) wherever it shows."""
    order: list[tuple[int, int, int]] = []  # (fact id, anchor, offset)
    seen: set[int] = set()
    chosen = set(anchors)
    for anchor in anchors:
        for fact_id, offset in _window(conn, anchor, before, after):
            if fact_id not in seen:
                seen.add(fact_id)
                order.append((fact_id, fact_id, 0) if fact_id in chosen else (fact_id, anchor, offset))
    facts = fact_store.get_many(conn, project.name, [i for i, _, _ in order])
    fresh = freshness_map(conn, project, list(facts.values()), now=now)
    return [Entry(facts[i], fresh[i], a, o) for i, a, o in order if i in facts]


def _window(conn: Connection, anchor: int, before: int, after: int) -> list[tuple[int, int]]:
    at = memory_store.anchor(conn, anchor)
    if at is None:
        raise NotFound(f"no fact #{anchor}")
    if at.source_kind in MEMORY_SOURCE_KINDS:
        prev, nxt = memory_store.saved_neighbours(conn, at, MEMORY_SOURCE_KINDS, before, after)
    elif at.path is None:
        return [(anchor, 0)]
    else:
        prev, nxt = memory_store.file_neighbours(conn, at, before, after)
    window = [(fact_id, -(n + 1)) for n, fact_id in enumerate(prev)][::-1]
    window.append((anchor, 0))
    window.extend((fact_id, n + 1) for n, fact_id in enumerate(nxt))
    return window
