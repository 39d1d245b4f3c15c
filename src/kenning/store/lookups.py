"""Plain look-ups shared by reports (stale, pack, bench): indexed paths, and active fact ids
by path or location. Each returns ids in a stable order; facts themselves come from
``store.facts``."""

from __future__ import annotations

import sqlite3

from kenning.store.db import in_batches
from kenning.store.postgres import lookups as pg
from kenning.store.postgres.connection import is_pg


def manifest_paths(conn: sqlite3.Connection) -> list[str]:
    """Every indexed file (relative POSIX path), sorted."""
    if is_pg(conn):
        return pg.manifest_paths(conn)
    return [row[0] for row in conn.execute("SELECT path FROM manifest ORDER BY path")]


def path_holds(conn: sqlite3.Connection, text: str) -> bool:
    """Whether the path of an excerpt holds ``text`` of three characters or more (case aside):
    ``docs/api`` in ``docs/api/index.md``, not ``bash/zsh``. Read from the trigram index of paths
    (a phrase of ``text``'s trigrams in the ``path`` column): a ``LIKE`` over the manifest reads
    every path, which cost SciFact's questions through MCP (docs/benchmarks.md, "choices")."""
    if is_pg(conn):
        return pg.path_holds(conn, text)
    match = 'path : "' + text.replace('"', '""') + '"'
    found = conn.execute("SELECT 1 FROM facts_trigram WHERE facts_trigram MATCH ? LIMIT 1", (match,)).fetchone()
    return found is not None


def active_ids_with_path(conn: sqlite3.Connection, path: str) -> list[int]:
    """Active facts whose own ``path`` is ``path`` (e.g. the ledger's records), by id."""
    if is_pg(conn):
        return pg.active_ids_with_path(conn, path)
    return [
        row[0]
        for row in conn.execute("SELECT id FROM facts WHERE path = ? AND lifecycle = 'active' ORDER BY id", (path,))
    ]


def active_ids_located_in(conn: sqlite3.Connection, paths: list[str]) -> list[int]:
    """Active facts with a location in any of ``paths``, once each, by path, line, then id."""
    if is_pg(conn):
        return pg.active_ids_located_in(conn, paths)
    ids: list[int] = []
    for chunk in in_batches(paths):
        marks = ",".join("?" * len(chunk))
        ids.extend(
            row[0]
            for row in conn.execute(
                f"SELECT DISTINCT l.fact_id FROM locations l JOIN facts f ON f.id = l.fact_id "
                f"WHERE l.path IN ({marks}) AND f.lifecycle = 'active' ORDER BY l.path, l.line_start, l.fact_id",
                chunk,
            )
        )
    return ids


def active_ids_above(conn: sqlite3.Connection, path: str, last_line: int) -> list[int]:
    """Active facts located in ``path`` starting at or before ``last_line`` (a location
    without a line counts as line 1), by line then id."""
    if is_pg(conn):
        return pg.active_ids_above(conn, path, last_line)
    return [
        row[0]
        for row in conn.execute(
            "SELECT l.fact_id FROM locations l JOIN facts f ON f.id = l.fact_id WHERE l.path = ? "
            "AND f.lifecycle = 'active' AND coalesce(l.line_start, 1) <= ? ORDER BY l.line_start, l.fact_id",
            (path, last_line),
        )
    ]
