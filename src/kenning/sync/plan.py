"""What a sync must do, found before anything is written: the files that changed since the
manifest (those skipped for their bytes and unchanged since left unread), the indexed files now
gone, and the other sources that changed (``graph.pending``). A sync with nothing to do ends
here (``finish_idle``), without importing the writing half (``sync.changes``: the store's
writers, the graph's build, the batches): a no-op `kenning sync` of Django imported 226 modules,
189 now, and took 229 ms, 215 now (docs/benchmarks.md, "idlesync").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from kenning.clock import iso
from kenning.graph.pending import Pending, pending
from kenning.ingest.discover import Candidate, Discovery, discover
from kenning.store import sources
from kenning.store.db import transaction
from kenning.sync import elsewhere
from kenning.sync.report import SyncReport

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from datetime import datetime

    from kenning.project import Project
    from kenning.store.db import Connection


@dataclass
class Skips:
    """The files skipped for their bytes (``sources.REMEMBERED_SKIPS``) this sync read, and the
    paths whose remembered skip no longer holds (read again, or gone): ``write`` records both
    with the last batch, after the run's record (they are not the sync's writes)."""

    found: list[sources.SkippedFile] = field(default_factory=list)
    forget: list[str] = field(default_factory=list)

    def write(self, conn: Connection) -> None:
        if self.found or self.forget:
            sources.remember_skipped(conn, self.found, self.forget)


@dataclass
class Plan:
    """A sync's work: ``to_read`` (the changed files), ``vanished`` (indexed files gone),
    ``graph_pending`` (the other sources), ``skips``; ``report`` counts what discovery and the
    manifest said (eligible, skipped, unchanged)."""

    report: SyncReport
    manifest: dict[str, sources.ManifestRow]
    to_read: list[Candidate]
    vanished: list[str]
    graph_pending: Pending
    skips: Skips

    @property
    def idle(self) -> bool:
        """Nothing to read, retire or project: the sync writes nothing (but forgotten skips)."""
        return not self.to_read and not self.vanished and not self.graph_pending


def plan(
    conn: Connection,
    project: Project,
    *,
    found: Discovery | None = None,
    retire_missing: int | None = None,
) -> Plan:
    """``found``: the discovery ``sync.run`` made before the store existed (else discovered
    here). ``retire_missing``: how many indexed files the user says are gone (``sync.elsewhere``)."""
    found = found or discover(project)
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
    return Plan(report, manifest, to_read, vanished, pending(conn, project), skips)


def finish_idle(conn: Connection, work: Plan, *, now: datetime) -> SyncReport:
    """The end of a sync with nothing to do: its report; a first sync with nothing to index (an
    empty project) is recorded all the same, and the skips of files now gone are forgotten."""
    report = work.report
    report.indexed = len(work.manifest)
    first = not sources.synced(conn)
    if first or work.skips.forget:
        with transaction(conn):
            if first:
                sources.record_sync_run(conn, iso(now), json.dumps(report.to_json(), sort_keys=True))
            work.skips.write(conn)
    return report
