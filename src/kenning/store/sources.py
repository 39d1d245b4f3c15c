"""Where indexed content stands: the manifest of indexed files, the locations of each fact,
and the log of sync runs. Written inside the sync's transaction."""

from __future__ import annotations

import json
import sqlite3
from collections import namedtuple
from collections.abc import Sequence

from kenning.records import Location
from kenning.store.db import in_batches
from kenning.store.postgres import sources as pg
from kenning.store.postgres.connection import is_pg

# Rows that cross in bulk (thousands per sync) are named tuples: built about three times
# faster than frozen dataclasses, and written to the database as they are. At run time they
# come from ``collections`` (this module is on the `kenning search` path, which does not
# import ``typing``); type checkers read the typed declarations.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import NamedTuple

    from kenning.store.handle import EngineConnection

    class ManifestRow(NamedTuple):
        """An indexed file as the last sync read it."""

        path: str
        size: int
        mtime_ns: int
        fingerprint: str
        parser: str

    class NewLocation(NamedTuple):
        """One place of a fact, about to be written."""

        fact_id: int
        uri: str
        path: str
        line_start: int | None
        line_end: int | None
        fingerprint: str

    class IndexedFile(NamedTuple):
        """A manifest row to write: the file, its parser, when it was indexed, how many excerpts."""

        path: str
        size: int
        mtime_ns: int
        fingerprint: str
        parser: str
        indexed_at: str
        excerpts: int

    class SkippedFile(NamedTuple):
        """A file a sync read and skipped for what its bytes are, as it was then (migration 0027)."""

        path: str
        size: int
        mtime_ns: int
        parser: str
        reason: str
else:
    ManifestRow = namedtuple("ManifestRow", "path size mtime_ns fingerprint parser")
    NewLocation = namedtuple("NewLocation", "fact_id uri path line_start line_end fingerprint")
    IndexedFile = namedtuple("IndexedFile", "path size mtime_ns fingerprint parser indexed_at excerpts")
    SkippedFile = namedtuple("SkippedFile", "path size mtime_ns parser reason")

# The reasons a skipped file is remembered for (``skipped_files``): its bytes alone decide them.
REMEMBERED_SKIPS = frozenset({"binary", "minified"})


# -- manifest -------------------------------------------------------------------------------


def manifest(conn: sqlite3.Connection) -> dict[str, ManifestRow]:
    if is_pg(conn):
        return pg.manifest(conn, ManifestRow)
    return {
        row[0]: ManifestRow._make(row)
        for row in conn.execute("SELECT path, size, mtime_ns, fingerprint, parser FROM manifest")
    }


def manifest_for(conn: sqlite3.Connection, paths: Sequence[str]) -> dict[str, ManifestRow]:
    if is_pg(conn):
        return pg.manifest_for(conn, paths, ManifestRow)
    found: dict[str, ManifestRow] = {}
    for chunk in in_batches(paths):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT path, size, mtime_ns, fingerprint, parser FROM manifest WHERE path IN ({marks})", chunk
        ):
            found[row[0]] = ManifestRow._make(row)
    return found


def manifest_count(conn: sqlite3.Connection) -> int:
    if is_pg(conn):
        return pg.manifest_count(conn)
    return int(conn.execute("SELECT count(*) FROM manifest").fetchone()[0])


def manifest_excerpts(conn: EngineConnection) -> int:
    """How many excerpts the indexed files gave (each file's count at its last reading)."""
    if is_pg(conn):
        return pg.manifest_excerpts(conn)
    return int(conn.execute("SELECT coalesce(sum(excerpts), 0) FROM manifest").fetchone()[0])


def touch_manifest(conn: sqlite3.Connection, path: str, size: int, mtime_ns: int) -> None:
    """Same bytes, new size or mtime: only the manifest row moves."""
    if is_pg(conn):
        return pg.touch_manifest(conn, path, size, mtime_ns)
    conn.execute("UPDATE manifest SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))


def put_manifest(conn: sqlite3.Connection, rows: Sequence[IndexedFile]) -> None:
    if is_pg(conn):
        return pg.put_manifest(conn, rows)
    if rows:
        conn.executemany(
            "INSERT OR REPLACE INTO manifest (path, size, mtime_ns, fingerprint, parser, indexed_at, excerpts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def delete_manifest(conn: sqlite3.Connection, path: str) -> None:
    if is_pg(conn):
        return pg.delete_manifest(conn, path)
    conn.execute("DELETE FROM manifest WHERE path = ?", (path,))


# -- files skipped for their bytes (migration 0027) ------------------------------------------


def skipped_files(conn: EngineConnection) -> dict[str, SkippedFile]:
    """The files the last syncs skipped for their bytes, by path, as they were when read."""
    if is_pg(conn):
        return pg.skipped_files(conn, SkippedFile)
    rows = conn.execute("SELECT path, size, mtime_ns, parser, reason FROM skipped_files")
    return {row[0]: SkippedFile._make(row) for row in rows}


def remember_skipped(conn: EngineConnection, rows: Sequence[SkippedFile], forget: Sequence[str]) -> None:
    """Forget the paths ``forget`` (read again, or gone), then remember ``rows``."""
    if is_pg(conn):
        return pg.remember_skipped(conn, rows, forget)
    conn.executemany("DELETE FROM skipped_files WHERE path = ?", [(path,) for path in forget])
    conn.executemany(
        "INSERT OR REPLACE INTO skipped_files (path, size, mtime_ns, parser, reason) VALUES (?, ?, ?, ?, ?)", rows
    )


# -- locations ------------------------------------------------------------------------------


def located_paths(conn: sqlite3.Connection, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` have locations."""
    if is_pg(conn):
        return pg.located_paths(conn, paths)
    found: set[str] = set()
    for chunk in in_batches(paths):
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT DISTINCT path FROM locations WHERE path IN ({','.join('?' * len(chunk))})", chunk
            )
        )
    return found


def locations_at(conn: sqlite3.Connection, path: str) -> dict[int, list[str]]:
    """``fact id -> URIs`` of the locations in ``path``."""
    if is_pg(conn):
        return pg.locations_at(conn, path)
    previous: dict[int, list[str]] = {}
    for fact_id, uri in conn.execute("SELECT fact_id, uri FROM locations WHERE path = ?", (path,)):
        previous.setdefault(fact_id, []).append(uri)
    return previous


def facts_located_at(conn: sqlite3.Connection, path: str) -> list[tuple[str, int]]:
    """(uri, fact id) of the locations in ``path``, by first line then URI."""
    if is_pg(conn):
        return pg.facts_located_at(conn, path)
    return [
        tuple(r)
        for r in conn.execute("SELECT uri, fact_id FROM locations WHERE path = ? ORDER BY line_start, uri", (path,))
    ]


def facts_located_in(conn: sqlite3.Connection, paths: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """``facts_located_at`` of many paths at once (each path's list in the same order; a path
    without locations is left out): the graph of a batch of files reads them with one query."""
    if is_pg(conn):
        return pg.facts_located_in(conn, list(paths))
    found: dict[str, list[tuple[str, int]]] = {}
    for chunk in in_batches(paths):
        for path, uri, fact_id in conn.execute(
            f"SELECT path, uri, fact_id FROM locations WHERE path IN ({','.join('?' * len(chunk))}) "
            "ORDER BY path, line_start, uri",
            chunk,
        ):
            found.setdefault(path, []).append((uri, fact_id))
    return found


def first_location(conn: sqlite3.Connection, fact_id: int) -> Location | None:
    """The fact's first remaining place (by path, then URI), or None when it has none."""
    if is_pg(conn):
        return pg.first_location(conn, fact_id)
    row = conn.execute(
        "SELECT uri, path, line_start, line_end, fingerprint FROM locations WHERE fact_id = ? "
        "ORDER BY path, uri LIMIT 1",
        (fact_id,),
    ).fetchone()
    return Location(*row) if row is not None else None


def delete_locations(conn: sqlite3.Connection, path: str) -> None:
    if is_pg(conn):
        return pg.delete_locations(conn, path)
    conn.execute("DELETE FROM locations WHERE path = ?", (path,))


def add_locations(conn: EngineConnection, rows: Sequence[NewLocation]) -> None:
    """Add places (one already known is ignored)."""
    if is_pg(conn):
        return pg.add_locations(conn, rows)
    if rows:
        conn.executemany(
            "INSERT OR IGNORE INTO locations (fact_id, uri, path, line_start, line_end, fingerprint) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )


# -- sync runs ------------------------------------------------------------------------------


def changes(conn: sqlite3.Connection) -> int:
    """Rows changed through this connection so far (a sync's write count is a difference)."""
    if is_pg(conn):
        return pg.changes(conn)
    return conn.total_changes


def synced(conn: sqlite3.Connection) -> bool:
    """Whether a sync has finished on this store (a store a save created holds none yet)."""
    if is_pg(conn):
        return pg.synced(conn)
    return conn.execute("SELECT 1 FROM sync_runs LIMIT 1").fetchone() is not None


def last_graph_sizes(conn: sqlite3.Connection) -> tuple[int, int] | None:
    """The graph's (nodes, edges) as the last recorded sync left them, where they still hold: only
    a sync changes the graph, and every sync that writes records its run. None when there is no
    such record or a migration upgraded the store after it (0025 changed what is stored), and on
    PostgreSQL, which counts its stored rows at once. SQLite counts the edges it derives in about
    25 ms on Django: a sync with nothing to write takes its sizes from here (``sync.batches``)."""
    if is_pg(conn):
        return None
    row = conn.execute("SELECT finished, report FROM sync_runs ORDER BY id DESC LIMIT 1").fetchone()
    # Applied after that run: an upgrade. The migrations that created the store (its first ones,
    # applied together) may be stamped after a first sync's start, which stamps its run.
    later = conn.execute(
        "SELECT 1 FROM schema_migrations WHERE applied_at > ? "
        "AND applied_at > (SELECT min(applied_at) FROM schema_migrations) LIMIT 1",
        (row[0] if row else "",),
    ).fetchone()
    if row is None or later is not None:
        return None
    graph = json.loads(row[1]).get("graph") or {}
    nodes, edges = graph.get("nodes"), graph.get("edges")
    return (nodes, edges) if isinstance(nodes, int) and isinstance(edges, int) else None


def record_sync_run(conn: sqlite3.Connection, finished: str, report_json: str) -> None:
    if is_pg(conn):
        return pg.record_sync_run(conn, finished, report_json)
    conn.execute("INSERT INTO sync_runs (finished, report) VALUES (?, ?)", (finished, report_json))
