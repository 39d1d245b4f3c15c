"""What the core pack reads of the store: active convention and decision facts, each with
its first location. Choosing, ordering and laying them out stays in ``pack/``."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kenning.store.bodies import text
from kenning.store.postgres import pack as pg
from kenning.store.postgres.connection import is_pg

_FACT_SQL = (
    "SELECT f.id, f.type, f.title, f.body, f.source_kind, f.source_uri, f.fingerprint, f.content_hash, "
    "f.tags, f.meta, f.date_source, min(l.path) AS path, min(l.line_start) AS line FROM facts f "
    "LEFT JOIN locations l ON l.fact_id = f.id WHERE f.lifecycle = 'active' AND ({where}) GROUP BY f.id"
)


@dataclass(frozen=True)
class PackFact:
    """An active fact as the pack sees it; ``path``/``line`` are its first location's (the
    smallest path and the smallest line over its locations), None without one."""

    id: int
    type: str
    title: str
    body: str
    source_kind: str
    source_uri: str
    fingerprint: str | None
    content_hash: str
    tags: str | None  # JSON list, as stored
    meta: str | None  # JSON object, as stored
    date_source: str | None
    path: str | None
    line: int | None


def convention_facts(conn: sqlite3.Connection, convention_paths: list[str]) -> list[PackFact]:
    """Active facts typed ``convention``, or tagged ``convention``, or located in one of
    ``convention_paths``; in no particular order."""
    if is_pg(conn):
        return [PackFact(*row) for row in pg.fact_rows(conn, convention_paths)]
    where = "f.type = 'convention' OR f.tags LIKE '%\"convention\"%'"
    if convention_paths:
        marks = ",".join("?" * len(convention_paths))
        where += f" OR f.id IN (SELECT fact_id FROM locations WHERE path IN ({marks}))"
    return _facts(conn, where, convention_paths)


def decision_facts(conn: sqlite3.Connection) -> list[PackFact]:
    """Active facts typed ``decision``; in no particular order."""
    if is_pg(conn):
        return [PackFact(*row) for row in pg.fact_rows(conn, None)]
    return _facts(conn, "f.type = 'decision'", [])


def _facts(conn: sqlite3.Connection, where: str, params: list[str]) -> list[PackFact]:
    found = []
    for row in conn.execute(_FACT_SQL.format(where=where), params):
        values = list(row)
        values[3] = text(values[3])  # a packed body (migration 0019)
        found.append(PackFact(*values))
    return found
