"""``store.dated`` on PostgreSQL (the handle's project only)."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.store.postgres.connection import PgConnection

_DAY = 'substr(coalesce(date_source, date_indexed), 1, 10) COLLATE "C"'


def newest(conn: PgConnection, types: tuple[str, ...], since: str | None, until: str | None, limit: int) -> list[int]:
    clauses: list[str] = ["project = %s", "lifecycle = 'active'"]
    params: list[object] = [conn.project]
    if types:
        clauses.append("type = ANY(%s)")
        params.append(list(types))
    if since:
        clauses.append(f"{_DAY} >= %s")
        params.append(since)
    if until:
        clauses.append(f"{_DAY} <= %s")
        params.append(until)
    rows = conn.execute(
        f"SELECT id FROM facts WHERE {' AND '.join(clauses)} "
        f'ORDER BY coalesce(date_source, date_indexed) COLLATE "C" DESC, id DESC LIMIT %s',
        (*params, limit),
    ).fetchall()
    return [int(row[0]) for row in rows]


def source_dates(conn: PgConnection, ids: Sequence[int]) -> dict[int, str]:
    rows = conn.execute(
        "SELECT id, coalesce(date_source, date_indexed) FROM facts WHERE project = %s AND id = ANY(%s)",
        (conn.project, list(ids)),
    ).fetchall()
    return {int(row[0]): row[1] or "" for row in rows}
