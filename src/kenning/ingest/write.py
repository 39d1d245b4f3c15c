"""Parsed files written into the store, in batches, inside the sync's transaction.

Rows are buffered and written with one ``executemany`` per table; fact ids are given here as
SQLite would give them (max + 1: the sync holds the write lock). Deduplication (identical
content anywhere in the project is one fact; the lowest active id wins) is answered from a
map of content hashes loaded once for the whole batch and kept in step with every insert,
lifecycle change and re-pointing, instead of one query per excerpt. The buffers are written
before anything reads or references the rows they hold.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from kenning.ingest.rows import ExcerptRow
from kenning.records import Lifecycle
from kenning.store import facts as fact_store
from kenning.store.db import in_batches

if TYPE_CHECKING:
    from kenning.ingest.sync import Parsed, SyncReport

# Positions in a fact row (fact_store.ROW_COLUMNS) that a duplicate excerpt refreshes.
_SOURCE_URI, _FINGERPRINT, _DATE_SOURCE, _DATE_INDEXED, _TAGS, _META = 7, 8, 10, 11, 14, 19


class ExcerptWriter:
    """Buffers of new fact, location and manifest rows, and the deduplication map."""

    def __init__(self, conn: sqlite3.Connection, stamp: str, paths: set[str], hashes: set[str]) -> None:
        """``paths``: the files about to be applied; ``hashes``: the content hashes of their excerpts."""
        self.conn = conn
        self.stamp = stamp
        self.new_facts: list[tuple[int, str, str, str, str]] = []  # (id, title, keywords, path, body)
        self._next_id = fact_store.next_id(conn)
        self._facts: list[list[Any]] = []
        self._unwritten: dict[int, list[Any]] = {}  # id -> row of self._facts
        self._locations: list[tuple[Any, ...]] = []
        self._manifest: list[tuple[Any, ...]] = []
        self._active: dict[str, list[int]] = {}  # content hash -> active file facts, ascending ids
        self._known: dict[int, tuple[str, str]] = {}  # id -> (content hash, path) for those facts
        self._located: set[str] = set()  # paths that had locations before this sync
        for chunk in in_batches(sorted(paths)):
            self._located.update(row[0] for row in conn.execute(
                f"SELECT DISTINCT path FROM locations WHERE path IN ({','.join('?' * len(chunk))})", chunk))
        for chunk in in_batches(sorted(hashes)):
            for fact_id, chash, path in conn.execute(
                # `+` keeps the planner on the content_hash index (it would rather scan every
                # file fact through the source_kind index).
                f"SELECT id, content_hash, path FROM facts WHERE content_hash IN ({','.join('?' * len(chunk))}) "
                "AND +lifecycle = 'active' AND +source_kind = 'file'",
                chunk,
            ):
                self._active.setdefault(chash, []).append(fact_id)
                self._known[fact_id] = (chash, path)
        for ids in self._active.values():
            ids.sort()

    def apply_file(self, item: Parsed, report: SyncReport) -> None:
        """A new or changed file: its excerpts added, kept or deduplicated; its old ones settled."""
        cand = item.candidate
        path, fingerprint = cand.path, item.fingerprint
        assert fingerprint is not None
        previous: dict[int, list[str]] = {}
        if path in self._located:
            previous = locations_at(self.conn, path)
            self.conn.execute("DELETE FROM locations WHERE path = ?", (path,))
        successor_by_uri: dict[str, int] = {}
        for row in item.rows:
            ids = self._active.get(row.content_hash)
            if not ids:
                fact_id = self._add(row, path, fingerprint)
                report.added += 1
            else:
                fact_id = ids[0]
                if fact_id in previous:
                    report.kept += 1
                else:
                    report.deduplicated += 1
                if self._known[fact_id][1] == path:
                    self._refresh(fact_id, row, fingerprint)
            self._locations.append((fact_id, row.uri, path, row.line_start, row.line_end, fingerprint))
            successor_by_uri.setdefault(row.uri, fact_id)
        if previous:
            self.flush()
            self._settle_orphans(previous, successor_by_uri, report)
        self._manifest.append(
            (path, cand.size, cand.mtime_ns, fingerprint, cand.parser, self.stamp, len(item.rows))
        )

    def retire_path(self, path: str, report: SyncReport) -> None:
        """A vanished file: its excerpts lose this place, and with no place left are retired."""
        self.flush()
        previous = locations_at(self.conn, path)
        self.conn.execute("DELETE FROM locations WHERE path = ?", (path,))
        self._settle_orphans(previous, {}, report)
        self.conn.execute("DELETE FROM manifest WHERE path = ?", (path,))

    def flush(self) -> None:
        """Write the buffered rows (facts first: locations reference them)."""
        fact_store.insert_rows(self.conn, self._facts)
        self._facts, self._unwritten = [], {}
        if self._locations:
            self.conn.executemany(
                "INSERT OR IGNORE INTO locations (fact_id, uri, path, line_start, line_end, fingerprint) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                self._locations,
            )
            self._locations = []
        if self._manifest:
            self.conn.executemany(
                "INSERT OR REPLACE INTO manifest (path, size, mtime_ns, fingerprint, parser, indexed_at, excerpts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                self._manifest,
            )
            self._manifest = []

    def _add(self, row: ExcerptRow, path: str, fingerprint: str) -> int:
        fact_id = self._next_id
        self._next_id += 1
        record = [fact_id, row.type, row.title, row.body, row.keywords, path, "file", row.uri, fingerprint,
                  row.content_hash, row.date_source, self.stamp, None, "projection", row.tags, None, None, None,
                  None, row.meta]
        self._facts.append(record)
        self._unwritten[fact_id] = record
        self.new_facts.append((fact_id, row.title, row.keywords, path, row.body))
        self._active.setdefault(row.content_hash, []).append(fact_id)
        self._known[fact_id] = (row.content_hash, path)
        return fact_id

    def _refresh(self, fact_id: int, row: ExcerptRow, fingerprint: str) -> None:
        """A fact found again in the file it is cited from takes this excerpt's source details."""
        record = self._unwritten.get(fact_id)
        if record is not None:
            record[_FINGERPRINT], record[_SOURCE_URI], record[_DATE_SOURCE] = fingerprint, row.uri, row.date_source
            record[_DATE_INDEXED], record[_TAGS], record[_META] = self.stamp, row.tags, row.meta
            return
        self.conn.execute(
            "UPDATE facts SET fingerprint = ?, source_uri = ?, date_source = ?, date_indexed = ?, "
            "tags = ?, meta = ? WHERE id = ?",
            (fingerprint, row.uri, row.date_source, self.stamp, row.tags, row.meta, fact_id),
        )

    def _settle_orphans(self, previous: dict[int, list[str]], successor_by_uri: dict[str, int],
                        report: SyncReport) -> None:
        """Facts that lost their place in a file: supersede, retire, or re-point."""
        for fact_id, uris in sorted(previous.items()):
            remaining = self.conn.execute(
                "SELECT uri, path, fingerprint FROM locations WHERE fact_id = ? ORDER BY path, uri LIMIT 1",
                (fact_id,),
            ).fetchone()
            if remaining is not None:
                cursor = self.conn.execute(
                    "UPDATE facts SET source_uri = ?, path = ?, fingerprint = ? WHERE id = ? AND source_uri != ?",
                    (remaining[0], remaining[1], remaining[2], fact_id, remaining[0]),
                )
                if cursor.rowcount and fact_id in self._known:
                    self._known[fact_id] = (self._known[fact_id][0], remaining[1])
                continue
            successor = next((successor_by_uri[u] for u in uris if successor_by_uri.get(u, fact_id) != fact_id), None)
            if successor is not None:
                fact_store.set_lifecycle(
                    self.conn, fact_id, Lifecycle.SUPERSEDED, when=self.stamp, reason="source changed",
                    superseded_by=successor,
                )
                report.replaced += 1
            else:
                fact_store.set_lifecycle(self.conn, fact_id, Lifecycle.RETIRED, when=self.stamp,
                                         reason="source vanished")
                report.retired += 1
                report.retired_uris.extend(uris)
            self._deactivate(fact_id)

    def _deactivate(self, fact_id: int) -> None:
        known = self._known.pop(fact_id, None)
        if known is not None:
            self._active[known[0]].remove(fact_id)


def locations_at(conn: sqlite3.Connection, path: str) -> dict[int, list[str]]:
    previous: dict[int, list[str]] = {}
    for fact_id, uri in conn.execute("SELECT fact_id, uri FROM locations WHERE path = ?", (path,)):
        previous.setdefault(fact_id, []).append(uri)
    return previous
