"""Incremental sync: compare the project's files to the manifest and apply the difference.

- unchanged size + mtime: the file is not even opened (nor one skipped for its bytes, binary or
  minified, whose size, mtime and parser have not changed);
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

This module takes the lock and opens the store; ``sync.plan`` finds what changed and
``sync.changes`` writes it. It imports only what reading needs: a first sync starts its pool, then
imports the writing half; a later one imports it only when there is something to write.
"""

from __future__ import annotations

import gc
import time

from kenning.files import SYNC_LOCK_NAME, ExclusiveLock
from kenning.ingest.discover import Discovery, discover
from kenning.ingest.read import Progress, Reading, read_all
from kenning.project import keep_state_out_of_git
from kenning.sync.report import SyncReport

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from datetime import datetime

    from kenning.project import Project
    from kenning.store.db import Connection

__all__ = ["Progress", "SyncReport", "sync"]


def sync(
    project: Project,
    *,
    now: datetime,
    progress: Progress | None = None,
    embed: bool = True,
    retire_missing: int | None = None,
    embed_budget: float | None = None,
) -> SyncReport:
    """One sync at a time per project: a second one waits for the first (``files.ExclusiveLock``
    on ``.kenning/sync.lock``), then finds the work done and writes nothing. Readers see the lock
    and say that they answer from the last committed state. ``embed=False`` (``--no-embed``)
    leaves the dense index as it is: the sync is the lexical part alone. ``retire_missing``
    (``--retire-missing N``): the N indexed files not found here are retired even when none of
    the project's files is here (``sync.elsewhere``: refused otherwise on a shared store).
    ``embed_budget`` (``--embed-budget SECONDS``): this sync's embedding time, over ``[dense]
    budget_seconds`` and the default."""
    project.state_dir.mkdir(parents=True, exist_ok=True)
    with ExclusiveLock(str(project.state_dir / SYNC_LOCK_NAME)):
        return _locked_sync(
            project, now=now, progress=progress, embed=embed, retire_missing=retire_missing, embed_budget=embed_budget
        )


def _locked_sync(
    project: Project,
    *,
    now: datetime,
    progress: Progress | None,
    embed: bool,
    retire_missing: int | None,
    embed_budget: float | None,
) -> SyncReport:
    # A sync allocates hundreds of thousands of objects (syntax trees, rows) that reference
    # counting frees; parsing makes no cyclic garbage, so the cycle collector would only scan
    # them again and again (a sixth of the parse time). It is paused for the sync.
    collecting = gc.isenabled()
    gc.disable()
    early: tuple[Discovery, Reading] | None = None
    conn: Connection | None = None
    try:
        early = _first_reading(project, progress)
        from kenning import dense
        from kenning.store.db import after_sync, open_store, sync_lock, use_wal
        from kenning.sync import plan

        if early is not None:
            # The writing half, imported while a first sync's pool parses (a fifth of the start-up
            # of `kenning sync`: the store, the graph, the batches; the pool needs none of it).
            from kenning.sync import changes  # noqa: F401
        # A first sync into a new SQLite store (``early``) fills it under the rollback journal,
        # which writes each page once (``db.connect``'s ``wal``); WAL once it is done.
        conn = open_store(project, create=True, wal=early is None)
        with sync_lock(conn):
            started = time.perf_counter()  # after the wait for another checkout's sync: not the sync's own time
            work = plan.plan(conn, project, found=early[0] if early else None, retire_missing=retire_missing)
            if work.idle:  # nothing to write: the writing half is not imported (sync.plan)
                report = plan.finish_idle(conn, work, now=now)
            else:
                from kenning.sync import changes

                report = changes.apply(conn, project, work, now=now, progress=progress, early=early)
            if early is not None:
                use_wal(conn)
            after_sync(conn, report.added + report.replaced + report.retired)
            # Level 1, after the lexical sync committed; its default time budget follows the
            # lexical sync's own duration, so embedding never turns a short sync into a long one.
            # Under the lock (PostgreSQL's advisory one; SQLite's lock file holds the whole
            # sync): a second checkout's sync embeds what this one left, not the same excerpts.
            if embed:
                lexical = time.perf_counter() - started
                report.dense = dense.update(
                    conn, project, progress, lexical_seconds=lexical, budget_seconds=embed_budget
                )
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
    and migrated (measured: the first batch waited for that on a small tree). Forked before
    this process opened any store, that pool may also take a share of the graph's resolution
    (``graph.helper``). None otherwise."""
    if project.config.store or project.db_path.exists():
        return None
    # an earlier kenning's .gitignore lacks the journal this sync may leave (a file deleted stays deleted)
    keep_state_out_of_git(project.state_dir, create=False)
    found = discover(project)
    return found, read_all(found.candidates, {}, progress, pack=True, helpers=True).start()
