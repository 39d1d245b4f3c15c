"""Facts by date, newest first: "what did I decide since September" without topic words."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kenning.store.db import in_batches
from kenning.store.postgres import dated as pg
from kenning.store.postgres.connection import is_pg

_DAY = "substr(coalesce(date_source, date_indexed), 1, 10)"


def newest(
    conn: sqlite3.Connection, types: tuple[str, ...], since: str | None, until: str | None, limit: int
) -> list[int]:
    """Ids of active facts of ``types`` (any type when empty) dated within ``[since, until]``
    (``YYYY-MM-DD``, inclusive, on the source's date, else the indexing day), newest first,
    ties to the higher id."""
    if is_pg(conn):
        return pg.newest(conn, types, since, until, limit)
    clauses: list[str] = ["lifecycle = 'active'"]
    params: list[str] = []
    if types:
        clauses.append(f"type IN ({','.join('?' * len(types))})")
        params.extend(types)
    if since:
        clauses.append(f"{_DAY} >= ?")
        params.append(since)
    if until:
        clauses.append(f"{_DAY} <= ?")
        params.append(until)
    rows = conn.execute(
        f"SELECT id FROM facts WHERE {' AND '.join(clauses)} "
        f"ORDER BY coalesce(date_source, date_indexed) DESC, id DESC LIMIT ?",
        (*params, limit),
    )
    return [int(row[0]) for row in rows]


def source_dates(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, str]:
    """Each fact's date (the source's, else the indexing day's), by id: what orders commits
    touching a file newest first (``graph.walk.touches``)."""
    if is_pg(conn):
        return pg.source_dates(conn, ids)
    found: dict[int, str] = {}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        query = f"SELECT id, coalesce(date_source, date_indexed) FROM facts WHERE id IN ({marks})"
        found.update((int(row[0]), row[1] or "") for row in conn.execute(query, chunk))
    return found
