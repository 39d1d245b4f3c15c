"""Facts of files and commits as a sync finds them again: which of them a file or a content hash
holds, and the source details, keywords, place and dates they take (``sync.write``,
``sync.dates``, ``graph.projections``). Reading and writing other fact rows: ``store.facts``."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kenning.store import bodies
from kenning.store.db import in_batches
from kenning.store.postgres import facts as pg
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from kenning.store.handle import EngineConnection


def active_file_facts(conn: EngineConnection, hashes: Sequence[str]) -> list[tuple[int, str, str]]:
    """(id, content hash, path) of the active file facts with one of these content hashes."""
    if is_pg(conn):
        return pg.active_file_facts(conn, hashes)
    found: list[tuple[int, str, str]] = []
    for chunk in in_batches(hashes, 400):  # each bound twice
        found.extend(
            tuple(r)
            for r in conn.execute(
                # `+` keeps the planner on the content_hash index (it would rather scan every
                # file fact through the source_kind index); the index holds 16 characters (0020).
                f"SELECT id, content_hash, path FROM facts WHERE substr(content_hash, 1, 16) IN ({_marks(chunk)}) "
                f"AND content_hash IN ({_marks(chunk)}) AND +lifecycle = 'active' AND +source_kind = 'file'",
                [h[:16] for h in chunk] + list(chunk),
            )
        )
    return found


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def active_by_uri(conn: EngineConnection, path: str, *, fact_type: str = "") -> dict[str, tuple[int, str]]:
    """``source_uri -> (id, content hash)`` of the active facts whose path is ``path`` (and, if
    given, whose type is ``fact_type``: ``commit`` with the path ``""``, the commits held)."""
    if is_pg(conn):
        return pg.active_by_uri(conn, path, fact_type=fact_type)
    return {
        uri: (fid, chash)
        for fid, uri, chash in conn.execute(
            "SELECT id, source_uri, content_hash FROM facts WHERE path = ? AND lifecycle = 'active' "
            "AND (? = '' OR type = ?)",
            (path, fact_type, fact_type),
        )
    }


def active_located_at(conn: EngineConnection, path: str) -> list[int]:
    """Ids of the active facts with a location in ``path``."""
    if is_pg(conn):
        return pg.active_located_at(conn, path)
    return [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT f.id FROM facts f JOIN locations l ON l.fact_id = f.id "
            "WHERE l.path = ? AND f.lifecycle = 'active'",
            (path,),
        ).fetchall()
    ]


def refresh_source(
    conn: EngineConnection,
    fact_id: int,
    *,
    fingerprint: str,
    uri: str,
    date_source: str | None,
    date_indexed: str,
    tags: str,
    meta: str,
    date_source_kind: str | None = None,
    keywords: str,
    body: str,
    packed: bytes | None = None,
) -> None:
    """A fact found again in the file it is cited from takes that excerpt's source details
    (``tags`` and ``meta`` as stored: JSON text) and its ``keywords``: its content hash
    holds its type, title and body, not the keywords a parser gives (a new parser version's,
    the HTTP route a class's decorator gives its methods), so a fact kept across a re-read took
    them nowhere else. They are written only when they differ (the word index's trigger then
    re-indexes the row); SQLite stores them with the ``body`` (``store.bodies``: ``packed``, the
    two deflated already in the parsing pool, or packed here)."""
    if is_pg(conn):
        return pg.refresh_source(
            conn,
            fact_id,
            fingerprint=fingerprint,
            uri=uri,
            date_source=date_source,
            date_indexed=date_indexed,
            tags=tags,
            meta=meta,
            date_source_kind=date_source_kind,
            keywords=keywords,
        )
    conn.execute(
        "UPDATE facts SET fingerprint = ?, source_uri = ?, date_source = ?, date_source_kind = ?, date_indexed = ?, "
        "tags = ?, meta = ? WHERE id = ?",
        (fingerprint, uri, date_source, date_source_kind, date_indexed, tags, meta, fact_id),
    )
    was = conn.execute("SELECT kenning_keywords(body, keywords) FROM facts WHERE id = ?", (fact_id,)).fetchone()
    if was is not None and was[0] != keywords:
        stored = ("", packed) if packed is not None else bodies.pack(keywords, body)
        conn.execute("UPDATE facts SET keywords = ?, body = ? WHERE id = ?", (*stored, fact_id))
    return None


def repoint(conn: EngineConnection, fact_id: int, *, uri: str, path: str, fingerprint: str) -> bool:
    """Cite the fact from another of its places; False when it already cited that URI."""
    if is_pg(conn):
        return pg.repoint(conn, fact_id, uri=uri, path=path, fingerprint=fingerprint)
    cursor = conn.execute(
        "UPDATE facts SET source_uri = ?, path = ?, fingerprint = ? WHERE id = ? AND source_uri != ?",
        (uri, path, fingerprint, fact_id, uri),
    )
    return bool(cursor.rowcount)


def set_fingerprint(conn: EngineConnection, fact_id: int, fingerprint: str) -> None:
    """Record a new source fingerprint (no write when it is already the one stored)."""
    if is_pg(conn):
        return pg.set_fingerprint(conn, fact_id, fingerprint)
    conn.execute(
        "UPDATE facts SET fingerprint = ? WHERE id = ? AND fingerprint IS NOT ?", (fingerprint, fact_id, fingerprint)
    )


def mtime_dated_paths(conn: sqlite3.Connection) -> list[str]:
    """Paths of the active file facts dated by their file's mtime (``date_source_kind``)."""
    if is_pg(conn):
        return pg.mtime_dated_paths(conn)
    return [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT path FROM facts WHERE date_source_kind = 'mtime' AND lifecycle = 'active' "
            "AND source_kind = 'file' ORDER BY path"
        )
    ]


def date_from_commit(conn: sqlite3.Connection, path: str, date: str) -> int:
    """The active facts of ``path`` dated by mtime take ``date``, their file's last commit's."""
    if is_pg(conn):
        return pg.date_from_commit(conn, path, date)
    return conn.execute(
        "UPDATE facts SET date_source = ?, date_source_kind = 'commit' WHERE path = ? AND date_source_kind = 'mtime' "
        "AND lifecycle = 'active' AND source_kind = 'file'",
        (date, path),
    ).rowcount
