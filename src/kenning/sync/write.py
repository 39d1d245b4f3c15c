"""Parsed files written into the store, in batches, inside the sync's transaction.

Rows are buffered and written in one batch per table (through ``kenning.store``); fact ids are given here as
SQLite would give them (max + 1: the sync holds the write lock). Deduplication (identical
content anywhere in the project is one fact; the lowest active id wins) is answered from a
map of content hashes loaded once for the whole batch and kept in step with every insert,
lifecycle change and re-pointing, instead of one query per excerpt. The buffers are written
before anything reads or references the rows they hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kenning.ingest.read import Parsed
from kenning.ingest.rows import ExcerptRow
from kenning.records import Lifecycle, Replaced
from kenning.store import fact_sources, sources
from kenning.store import facts as fact_store
from kenning.store.db import Connection

if TYPE_CHECKING:
    from kenning.sync.report import SyncReport

# Positions in a fact row (fact_store.ROW_COLUMNS) that a duplicate excerpt refreshes.
_SOURCE_URI, _FINGERPRINT, _DATE_SOURCE, _DATE_INDEXED, _TAGS, _META, _DATE_KIND = 7, 8, 10, 11, 14, 19, 20


class ExcerptWriter:
    """Buffers of new fact, location and manifest rows, and the deduplication map."""

    def __init__(self, conn: Connection, stamp: str, paths: set[str], hashes: set[str]) -> None:
        """``paths``: the files about to be applied; ``hashes``: the content hashes of their excerpts."""
        self.conn = conn
        self.stamp = stamp
        self.new_facts: list[tuple[int, str, str, str, str]] = []  # (id, title, keywords, path, body)
        self._next_id = fact_store.next_id(conn)
        self._facts: list[list[Any]] = []
        self._unwritten: dict[int, list[Any]] = {}  # id -> row of self._facts
        self._locations: list[sources.NewLocation] = []
        self._placed: dict[str, list[tuple[int | None, str, int]]] = {}  # path -> (first line, URI, fact id)
        self._manifest: list[sources.IndexedFile] = []
        self._active: dict[str, list[int]] = {}  # content hash -> active file facts, ascending ids
        self._known: dict[int, tuple[str, str]] = {}  # id -> (content hash, path) for those facts
        self._located = sources.located_paths(conn, sorted(paths))  # paths that had locations before
        for fact_id, chash, path in fact_sources.active_file_facts(conn, sorted(hashes)):
            self._active.setdefault(chash, []).append(fact_id)
            self._known[fact_id] = (chash, path)
        for ids in self._active.values():
            ids.sort()

    def apply_file(
        self, item: Parsed, report: SyncReport, commit_date: str | None = None, *, reparsed: bool = False
    ) -> None:
        """A new or changed file: its excerpts added, kept or deduplicated; its old ones settled.
        ``commit_date``: the file is HEAD's, last touched then (it dates excerpts without a
        declared date instead of the file's mtime). ``reparsed``: its bytes are the ones indexed,
        read again by another parser (a new version): what it replaces says so."""
        cand = item.candidate
        path, fingerprint = cand.path, item.fingerprint
        assert fingerprint is not None
        previous: dict[int, list[str]] = {}
        if path in self._located:
            previous = sources.locations_at(self.conn, path)
            sources.delete_locations(self.conn, path)
        successor_by_uri: dict[str, int] = {}
        placed = self._placed[path] = []
        for row in item.rows:
            if commit_date is not None and row.date_kind == "mtime":
                row = row._replace(date_source=commit_date, date_kind="commit")
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
            # A location keeps its span's fingerprint (the excerpt's content hash): freshness
            # checks each excerpt of a changed file on its own.
            self._locations.append(
                sources.NewLocation(fact_id, row.uri, path, row.line_start, row.line_end, row.content_hash)
            )
            placed.append((row.line_start, row.uri, fact_id))
            successor_by_uri.setdefault(row.uri, fact_id)
        if previous:
            self.flush()
            reason = Replaced.PARSER_CHANGED if reparsed else Replaced.SOURCE_CHANGED
            self._settle_orphans(previous, successor_by_uri, report, reason)
        self._manifest.append(
            sources.IndexedFile(path, cand.size, cand.mtime_ns, fingerprint, cand.parser, self.stamp, len(item.rows))
        )

    def located(self) -> dict[str, list[tuple[str, int]]]:
        """``sources.facts_located_in`` of the files applied, without reading them back: each
        file's places are the ones written here (its earlier ones were deleted), ordered as
        the query orders them (first line, NULL first, then URI; one per URI)."""
        located = {}
        for path, placed in self._placed.items():
            ordered = sorted({uri: (line, uri, fact_id) for line, uri, fact_id in placed}.values(), key=_by_line)
            if ordered:
                located[path] = [(uri, fact_id) for _, uri, fact_id in ordered]
        return located

    def retire_path(self, path: str, report: SyncReport) -> None:
        """A vanished file: its excerpts lose this place, and with no place left are retired."""
        self.flush()
        previous = sources.locations_at(self.conn, path)
        sources.delete_locations(self.conn, path)
        self._settle_orphans(previous, {}, report)
        sources.delete_manifest(self.conn, path)

    def flush(self) -> None:
        """Write the buffered rows (facts first: locations reference them)."""
        fact_store.insert_rows(self.conn, self._facts)
        self._facts, self._unwritten = [], {}
        sources.add_locations(self.conn, self._locations)
        self._locations = []
        sources.put_manifest(self.conn, self._manifest)
        self._manifest = []

    def _add(self, row: ExcerptRow, path: str, fingerprint: str) -> int:
        fact_id = self._next_id
        self._next_id += 1
        record = [
            fact_id,
            row.type,
            row.title,
            row.body if row.packed is None else row.packed,  # packed in the pool: written as it is
            row.keywords if row.packed is None else "",
            path,
            "file",
            row.uri,
            fingerprint,
            row.content_hash,
            row.date_source,
            self.stamp,
            None,
            "projection",
            row.tags,
            None,
            None,
            None,
            None,
            row.meta,
            row.date_kind,
        ]
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
            record[_DATE_KIND] = row.date_kind
            return
        fact_sources.refresh_source(
            self.conn,
            fact_id,
            fingerprint=fingerprint,
            uri=row.uri,
            date_source=row.date_source,
            date_indexed=self.stamp,
            tags=row.tags,
            meta=row.meta,
            date_source_kind=row.date_kind,
            keywords=row.keywords,
            body=row.body,
            packed=row.packed,
        )

    def _settle_orphans(
        self,
        previous: dict[int, list[str]],
        successor_by_uri: dict[str, int],
        report: SyncReport,
        reason: Replaced = Replaced.SOURCE_CHANGED,
    ) -> None:
        """Facts that lost their place in a file: supersede (``reason``), retire, or re-point."""
        for fact_id, uris in sorted(previous.items()):
            remaining = sources.first_location(self.conn, fact_id)
            if remaining is not None:
                file_row = sources.manifest_for(self.conn, [remaining.path]).get(remaining.path)
                moved = fact_sources.repoint(
                    self.conn,
                    fact_id,
                    uri=remaining.uri,
                    path=remaining.path,
                    fingerprint=file_row.fingerprint if file_row else remaining.fingerprint,
                )
                if moved and fact_id in self._known:
                    self._known[fact_id] = (self._known[fact_id][0], remaining.path)
                continue
            successor = next((successor_by_uri[u] for u in uris if successor_by_uri.get(u, fact_id) != fact_id), None)
            if successor is not None:
                fact_store.set_lifecycle(
                    self.conn,
                    fact_id,
                    Lifecycle.SUPERSEDED,
                    when=self.stamp,
                    reason=reason,
                    superseded_by=successor,
                )
                report.replaced += 1
            else:
                fact_store.set_lifecycle(
                    self.conn, fact_id, Lifecycle.RETIRED, when=self.stamp, reason="source vanished"
                )
                report.retired += 1
                report.retired_uris.extend(uris)
            self._deactivate(fact_id)

    def _deactivate(self, fact_id: int) -> None:
        known = self._known.pop(fact_id, None)
        if known is not None:
            self._active[known[0]].remove(fact_id)


def _by_line(place: tuple[int | None, str, int]) -> tuple[bool, int, str]:
    return (place[0] is not None, place[0] or 0, place[1])
