"""``store.memory`` on PostgreSQL: sessions, summaries, tool uses and the fact reads memory
needs, for the handle's project only (every query filters on ``conn.project``)."""

from __future__ import annotations

from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SUMMARY_PARTS = ("request", "investigated", "learned", "completed", "next_steps")
TOOL_USE_COLUMNS = "id, tool_use_id, session_id, tool, input, response, cwd, created"


def touch_session(conn: PgConnection, session_id: str, stamp: str, cwd: str | None) -> None:
    conn.execute(
        "INSERT INTO sessions (project, id, started, ended, cwd) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (project, id) DO UPDATE SET ended = excluded.ended, cwd = coalesce(sessions.cwd, excluded.cwd)",
        (conn.project, session_id, stamp, stamp, cwd),
    )


def session_exists(conn: PgConnection, session_id: str) -> bool:
    return (
        conn.execute("SELECT 1 FROM sessions WHERE project = %s AND id = %s", (conn.project, session_id)).fetchone()
        is not None
    )


def set_fact_session(conn: PgConnection, fact_id: int, session_id: str | None) -> None:
    conn.execute("UPDATE facts SET session_id = %s WHERE project = %s AND id = %s", (session_id, conn.project, fact_id))


def insert_summary(conn: PgConnection, fact_id: int, session_id: str, parts: dict[str, str]) -> None:
    conn.execute(
        "INSERT INTO session_summaries (fact_id, project, session_id, request, investigated, learned, completed, "
        "next_steps) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (fact_id, conn.project, session_id, *(parts.get(k, "") for k in SUMMARY_PARTS)),
    )


def summary_parts(conn: PgConnection, fact_ids: list[int]) -> dict[int, dict[str, str]]:
    return {
        row["fact_id"]: {k: row[k] for k in ("session_id", *SUMMARY_PARTS)}
        for row in conn.rows(
            "SELECT * FROM session_summaries WHERE project = %s AND fact_id = ANY(%s)", (conn.project, fact_ids)
        )
    }


def session_of(conn: PgConnection, fact_ids: list[int]) -> dict[int, str | None]:
    return {
        r[0]: r[1]
        for r in conn.execute(
            "SELECT id, session_id FROM facts WHERE project = %s AND id = ANY(%s)", (conn.project, fact_ids)
        ).fetchall()
    }


def session_neighbours(conn: PgConnection, fact_ids: list[int]) -> dict[int, tuple[int | None, int | None]]:
    side = (
        "SELECT g.id FROM facts g WHERE g.project = f.project AND g.session_id = f.session_id AND g.id {op} f.id "
        "AND g.lifecycle = 'active' AND g.type <> 'session_summary' ORDER BY g.id {order} LIMIT 1"
    )
    rows = conn.execute(
        f"SELECT f.id, ({side.format(op='<', order='DESC')}), ({side.format(op='>', order='ASC')}) FROM facts f "
        "WHERE f.project = %s AND f.session_id IS NOT NULL AND f.lifecycle = 'active' "
        "AND f.type <> 'session_summary' AND f.id = ANY(%s)",
        (conn.project, fact_ids),
    ).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def tool_use_id_of(conn: PgConnection, tool_use_id: str) -> int | None:
    row = conn.execute(
        "SELECT id FROM tool_uses WHERE project = %s AND tool_use_id = %s", (conn.project, tool_use_id)
    ).fetchone()
    return None if row is None else int(row[0])


def insert_tool_use(
    conn: PgConnection,
    tool_use_id: str | None,
    session_id: str,
    tool: str,
    text_in: str,
    text_out: str,
    cwd: str | None,
    created: str,
) -> int:
    row = conn.execute(
        "INSERT INTO tool_uses (project, tool_use_id, session_id, tool, input, response, cwd, created) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (conn.project, tool_use_id, session_id, tool, text_in, text_out, cwd, created),
    ).fetchone()
    return int(row[0])


def tool_use_row(conn: PgConnection, ref: str) -> tuple[Any, ...] | None:
    """``TOOL_USE_COLUMNS`` of a tool use by row id, else by the client's id."""
    row = None
    if ref.isascii() and ref.isdigit() and len(ref) <= 18:
        row = conn.execute(
            f"SELECT {TOOL_USE_COLUMNS} FROM tool_uses WHERE project = %s AND id = %s", (conn.project, int(ref))
        ).fetchone()
    if row is None:
        row = conn.execute(
            f"SELECT {TOOL_USE_COLUMNS} FROM tool_uses WHERE project = %s AND tool_use_id = %s", (conn.project, ref)
        ).fetchone()
    return None if row is None else tuple(row)


def tool_uses_of_session(conn: PgConnection, session_id: str, limit: int) -> list[tuple[int, str, str]]:
    return [
        (r[0], r[1], r[2])
        for r in conn.execute(
            "SELECT id, tool, created FROM tool_uses WHERE project = %s AND session_id = %s ORDER BY id LIMIT %s",
            (conn.project, session_id, limit),
        ).fetchall()
    ]


def active_note(conn: PgConnection, content_hash: str, source_kinds: tuple[str, ...]) -> int | None:
    row = conn.execute(
        "SELECT id FROM facts WHERE project = %s AND content_hash = %s AND lifecycle = 'active' "
        "AND source_kind = ANY(%s) ORDER BY id LIMIT 1",
        (conn.project, content_hash, list(source_kinds)),
    ).fetchone()
    return None if row is None else int(row[0])


def recent_ids(
    conn: PgConnection,
    source_kinds: tuple[str, ...],
    limit: int,
    *,
    types: tuple[str, ...] = (),
    memory_type: str | None = None,
    path_prefix: str | None = None,
) -> list[int]:
    clauses = ["project = %s", "lifecycle = 'active'", "source_kind = ANY(%s)"]
    params: list[object] = [conn.project, list(source_kinds)]
    if types:
        clauses.append("type = ANY(%s)")
        params.append(list(types))
    if memory_type:
        clauses.append("memory_type = %s")
        params.append(memory_type)
    if path_prefix:
        clauses.append("left(source_uri, %s) = %s")
        params.extend([len(path_prefix), path_prefix])
    return [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM facts WHERE {' AND '.join(clauses)} "
            'ORDER BY date_indexed COLLATE "C" DESC, id DESC LIMIT %s',
            (*params, limit),
        ).fetchall()
    ]


def anchor_row(conn: PgConnection, fact_id: int) -> tuple[int, str, str, str | None, int] | None:
    """(id, source kind, indexing date, first location's path or None, its line or 0)."""
    row = conn.execute(
        "SELECT id, source_kind, date_indexed FROM facts WHERE project = %s AND id = %s", (conn.project, fact_id)
    ).fetchone()
    if row is None:
        return None
    loc = conn.execute(
        "SELECT path, coalesce(line_start, 0) FROM locations WHERE project = %s AND fact_id = %s "
        'ORDER BY path COLLATE "C" LIMIT 1',
        (conn.project, fact_id),
    ).fetchone()
    return row[0], row[1], row[2], loc[0] if loc else None, loc[1] if loc else 0


def saved_neighbours(
    conn: PgConnection, fact_id: int, date_indexed: str, source_kinds: tuple[str, ...], before: int, after: int
) -> tuple[list[int], list[int]]:
    base = "FROM facts WHERE project = %s AND lifecycle = 'active' AND source_kind = ANY(%s)"
    key = '(date_indexed COLLATE "C", id)'
    prev = conn.execute(
        f'SELECT id {base} AND {key} < (%s, %s) ORDER BY date_indexed COLLATE "C" DESC, id DESC LIMIT %s',
        (conn.project, list(source_kinds), date_indexed, fact_id, before),
    ).fetchall()
    nxt = conn.execute(
        f'SELECT id {base} AND {key} > (%s, %s) ORDER BY date_indexed COLLATE "C", id LIMIT %s',
        (conn.project, list(source_kinds), date_indexed, fact_id, after),
    ).fetchall()
    return [r[0] for r in prev], [r[0] for r in nxt]


def file_neighbours(
    conn: PgConnection, fact_id: int, path: str, line: int, before: int, after: int
) -> tuple[list[int], list[int]]:
    base = (
        "FROM locations l JOIN facts f ON f.id = l.fact_id WHERE l.project = %s AND f.project = %s AND l.path = %s "
        "AND f.lifecycle = 'active' AND l.fact_id != %s"
    )
    prev = conn.execute(
        f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) <= %s "
        "ORDER BY coalesce(l.line_start, 0) DESC, l.fact_id DESC LIMIT %s",
        (conn.project, conn.project, path, fact_id, line, before),
    ).fetchall()
    nxt = conn.execute(
        f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) > %s "
        "ORDER BY coalesce(l.line_start, 0), l.fact_id LIMIT %s",
        (conn.project, conn.project, path, fact_id, line, after),
    ).fetchall()
    return [r[0] for r in prev], [r[0] for r in nxt]
