"""Incremental sync: compare the project's files to the manifest and apply the difference.

- unchanged size + mtime: the file is not even opened;
- same bytes (only touched): the manifest row is refreshed, excerpts stay;
- changed: re-parsed; an excerpt whose content is still there keeps its id, a new excerpt at
  the same URI supersedes the old one, an old excerpt with no successor is retired;
- vanished (deleted, now ignored, too large…): its excerpts are retired;
- identical content anywhere in the project is stored once, with one location per place.

Nothing is written when nothing changed: the database file stays byte-identical.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kenning.clock import iso
from kenning.ingest.discover import Candidate, discover
from kenning.ingest.parsers import load_relations
from kenning.ingest.relations import Relations
from kenning.ingest.rows import ExcerptRow, prepare
from kenning.ingest.write import ExcerptWriter
from kenning.project import Project
from kenning.store import facts as fact_store
from kenning.store.db import connect, transaction

# (phase, done, total): "reading" and "writing" count files; "indexing", "graph" and
# "committing" are single steps (0, 0) whose length is unknown in advance.
Progress = Callable[[str, int, int], None]
PARALLEL_FROM = 200  # changed files; below this a process pool costs more than it saves
BINARY_PROBE = 8192


@dataclass
class SyncReport:
    project: str
    discovery: str
    eligible: int = 0
    indexed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    files_new: int = 0
    files_changed: int = 0
    files_touched: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    added: int = 0
    replaced: int = 0
    retired: int = 0
    kept: int = 0
    deduplicated: int = 0
    writes: int = 0
    retired_uris: list[str] = field(default_factory=list)
    graph: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "discovery": self.discovery,
            "coverage": {
                "eligible": self.eligible,
                "indexed": self.indexed,
                "skipped": dict(sorted(self.skipped.items())),
            },
            "files": {
                "new": self.files_new,
                "changed": self.files_changed,
                "touched": self.files_touched,
                "unchanged": self.files_unchanged,
                "removed": self.files_removed,
            },
            "excerpts": {
                "added": self.added,
                "replaced": self.replaced,
                "retired": self.retired,
                "kept": self.kept,
                "deduplicated": self.deduplicated,
            },
            "retired_uris": self.retired_uris,
            "graph": dict(self.graph),
            "writes": self.writes,
        }


@dataclass(frozen=True)
class Parsed:
    candidate: Candidate
    fingerprint: str | None
    rows: list[ExcerptRow]
    skip: str | None = None
    relations: Relations | None = None


def sync(project: Project, *, now: datetime, progress: Progress | None = None) -> SyncReport:
    conn = connect(project.db_path, create=True)
    # A sync allocates hundreds of thousands of objects (syntax trees, rows) that reference
    # counting frees; parsing makes no cyclic garbage, so the cycle collector would only scan
    # them again and again (a sixth of the parse time). It is paused for the sync.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _sync(conn, project, now=now, progress=progress)
    finally:
        conn.close()
        if collecting:
            gc.enable()


def _sync(conn: sqlite3.Connection, project: Project, *, now: datetime, progress: Progress | None) -> SyncReport:
    found = discover(project)
    report = SyncReport(project=project.name, discovery=found.method, skipped=found.skipped)
    report.eligible = len(found.candidates)
    manifest = {
        row[0]: row
        for row in conn.execute("SELECT path, size, mtime_ns, fingerprint, parser FROM manifest")
    }
    to_read: list[Candidate] = []
    for cand in found.candidates:
        row = manifest.get(cand.path)
        if row and row[1] == cand.size and row[2] == cand.mtime_ns and row[4] == cand.parser:
            report.files_unchanged += 1
        else:
            to_read.append(cand)
    present = {c.path for c in found.candidates}
    vanished = sorted(p for p in manifest if p not in present)
    from kenning.graph import build as graph_build

    graph_pending = graph_build.pending(conn, project)
    if not to_read and not vanished and not graph_pending:
        report.indexed = len(manifest)
        return report

    # Parse everything before taking the write lock: other writers (an MCP server saving a
    # memory, a hook recording a tool use) wait only for the writes, not for the parsing.
    parsed = list(_read_all(to_read, manifest, progress))
    stamp = iso(now)
    before = conn.total_changes
    applied: list[tuple[str, str | None, Any]] = []  # (path, fingerprint, relations) for the graph
    step = progress or (lambda phase, done, total: None)
    with transaction(conn):
        writer = ExcerptWriter(conn, stamp, {item.candidate.path for item in parsed},
                               {row.content_hash for item in parsed for row in item.rows})
        for done, item in enumerate(parsed, start=1):
            step("writing", done, len(parsed))
            old = manifest.get(item.candidate.path)
            if item.skip is not None:
                report.skipped[item.skip] += 1
                report.eligible -= 1
                if old:
                    vanished.append(item.candidate.path)
                continue
            if old and old[3] == item.fingerprint and old[4] == item.candidate.parser:
                report.files_touched += 1
                conn.execute(
                    "UPDATE manifest SET size = ?, mtime_ns = ? WHERE path = ?",
                    (item.candidate.size, item.candidate.mtime_ns, item.candidate.path),
                )
                continue
            if old:
                report.files_changed += 1
            else:
                report.files_new += 1
            writer.apply_file(item, report)
            applied.append((item.candidate.path, item.fingerprint, item.relations))
        writer.flush()
        step("indexing", 0, 0)
        fact_store.index_fts_rows(conn, writer.new_facts)  # one batch: new facts only, none touched since
        parsed.clear()  # the excerpts are written: their memory goes to the graph pass
        writer.new_facts.clear()
        for path in sorted(set(vanished)):
            report.files_removed += 1
            writer.retire_path(path, report)
        step("graph", 0, 0)
        report.graph = graph_build.apply(
            conn, project, applied,
            sorted(set(vanished)), graph_pending, stamp=stamp,
        )
        report.writes = conn.total_changes - before
        if report.writes:
            conn.execute(
                "INSERT INTO sync_runs (finished, report) VALUES (?, ?)",
                (stamp, json.dumps(report.to_json(), sort_keys=True)),
            )
        step("committing", 0, 0)
    report.indexed = conn.execute("SELECT count(*) FROM manifest").fetchone()[0]
    return report


def _read_all(cands: list[Candidate], manifest: dict[str, Any], progress: Progress | None) -> Iterator[Parsed]:
    """Parsed files, in order, as they come (in a process pool from PARALLEL_FROM files)."""
    # The known fingerprint lets a worker skip parsing bytes it has seen, but only when the
    # same parser version read them: a new parser version must parse again.
    jobs = [(c, manifest[c.path][3] if c.path in manifest and manifest[c.path][4] == c.parser else None)
            for c in cands]
    total = len(jobs)
    if total >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 2), initializer=gc.disable) as pool:
            for done, item in enumerate(pool.map(_read_one, jobs, chunksize=16), start=1):
                if progress:
                    progress("reading", done, total)
                yield item
    else:
        for done, job in enumerate(jobs, start=1):
            item = _read_one(job)
            if progress:
                progress("reading", done, total)
            yield item


def _read_one(job: tuple[Candidate, str | None]) -> Parsed:
    """Read, fingerprint and (unless the bytes are unchanged) parse one file."""
    cand, known_fingerprint = job
    try:
        data = cand.abs_path.read_bytes()
    except OSError:
        return Parsed(cand, None, [], skip="unreadable")
    if b"\x00" in data[:BINARY_PROBE]:
        return Parsed(cand, None, [], skip="binary")
    fingerprint = hashlib.sha256(data).hexdigest()
    if fingerprint == known_fingerprint:
        return Parsed(cand, fingerprint, [])
    text = data.decode("utf-8", errors="replace")
    try:
        chunks, relations = load_relations(cand.parser)(text, cand.path)
    except (RecursionError, ValueError, UnicodeError, MemoryError):
        # One pathological file (nesting too deep for a parser, say) must not stop the sync:
        # it is skipped and counted, like any other file kenning cannot read.
        return Parsed(cand, None, [], skip="parse_error")
    return Parsed(cand, fingerprint, prepare(chunks, cand.path, cand.mtime_ns), relations=relations)
