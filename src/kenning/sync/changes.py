"""The files that changed since the manifest, found and written: the sync's work under its
lock, once the store is open (``sync.run`` takes the lock and opens the store).

The writing half of a sync (the store's tables, the graph, the batches) is imported with this
module: ``sync.run`` imports it once a first sync's pool has started parsing, so that the two
overlap instead of adding up (docs/benchmarks.md, branch coldstart).
"""

from __future__ import annotations

import json

from kenning.clock import iso
from kenning.graph import build as graph_build
from kenning.ingest.discover import Candidate, Discovery, discover
from kenning.ingest.read import Progress, Reading, read_all
from kenning.store import facts as fact_store
from kenning.store import sources
from kenning.store.db import transaction
from kenning.sync import dates as source_dates
from kenning.sync import elsewhere
from kenning.sync.batches import Skips, write_batches
from kenning.sync.report import SyncReport

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from datetime import datetime

    from kenning.project import Project
    from kenning.store.db import Connection


def apply(
    conn: Connection,
    project: Project,
    *,
    now: datetime,
    progress: Progress | None,
    early: tuple[Discovery, Reading] | None = None,
    retire_missing: int | None = None,
) -> SyncReport:
    """``early``: the discovery and reading ``sync.run`` began before the store existed (the
    manifest is empty). ``retire_missing``: how many indexed files the user says are gone
    (``sync.elsewhere``)."""
    found = early[0] if early else discover(project)
    report = SyncReport(
        project=project.name,
        discovery=found.method,
        skipped=found.skipped,
        skipped_paths=found.skipped_paths,
        unsupported=found.unsupported,
    )
    report.eligible = len(found.candidates)
    manifest = sources.manifest(conn)
    remembered = sources.skipped_files(conn)
    skips = Skips()
    to_read: list[Candidate] = []
    for cand in found.candidates:
        row = manifest.get(cand.path)
        if row and row.size == cand.size and row.mtime_ns == cand.mtime_ns and row.parser == cand.parser:
            report.files_unchanged += 1
            continue
        skipped = remembered.get(cand.path)
        if skipped and (skipped.size, skipped.mtime_ns, skipped.parser) == (cand.size, cand.mtime_ns, cand.parser):
            report.skip(skipped.reason, cand.path)  # skipped for its bytes, which have not changed: not read
            report.eligible -= 1
            continue
        if skipped:
            skips.forget.append(cand.path)
        to_read.append(cand)
    present = {c.path for c in found.candidates}
    skips.forget += [path for path in remembered if path not in present]
    vanished = sorted(p for p in manifest if p not in present)
    elsewhere.check(conn, project, manifest, present, vanished, retire_missing)
    graph_pending = graph_build.pending(conn, project)
    if not to_read and not vanished and not graph_pending:
        report.indexed = len(manifest)
        if not sources.synced(conn) or skips.forget:
            # A first sync with nothing to index (an empty project) is a sync all the same.
            with transaction(conn):
                if not sources.synced(conn):
                    sources.record_sync_run(conn, iso(now), json.dumps(report.to_json(), sort_keys=True))
                skips.write(conn)
        return report

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
        vanished,
        graph_pending,
        dates=source_dates.ReadDates(project.root, [c.path for c in to_read]),
        stamp=iso(now),
        total=len(to_read) + len(vanished),
        progress=progress,
        read_bytes=sum(c.size for c in to_read),
        new_store=early is not None,
        skips=skips,
    )
    if early:  # its pool served until the graph was resolved (``graph.helper``)
        early[1].close()
    report.indexed = sources.manifest_count(conn)
    return report
