"""Chronological context around anchor facts.

A saved memory's neighbours are the memories saved just before and after it (by date, then
id). A fact read from a file has its neighbours in that file: the excerpts just above and
below it, by line. Only active facts are neighbours.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from kenning.errors import NotFound
from kenning.memory.layers import freshness_map
from kenning.memory.observations import MEMORY_SOURCE_KINDS
from kenning.project import Project
from kenning.records import Fact, Freshness
from kenning.store import facts as fact_store

MAX_DEPTH = 3


@dataclass(frozen=True)
class Entry:
    fact: Fact
    freshness: Freshness
    anchor: int  # the anchor this entry is context for
    offset: int  # negative before the anchor, 0 the anchor itself, positive after


def around(conn: sqlite3.Connection, project: Project, anchors: list[int], before: int, after: int, *,
           now: datetime) -> list[Entry]:
    """Context windows around each anchor, in anchor order; a fact shown near an earlier
    anchor is not repeated."""
    order: list[tuple[int, int, int]] = []  # (fact id, anchor, offset)
    seen: set[int] = set()
    for anchor in anchors:
        for fact_id, offset in _window(conn, anchor, before, after):
            if fact_id not in seen:
                seen.add(fact_id)
                order.append((fact_id, anchor, offset))
    facts = fact_store.get_many(conn, project.name, [i for i, _, _ in order])
    fresh = freshness_map(conn, project, list(facts.values()), now=now)
    return [Entry(facts[i], fresh[i], a, o) for i, a, o in order if i in facts]


def _window(conn: sqlite3.Connection, anchor: int, before: int, after: int) -> list[tuple[int, int]]:
    row = conn.execute("SELECT id, source_kind, date_indexed FROM facts WHERE id = ?", (anchor,)).fetchone()
    if row is None:
        raise NotFound(f"no fact #{anchor}")
    if row["source_kind"] in MEMORY_SOURCE_KINDS:
        kinds = ",".join("?" * len(MEMORY_SOURCE_KINDS))
        base = f"FROM facts WHERE lifecycle = 'active' AND source_kind IN ({kinds})"
        prev = conn.execute(
            f"SELECT id {base} AND (date_indexed, id) < (?, ?) ORDER BY date_indexed DESC, id DESC LIMIT ?",
            (*MEMORY_SOURCE_KINDS, row["date_indexed"], anchor, before)).fetchall()
        nxt = conn.execute(
            f"SELECT id {base} AND (date_indexed, id) > (?, ?) ORDER BY date_indexed, id LIMIT ?",
            (*MEMORY_SOURCE_KINDS, row["date_indexed"], anchor, after)).fetchall()
    else:
        loc = conn.execute("SELECT path, coalesce(line_start, 0) FROM locations WHERE fact_id = ? ORDER BY path "
                           "LIMIT 1", (anchor,)).fetchone()
        if loc is None:
            return [(anchor, 0)]
        base = ("FROM locations l JOIN facts f ON f.id = l.fact_id WHERE l.path = ? AND f.lifecycle = 'active' "
                "AND l.fact_id != ?")
        prev = conn.execute(f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) <= ? "
                            "ORDER BY coalesce(l.line_start, 0) DESC, l.fact_id DESC LIMIT ?",
                            (loc[0], anchor, loc[1], before)).fetchall()
        nxt = conn.execute(f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) > ? "
                           "ORDER BY coalesce(l.line_start, 0), l.fact_id LIMIT ?",
                           (loc[0], anchor, loc[1], after)).fetchall()
    window = [(r[0], -(n + 1)) for n, r in enumerate(prev)][::-1]
    window.append((anchor, 0))
    window.extend((r[0], n + 1) for n, r in enumerate(nxt))
    return window
