"""``store.lookups`` on PostgreSQL (the handle's project only)."""

from __future__ import annotations

from kenning.store.fold import like_escaped
from kenning.store.postgres.connection import PgConnection


def manifest_paths(conn: PgConnection) -> list[str]:
    return [
        r[0]
        for r in conn.execute(
            'SELECT path FROM manifest WHERE project = %s ORDER BY path COLLATE "C"', (conn.project,)
        ).fetchall()
    ]


def path_holds(conn: PgConnection, text: str) -> bool:
    """Whether an indexed file's path holds ``text`` (case aside): the project's manifest."""
    pattern = "%" + like_escaped(text) + "%"
    found = conn.execute(
        "SELECT 1 FROM manifest WHERE project = %s AND path ILIKE %s LIMIT 1", (conn.project, pattern)
    ).fetchone()
    return found is not None


def active_ids_with_path(conn: PgConnection, path: str) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT id FROM facts WHERE project = %s AND path = %s AND lifecycle = 'active' ORDER BY id",
            (conn.project, path),
        ).fetchall()
    ]


def active_ids_located_in(conn: PgConnection, paths: list[str]) -> list[int]:
    """Once each, by (path, line, id) of its first such location (SQLite's DISTINCT keeps the first)."""
    ordered = conn.execute(
        "SELECT l.fact_id, l.path, l.line_start FROM locations l JOIN facts f ON f.id = l.fact_id "
        "WHERE l.project = %s AND f.project = %s AND l.path = ANY(%s) AND f.lifecycle = 'active' "
        'ORDER BY l.path COLLATE "C", l.line_start NULLS FIRST, l.fact_id',
        (conn.project, conn.project, paths),
    ).fetchall()
    seen: set[int] = set()
    ids: list[int] = []
    for fact_id, _, _ in ordered:
        if fact_id not in seen:
            seen.add(fact_id)
            ids.append(fact_id)
    return ids


def active_ids_above(conn: PgConnection, path: str, last_line: int) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT l.fact_id FROM locations l JOIN facts f ON f.id = l.fact_id WHERE l.project = %s "
            "AND f.project = %s AND l.path = %s AND f.lifecycle = 'active' AND coalesce(l.line_start, 1) <= %s "
            "ORDER BY l.line_start NULLS FIRST, l.fact_id",
            (conn.project, conn.project, path, last_line),
        ).fetchall()
    ]
