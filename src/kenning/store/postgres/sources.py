"""``store.sources`` on PostgreSQL (so far: locations; the manifest and sync runs are not
implemented on PostgreSQL yet)."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.store.postgres.connection import PgConnection


def add_locations(conn: PgConnection, rows: Sequence[tuple[int, str, str, int | None, int | None, str | None]]) -> None:
    """``(fact id, uri, path, line start, line end, fingerprint)`` rows; one per place."""
    with conn.raw.cursor() as cur:
        cur.executemany(
            "INSERT INTO locations (fact_id, project, uri, path, line_start, line_end, fingerprint) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (fact_id, uri) DO NOTHING",
            [(r[0], conn.project, *r[1:]) for r in rows],
        )
