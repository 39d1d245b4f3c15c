"""``store.sources`` on PostgreSQL: the manifest, the locations and the sync runs of the
handle's project (every query filters on ``conn.project``)."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.records import Location
from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kenning.store.sources import IndexedFile, ManifestRow, NewLocation, SkippedFile

_MANIFEST = "SELECT path, size, mtime_ns, fingerprint, parser FROM manifest WHERE project = %s"


def manifest(conn: PgConnection, row_type: type[ManifestRow]) -> dict[str, ManifestRow]:
    return {r[0]: row_type._make(r) for r in conn.execute(_MANIFEST, (conn.project,)).fetchall()}


def manifest_for(conn: PgConnection, paths: Sequence[str], row_type: type[ManifestRow]) -> dict[str, ManifestRow]:
    rows = conn.execute(_MANIFEST + " AND path = ANY(%s)", (conn.project, list(paths))).fetchall()
    return {r[0]: row_type._make(r) for r in rows}


def manifest_count(conn: PgConnection) -> int:
    return int(conn.execute("SELECT count(*) FROM manifest WHERE project = %s", (conn.project,)).fetchone()[0])


def manifest_excerpts(conn: PgConnection) -> int:
    sql = "SELECT coalesce(sum(excerpts), 0) FROM manifest WHERE project = %s"
    return int(conn.execute(sql, (conn.project,)).fetchone()[0])


def touch_manifest(conn: PgConnection, path: str, size: int, mtime_ns: int) -> None:
    conn.execute(
        "UPDATE manifest SET size = %s, mtime_ns = %s WHERE project = %s AND path = %s",
        (size, mtime_ns, conn.project, path),
    )


def put_manifest(conn: PgConnection, rows: Sequence[IndexedFile]) -> None:
    conn.executemany(
        "INSERT INTO manifest (project, path, size, mtime_ns, fingerprint, parser, indexed_at, excerpts) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (project, path) DO UPDATE SET size = excluded.size, "
        "mtime_ns = excluded.mtime_ns, fingerprint = excluded.fingerprint, parser = excluded.parser, "
        "indexed_at = excluded.indexed_at, excerpts = excluded.excerpts",
        [(conn.project, *row) for row in rows],
    )


def delete_manifest(conn: PgConnection, path: str) -> None:
    conn.execute("DELETE FROM manifest WHERE project = %s AND path = %s", (conn.project, path))


def skipped_files(conn: PgConnection, row_type: type[SkippedFile]) -> dict[str, SkippedFile]:
    sql = "SELECT path, size, mtime_ns, parser, reason FROM skipped_files WHERE project = %s"
    return {r[0]: row_type._make(r) for r in conn.execute(sql, (conn.project,)).fetchall()}


def remember_skipped(conn: PgConnection, rows: Sequence[SkippedFile], forget: Sequence[str]) -> None:
    if forget:
        sql = "DELETE FROM skipped_files WHERE project = %s AND path = ANY(%s)"
        conn.execute(sql, (conn.project, list(forget)))
    if rows:
        conn.executemany(
            "INSERT INTO skipped_files (project, path, size, mtime_ns, parser, reason) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (project, path) DO UPDATE SET size = excluded.size, "
            "mtime_ns = excluded.mtime_ns, parser = excluded.parser, reason = excluded.reason",
            [(conn.project, *row) for row in rows],
        )


def located_paths(conn: PgConnection, paths: Sequence[str]) -> set[str]:
    rows = conn.execute(
        "SELECT DISTINCT path FROM locations WHERE project = %s AND path = ANY(%s)", (conn.project, list(paths))
    ).fetchall()
    return {r[0] for r in rows}


def locations_at(conn: PgConnection, path: str) -> dict[int, list[str]]:
    previous: dict[int, list[str]] = {}
    for fact_id, uri in conn.execute(
        "SELECT fact_id, uri FROM locations WHERE project = %s AND path = %s", (conn.project, path)
    ).fetchall():
        previous.setdefault(fact_id, []).append(uri)
    return previous


def facts_located_at(conn: PgConnection, path: str) -> list[tuple[str, int]]:
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT uri, fact_id FROM locations WHERE project = %s AND path = %s "
            'ORDER BY line_start NULLS FIRST, uri COLLATE "C"',
            (conn.project, path),
        ).fetchall()
    ]


def facts_located_in(conn: PgConnection, paths: list[str]) -> dict[str, list[tuple[str, int]]]:
    found: dict[str, list[tuple[str, int]]] = {}
    for path, uri, fact_id in conn.execute(
        "SELECT l.path, l.uri, l.fact_id FROM unnest(%s::text[]) AS t(path) JOIN locations l ON l.path = t.path "
        'WHERE l.project = %s ORDER BY l.path, l.line_start NULLS FIRST, l.uri COLLATE "C"',
        (paths, conn.project),
    ).fetchall():
        found.setdefault(path, []).append((uri, fact_id))
    return found


def first_location(conn: PgConnection, fact_id: int) -> Location | None:
    row = conn.execute(
        "SELECT uri, path, line_start, line_end, fingerprint FROM locations WHERE project = %s AND fact_id = %s "
        'ORDER BY path COLLATE "C", uri COLLATE "C" LIMIT 1',
        (conn.project, fact_id),
    ).fetchone()
    return Location(*row) if row is not None else None


def delete_locations(conn: PgConnection, path: str) -> None:
    conn.execute("DELETE FROM locations WHERE project = %s AND path = %s", (conn.project, path))


def add_locations(conn: PgConnection, rows: Sequence[NewLocation]) -> None:
    """``(fact id, uri, path, line start, line end, fingerprint)`` rows; a known place is ignored."""
    conn.executemany(
        "INSERT INTO locations (fact_id, project, uri, path, line_start, line_end, fingerprint) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (fact_id, uri) DO NOTHING",
        [(r[0], conn.project, *r[1:]) for r in rows],
    )


def changes(conn: PgConnection) -> int:
    return conn.changes


def synced(conn: PgConnection) -> bool:
    return conn.execute("SELECT 1 FROM sync_runs WHERE project = %s LIMIT 1", (conn.project,)).fetchone() is not None


def record_sync_run(conn: PgConnection, finished: str, report_json: str) -> None:
    conn.execute(
        "INSERT INTO sync_runs (project, finished, report) VALUES (%s, %s, %s)", (conn.project, finished, report_json)
    )
