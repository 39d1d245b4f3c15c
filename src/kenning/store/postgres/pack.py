"""``store.pack`` on PostgreSQL: active convention and decision facts with their first
location (the handle's project only)."""

from __future__ import annotations

from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_FACT_SQL = (
    "SELECT f.id, f.type, f.title, f.body, f.source_kind, f.source_uri, f.fingerprint, f.content_hash, "
    'f.tags, f.meta, f.date_source, min(l.path COLLATE "C") AS path, min(l.line_start) AS line FROM facts f '
    "LEFT JOIN locations l ON l.fact_id = f.id AND l.project = f.project "
    "WHERE f.project = %s AND f.lifecycle = 'active' AND ({where}) GROUP BY f.id"
)


def fact_rows(conn: PgConnection, convention_paths: list[str] | None) -> list[tuple[Any, ...]]:
    """Convention facts (``convention_paths`` given, maybe empty) or decision facts (None)."""
    if convention_paths is None:
        where, params = "f.type = 'decision'", []
    else:
        where = (
            "f.type = 'convention' OR f.tags LIKE '%%\"convention\"%%' OR f.id IN "
            "(SELECT fact_id FROM locations WHERE project = %s AND path = ANY(%s))"
        )
        params = [conn.project, convention_paths]
    return [tuple(r) for r in conn.execute(_FACT_SQL.format(where=where), (conn.project, *params)).fetchall()]
