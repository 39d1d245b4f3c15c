"""Guided-search cursor rows, and the fact state a cursor's membership digest is made of.
Token format, expiry rules and refusals stay in ``memory/cursors.py``."""

from __future__ import annotations

import sqlite3
from dataclasses import astuple, dataclass

from kenning.store.db import in_batches
from kenning.store.postgres import cursors as pg
from kenning.store.postgres.connection import is_pg


@dataclass(frozen=True)
class CursorRow:
    """A stored cursor as written: ``state`` and ``disclosed`` are the caller's JSON text."""

    token: str
    step: int
    project: str
    query: str
    state: str
    disclosed: str
    membership: str
    created: str
    expires: str
    closed: bool = False


def fact_states(conn: sqlite3.Connection, ids: tuple[int, ...] | list[int]) -> dict[int, tuple[str, str]]:
    """``{fact id: (content hash, lifecycle)}`` for the ids that exist."""
    if is_pg(conn):
        return pg.fact_states(conn, ids)
    rows: dict[int, tuple[str, str]] = {}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT id, content_hash, lifecycle FROM facts WHERE id IN ({marks})", chunk):
            rows[row[0]] = (row[1], row[2])
    return rows


def purge_expired(conn: sqlite3.Connection, before: str) -> None:
    """Delete cursors that expired before ``before`` (an ISO time)."""
    if is_pg(conn):
        return pg.purge_expired(conn, before)
    conn.execute("DELETE FROM search_cursors WHERE expires < ?", (before,))


def insert(conn: sqlite3.Connection, cursor: CursorRow) -> None:
    if is_pg(conn):
        return pg.insert(conn, (*astuple(cursor)[:9], int(cursor.closed)))
    conn.execute(
        "INSERT INTO search_cursors (token, step, project, query, options, disclosed, membership, created, "
        "expires, closed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            cursor.token,
            cursor.step,
            cursor.project,
            cursor.query,
            cursor.state,
            cursor.disclosed,
            cursor.membership,
            cursor.created,
            cursor.expires,
            int(cursor.closed),
        ),
    )


def get(conn: sqlite3.Connection, token: str) -> CursorRow | None:
    if is_pg(conn):
        found = pg.get(conn, token)
        if found is None:
            return None
        token, step, project, query, state, disclosed, membership, created, expires, closed = found
        return CursorRow(token, step, project, query, state, disclosed, membership, created, expires, bool(closed))
    row = conn.execute("SELECT * FROM search_cursors WHERE token = ?", (token,)).fetchone()
    if row is None:
        return None
    return CursorRow(
        row["token"],
        row["step"],
        row["project"],
        row["query"],
        row["options"],
        row["disclosed"],
        row["membership"],
        row["created"],
        row["expires"],
        bool(row["closed"]),
    )


def close(conn: sqlite3.Connection, token: str) -> None:
    """Mark a cursor closed (its search ended); an unknown token changes nothing."""
    if is_pg(conn):
        return pg.close(conn, token)
    conn.execute("UPDATE search_cursors SET closed = 1 WHERE token = ?", (token,))
