"""Incremental sync: compare the project's files to the manifest and apply the difference.

- unchanged size + mtime: the file is not even opened;
- same bytes (only touched): the manifest row is refreshed, excerpts stay;
- changed: re-parsed; an excerpt whose content is still there keeps its id, a new excerpt at
  the same URI supersedes the old one, an old excerpt with no successor is retired;
- vanished (deleted, now ignored, too large…): its excerpts are retired;
- identical content anywhere in the project is stored once, with one location per place.

Ingest reads and parses (``ingest.read``, in a pool), the excerpts are written as they come
(``sync.write``), the graph derives its nodes and edges (``graph.build``), all through
``kenning.store``, in batches of transactions that each hold their files' manifest rows
(``sync.batches``): other writers wait for one batch, never for the whole sync. Nothing is
written when nothing changed: the database file stays byte-identical.
"""

from __future__ import annotations

import gc
import time
from datetime import datetime

from kenning import dense
from kenning.clock import iso
from kenning.files import SYNC_LOCK_NAME, ExclusiveLock
from kenning.graph import build as graph_build
from kenning.ingest.discover import Candidate, Discovery, discover
from kenning.ingest.read import Progress, Reading, read_all
from kenning.project import Project
from kenning.store import facts as fact_store
from kenning.store import sources
from kenning.store.db import Connection, open_store, sync_lock
from kenning.sync import dates as source_dates
from kenning.sync.batches import write_batches
from kenning.sync.report import SyncReport

__all__ = ["Progress", "SyncReport", "sync"]


def sync(project: Project, *, now: datetime, progress: Progress | None = None, embed: bool = True) -> SyncReport:
    """One sync at a time per project: a second one waits for the first (``files.ExclusiveLock``
    on ``.kenning/sync.lock``), then finds the work done and writes nothing. Readers see the lock
    and say that they answer from the last committed state. ``embed=False`` (``--no-embed``)
    leaves the dense index as it is: the sync is the lexical part alone."""
    project.state_dir.mkdir(parents=True, exist_ok=True)
    with ExclusiveLock(str(project.state_dir / SYNC_LOCK_NAME)):
        return _locked_sync(project, now=now, progress=progress, embed=embed)


def _locked_sync(project: Project, *, now: datetime, progress: Progress | None, embed: bool) -> SyncReport:
    # A sync allocates hundreds of thousands of objects (syntax trees, rows) that reference
    # counting frees; parsing makes no cyclic garbage, so the cycle collector would only scan
    # them again and again (a sixth of the parse time). It is paused for the sync.
    collecting = gc.isenabled()
    gc.disable()
    early: tuple[Discovery, Reading] | None = None
    conn: Connection | None = None
    try:
        early = _first_reading(project, progress)
        conn = open_store(project, create=True)
        started = time.perf_counter()
        with sync_lock(conn):
            report = _sync(conn, project, now=now, progress=progress, early=early)
        # Level 1, after the lexical sync committed; its default time budget follows the
        # lexical sync's own duration, so embedding never turns a short sync into a long one.
        if embed:
            report.dense = dense.update(conn, project, progress, lexical_seconds=time.perf_counter() - started)
        else:
            report.dense = {"available": False, "reason": dense.SKIPPED}
        return report
    finally:
        if early:
            early[1].close()
        if conn is not None:
            conn.close()
        if collecting:
            gc.enable()


def _first_reading(project: Project, progress: Progress | None) -> tuple[Discovery, Reading] | None:
    """A project whose SQLite store does not exist yet has no file indexed: its files are all
    read, with nothing known of them, and the pool starts parsing before the store is created
    and migrated (measured: the first batch waited for that on a small tree). None otherwise."""
    if project.config.store or project.db_path.exists():
        return None
    found = discover(project)
    return found, read_all(found.candidates, {}, progress, pack=True).start()


def _sync(
    conn: Connection,
    project: Project,
    *,
    now: datetime,
    progress: Progress | None,
    early: tuple[Discovery, Reading] | None = None,
) -> SyncReport:
    """``early``: the discovery and reading ``_first_reading`` began (the manifest is empty)."""
    found = early[0] if early else discover(project)
    report = SyncReport(project=project.name, discovery=found.method, skipped=found.skipped)
    report.eligible = len(found.candidates)
    manifest = sources.manifest(conn)
    to_read: list[Candidate] = []
    for cand in found.candidates:
        row = manifest.get(cand.path)
        if row and row.size == cand.size and row.mtime_ns == cand.mtime_ns and row.parser == cand.parser:
            report.files_unchanged += 1
        else:
            to_read.append(cand)
    present = {c.path for c in found.candidates}
    vanished = sorted(p for p in manifest if p not in present)
    graph_pending = graph_build.pending(conn, project)
    if not to_read and not vanished and not graph_pending:
        report.indexed = len(manifest)
        return report

    # The pool parses while the batches are written; a batch takes the write lock only once its
    # files are parsed, so other writers (an MCP server saving a memory, a hook recording a tool
    # use) wait for the writes, not for the parsing.
    known = {
        c.path: manifest[c.path].fingerprint
        for c in to_read
        if c.path in manifest and manifest[c.path].parser == c.parser
    }
    if early and (manifest or not fact_store.packs_bodies(conn)):  # not a new store after all (never, under the lock)
        early[1].close()
        early = None
    write_batches(
        conn,
        project,
        report,
        manifest,
        early[1] if early else read_all(to_read, known, progress, pack=fact_store.packs_bodies(conn)),
        vanished,
        graph_pending,
        dates=source_dates.ReadDates(project.root, [c.path for c in to_read]),
        stamp=iso(now),
        total=len(to_read) + len(vanished),
        progress=progress,
        read_bytes=sum(c.size for c in to_read),
    )
    report.indexed = sources.manifest_count(conn)
    return report
