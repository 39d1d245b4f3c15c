"""The store's write counter: it moves when a sync, a note or a lifecycle change lands.

Light on purpose: the session-start hook reads it (no dataclasses, no typing, no migration).
"""

from __future__ import annotations

import os
import sqlite3

_SQL = "SELECT version FROM store_version WHERE id = 1"


def store_state(conn: sqlite3.Connection) -> str:
    """The counter, as text, on an open store."""
    if getattr(conn, "engine", None) == "postgresql":  # store.postgres: not imported on the hook's path
        project = conn.project  # type: ignore[attr-defined]  # a store.postgres handle
        row = conn.execute("SELECT version FROM store_version WHERE project = %s", (project,)).fetchone()
        return str(row[0] if row else 0)
    return str(conn.execute(_SQL).fetchone()[0])


def store_state_at(db_path: str | os.PathLike[str]) -> str | None:
    """The counter read through a read-only connection (no migration, nothing created); None
    when the file is not a readable store."""
    try:
        conn = sqlite3.connect(f"file:{os.fspath(db_path)}?mode=ro", uri=True)
        try:
            row = conn.execute(_SQL).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


SERVER_TIMEOUT_S = 2  # the session-start hook waits no longer for a PostgreSQL server


def store_state_on_server(url: str, project: str) -> str | None:
    """``project``'s counter in the PostgreSQL store at ``url``, read without migrating and
    with a short connect timeout (the session-start hook); None when it cannot be read."""
    try:
        import psycopg  # the kenning[server] extra, only for a project served by PostgreSQL

        with psycopg.connect(url, autocommit=True, connect_timeout=SERVER_TIMEOUT_S) as conn:
            row = conn.execute("SELECT version FROM store_version WHERE project = %s", (project,)).fetchone()
    except Exception:  # psycopg missing, server down, schema absent: no counter
        return None
    return None if row is None else str(row[0])
