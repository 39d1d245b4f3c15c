"""What the evaluation (``kenning bench``) reads of the store: counts, candidate facts for
seeded questions, lifecycles re-read independently of the search path, declared edges."""

from __future__ import annotations

import sqlite3

from kenning.store.db import in_batches
from kenning.store.postgres import bench as pg
from kenning.store.postgres.connection import is_pg


def active_count(conn: sqlite3.Connection) -> int:
    if is_pg(conn):
        return pg.active_count(conn)
    return int(conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'active'").fetchone()[0])


def orphan_count(conn: sqlite3.Connection) -> int:
    """Active facts read from files that have no location left."""
    if is_pg(conn):
        return pg.orphan_count(conn)
    return int(
        conn.execute(
            "SELECT count(*) FROM facts f WHERE f.lifecycle = 'active' AND f.source_kind = 'file' "
            "AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.fact_id = f.id)"
        ).fetchone()[0]
    )


def lifecycles(conn: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    """``{fact id: lifecycle}`` for the ids that exist."""
    if is_pg(conn):
        return pg.lifecycles(conn, ids)
    found: dict[int, str] = {}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        found.update(conn.execute(f"SELECT id, lifecycle FROM facts WHERE id IN ({marks})", chunk).fetchall())
    return found


def section_titles(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """(id, title) of active file sections that are neither code nor decisions, by source then id."""
    return _titles(conn, "source_kind = 'file' AND type NOT IN ('code', 'decision')")


def decision_titles(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """(id, title) of active decisions, by source then id."""
    return _titles(conn, "type = 'decision'")


def code_metas(conn: sqlite3.Connection) -> list[tuple[int, str | None]]:
    """(id, meta JSON) of active code facts, by source then id."""
    if is_pg(conn):
        return pg.code_metas(conn)
    return [
        (row[0], row[1])
        for row in conn.execute(
            "SELECT id, meta FROM facts WHERE lifecycle = 'active' AND type = 'code' ORDER BY source_uri, id"
        )
    ]


def declared_edges(conn: sqlite3.Connection) -> list[tuple[str, str, str, int | None, int | None]]:
    """(source name, target name, edge type, source fact id, target fact id) of the declared
    edges with at least one end tied to a fact, by their ends' keys then type (the same order on
    either engine and after any sync: never by id, which follows the sync's batches)."""
    if is_pg(conn):
        return pg.declared_edges(conn)
    return [
        (row[0], row[1], row[2], row[3], row[4])
        for row in conn.execute(
            "SELECT a.name, b.name, e.type, a.fact_id, b.fact_id FROM graph_edges_sourced e "
            "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst "
            "WHERE e.link = 'declared' AND (a.fact_id IS NOT NULL OR b.fact_id IS NOT NULL) "
            "ORDER BY a.key, b.key, e.type, e.source_uri"
        )
    ]


def _titles(conn: sqlite3.Connection, where: str) -> list[tuple[int, str]]:
    if is_pg(conn):
        return pg.titles(conn, where)
    return [
        (row[0], row[1])
        for row in conn.execute(
            f"SELECT id, title FROM facts WHERE lifecycle = 'active' AND {where} ORDER BY source_uri, id"
        )
    ]
