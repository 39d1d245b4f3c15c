"""``store.cursors`` on PostgreSQL: guided-search cursors and fact states, for the handle's
project only."""

from __future__ import annotations

from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COLUMNS = "token, step, scope, query, options, disclosed, membership, created, expires, closed"


def fact_states(conn: PgConnection, ids: tuple[int, ...] | list[int]) -> dict[int, tuple[str, str]]:
    return {
        r[0]: (r[1], r[2])
        for r in conn.execute(
            "SELECT id, content_hash, lifecycle FROM facts WHERE project = %s AND id = ANY(%s)",
            (conn.project, list(ids)),
        ).fetchall()
    }


def purge_expired(conn: PgConnection, before: str) -> None:
    conn.execute('DELETE FROM search_cursors WHERE project = %s AND expires COLLATE "C" < %s', (conn.project, before))


def insert(conn: PgConnection, values: tuple[Any, ...]) -> None:
    """``values`` in ``COLUMNS`` order."""
    conn.execute(
        f"INSERT INTO search_cursors (project, {COLUMNS}) VALUES (%s, {', '.join(['%s'] * 10)})",
        (conn.project, *values),
    )


def get(conn: PgConnection, token: str) -> tuple[Any, ...] | None:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM search_cursors WHERE project = %s AND token = %s", (conn.project, token)
    ).fetchone()
    return None if row is None else tuple(row)


def close(conn: PgConnection, token: str) -> None:
    conn.execute("UPDATE search_cursors SET closed = 1 WHERE project = %s AND token = %s", (conn.project, token))
