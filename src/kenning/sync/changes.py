"""The files that changed since the manifest, written: the sync's work under its lock, once the
store is open and the work found (``sync.run`` takes the lock and opens the store; ``sync.plan``
finds what changed).

The writing half of a sync (the store's tables, the graph, the batches) is imported with this
module: ``sync.run`` imports it once a first sync's pool has started parsing, so that the two
overlap instead of adding up (docs/benchmarks.md, branch coldstart), and otherwise only when
there is something to write.
"""

from __future__ import annotations

from kenning.clock import iso
from kenning.ingest.discover import Discovery
from kenning.ingest.read import Progress, Reading, read_all
from kenning.store import facts as fact_store
from kenning.store import sources
from kenning.sync import dates as source_dates
from kenning.sync.batches import write_batches
from kenning.sync.plan import Plan
from kenning.sync.report import SyncReport

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from datetime import datetime

    from kenning.project import Project
    from kenning.store.db import Connection


def apply(
    conn: Connection,
    project: Project,
    work: Plan,
    *,
    now: datetime,
    progress: Progress | None,
    early: tuple[Discovery, Reading] | None = None,
) -> SyncReport:
    """Write what ``work`` found (``sync.plan``; a plan that found nothing ends with its
    ``finish_idle`` instead, without importing this module). ``early``: the discovery and reading
    ``sync.run`` began before the store existed (the manifest is empty)."""
    report, manifest, to_read = work.report, work.manifest, work.to_read
    # The pool parses while the batches are written; a batch that waits for the pool under the
    # write lock lets in the other writers that wait (an MCP server saving a memory, a hook
    # recording a tool use) at its next slice (``sync.batches``).
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
        work.vanished,
        work.graph_pending,
        dates=source_dates.ReadDates(project.root, [c.path for c in to_read]),
        stamp=iso(now),
        total=len(to_read) + len(work.vanished),
        progress=progress,
        read_bytes=sum(c.size for c in to_read),
        new_store=early is not None,
        skips=work.skips,
    )
    if early:  # its pool served until the graph was resolved (``graph.helper``)
        early[1].close()
    report.indexed = sources.manifest_count(conn)
    return report
