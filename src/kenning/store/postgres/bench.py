"""``store.bench`` on PostgreSQL: what ``kenning bench`` re-reads (the handle's project)."""

from __future__ import annotations

from kenning.store.postgres.connection import PgConnection


def active_count(conn: PgConnection) -> int:
    return int(
        conn.execute(
            "SELECT count(*) FROM facts WHERE project = %s AND lifecycle = 'active'", (conn.project,)
        ).fetchone()[0]
    )


def orphan_count(conn: PgConnection) -> int:
    return int(
        conn.execute(
            "SELECT count(*) FROM facts f WHERE f.project = %s AND f.lifecycle = 'active' AND f.source_kind = 'file' "
            "AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.fact_id = f.id)",
            (conn.project,),
        ).fetchone()[0]
    )


def lifecycles(conn: PgConnection, ids: list[int]) -> dict[int, str]:
    return dict(
        conn.execute(
            "SELECT id, lifecycle FROM facts WHERE project = %s AND id = ANY(%s)", (conn.project, ids)
        ).fetchall()
    )


def titles(conn: PgConnection, where: str) -> list[tuple[int, str]]:
    """(id, title) of active facts passing ``where`` (fixed SQL of ``store.bench``), by source then id."""
    return [
        (r[0], r[1])
        for r in conn.execute(
            f"SELECT id, title FROM facts WHERE project = %s AND lifecycle = 'active' AND {where} "
            'ORDER BY source_uri COLLATE "C", id',
            (conn.project,),
        ).fetchall()
    ]


def code_metas(conn: PgConnection) -> list[tuple[int, str | None]]:
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT id, meta FROM facts WHERE project = %s AND lifecycle = 'active' AND type = 'code' "
            'ORDER BY source_uri COLLATE "C", id',
            (conn.project,),
        ).fetchall()
    ]


def declared_edges(conn: PgConnection) -> list[tuple[str, str, str, int | None, int | None]]:
    """``store.bench.declared_edges`` (the graph: migration 0007)."""
    return [
        (r[0], r[1], r[2], r[3], r[4])
        for r in conn.execute(
            "SELECT a.name, b.name, e.type, a.fact_id, b.fact_id FROM graph_edges e "
            "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst "
            "WHERE e.project = %s AND e.link = 'declared' AND (a.fact_id IS NOT NULL OR b.fact_id IS NOT NULL) "
            'ORDER BY a.key COLLATE "C", b.key COLLATE "C", e.type COLLATE "C", e.source_uri COLLATE "C"',
            (conn.project,),
        )
    ]
