"""The sync's write phase, committed in batches so that other writers are never locked out long.

A write transaction holds the store's write lock: a memory save or a hook made meanwhile waits
for it (up to ``store.db.BUSY_TIMEOUT_MS``). The files are written as the pool parses them, then
the vanished paths retired, in batches: each batch is one transaction holding its files' excerpts, their
full-text rows, their graph rows and their manifest rows, so a sync killed between two batches
leaves a consistent store whose manifest says exactly which files are done, and the next sync
completes the rest. The non-file sources (ledger, git history) and the run's log go with the last
batch — except in a cold sync, whose references all wait for the end: the last batch commits its
files, then one more transaction resolves them and logs the run (``graph.build.resolve_held``).

A batch is sized from the time per item the previous one took, to hold the lock about
``BATCH_SECONDS``: the time this thread ran (``time.thread_time``), not the wall time, which
the parsing pool stretches by competing for the cores while the batch writes (measured: twice
as many batches on Django, and each re-resolves the references naming what it defines).
Between two batches the sync lets the writers that wait for the lock go first
(``store.db.yield_to_waiting_writers``: they flag themselves while they wait), so a memory save
waits for one batch, not for the whole sync; when nobody waits, the next batch starts at once.

A batch is written in slices, as the pool parses its files: its transaction begins with the
files parsed already and goes on with the ones parsed while it writes, waiting for the pool
under the lock when it has none, until it holds its files or its bytes (``BATCH_FIRST_BYTES``,
doubled at each batch up to ``BATCH_BYTES``), has been open ``BATCH_WALL_SECONDS``, or another
writer waits for the lock (checked between slices). Gathering a batch before writing any of it
left the writer idle while the pool parsed, then behind it once the pool was done (Django: the
writer waited 1.3 s for the pool, then wrote alone after it; docs/benchmarks.md).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from kenning.graph import build as graph_build
from kenning.graph.pending import Pending
from kenning.graph.projections import LedgerChanges
from kenning.ingest.read import GONE, Parsed, Progress, Reading
from kenning.project import Project
from kenning.store import facts as fact_store
from kenning.store import graph as graph_store
from kenning.store import sources
from kenning.store.db import Connection, transaction, waiting_writer_check, yield_to_waiting_writers
from kenning.sync import dates as source_dates
from kenning.sync.plan import Skips
from kenning.sync.report import SyncReport
from kenning.sync.write import ExcerptWriter

BATCH_SECONDS = 1.0  # the write lock held by one batch, about
BATCH_FIRST = 64  # items (files to write, vanished paths) in the first batch, before any is timed
# Each batch costs something of its own (the graph resolves again the references that name what
# it changed): on a loaded machine, where every batch is slow, batches keep at least this size.
BATCH_MIN = 32
BATCH_MAX = 4096
# A batch also stops at this many bytes of files read: what it holds (rows, their packed bodies,
# full-text rows) is the sync's peak memory, and a writer that got faster would otherwise make
# its batches larger (measured on the Node.js + npm docs x10: a batch of 1,024 files, 41 MB of
# input in all, took the peak from 150 to 170 MB).
BATCH_BYTES = 8_000_000
BATCH_GROWTH = 4  # a batch is at most this many times its predecessor (one fast batch proves little)
# A batch commits once it wrote this many bytes of files read, doubled at each batch up to
# BATCH_BYTES; the first one a sixteenth of the input when that is more: each batch costs a
# commit (measured on the Node.js + npm docs x10: doubling from 256 kB, ten batches instead of
# seven and 0.25 s more of commits).
BATCH_FIRST_BYTES = 256_000
BATCH_FIRST_SHARE = 16
# A store this sync created has nobody's data to keep waiting: its first batch may hold the
# whole input's bytes (up to BATCH_BYTES; still BATCH_FIRST files, and cut by
# BATCH_WALL_SECONDS and by a writer that waits), so a small tree takes two commits instead of
# five (measured on the Node.js + npm docs x1, 155 files, 4.1 MB: docs/benchmarks.md, branch
# smallcold).
BATCH_FIRST_SHARE_NEW_STORE = 1
# A batch stops taking slices after this long, even short of its bytes: its transaction waits
# for the pool under the write lock, which a memory save may be waiting for (it is also let in
# between two slices as soon as it flags itself).
BATCH_WALL_SECONDS = 2.0


def write_batches(
    conn: Connection,
    project: Project,
    report: SyncReport,
    manifest: dict[str, sources.ManifestRow],
    parsed: Iterable[Parsed],
    vanished: list[str],
    graph_pending: Pending,
    *,
    dates: source_dates.ReadDates,
    stamp: str,
    total: int,
    progress: Progress | None,
    read_bytes: int = 0,
    new_store: bool = False,
    skips: Skips,
) -> None:
    """Write ``parsed`` as it comes (the files read, in order: the pool goes on parsing while a
    batch is written), then retire ``vanished`` and the files now skipped, batch by batch. A
    batch's first slice (``_take``: its first file, and those parsed already) is taken before
    its transaction begins; the transaction then writes slice after slice of what the pool has
    parsed meanwhile, up to the batch's files and bytes (``_Batch.full``).
    ``dates``: the commit dates of the files read; the files not read are re-dated with the last
    batch when HEAD moved (``sync.dates``). ``total``: the items expected (progress only);
    ``read_bytes``: the size of the files ``parsed`` reads (the first batch's bytes);
    ``new_store``: the store was created by this sync (its first batch holds more bytes).
    ``skips``: the files skipped for their bytes, remembered with the last batch (``Skips``).

    What a slice wrote is freed as it is written, its graph rows at the batch's end: the sync
    never holds every parsed file at once."""
    step = progress or (lambda phase, done, total: None)
    before = sources.changes(conn)
    unread_skip = {*vanished}  # with the files read: not re-dated (sync.dates)
    read: set[str] = set()
    work = _work(parsed, report, manifest, vanished, read, skips)
    ready = parsed.ready if isinstance(parsed, Reading) else _always
    waiting = waiting_writer_check(conn)
    following: Parsed | str | _Parsing | None = next(work, None)
    # The graph's sizes before, when this sync may change it (a count of the edges SQLite derives
    # costs about 25 ms on Django, most of a no-op sync's graph work): a sync with no file to
    # write and no other source changed leaves the graph as it is.
    graph_before = graph_store.counts(conn) if following is not None or graph_pending else None
    done, size = 0, BATCH_FIRST
    share = BATCH_FIRST_SHARE_NEW_STORE if new_store else BATCH_FIRST_SHARE
    wanted = min(max(BATCH_FIRST_BYTES, read_bytes // share), BATCH_BYTES)
    graph: Counter[str] = Counter()  # what the batches' graph passes counted, added up
    held = graph_build.Unresolved()  # a cold sync's references, resolved by its last batch
    ledger = LedgerChanges()  # the ledger's records, read with the last batch when they changed
    while True:
        if isinstance(following, _Parsing):
            following = next(work, None)
        taken = [] if following is None else _take(following, work, size, ready)
        following = _peek(work, ready)
        redates: dict[str, str] | None = None
        if following is None:  # the last batch, known before it begins: git is asked outside the lock
            redates = _redates(conn, project, graph_pending, read | unread_skip)
        dates.prepare(item for item in taken if isinstance(item, Parsed))
        report.batches += 1
        batch = _Batch(size, wanted)
        started = time.thread_time()
        with transaction(conn):
            while True:
                _write_slice(conn, report, manifest, batch, taken, dates, stamp, step, done, total)
                if following is None:
                    break
                if held.complete:  # a cold sync: this slice's graph now, not all of it at the batch's end
                    began = time.monotonic()
                    todo = Pending()
                    graph.update(
                        _apply_graph(conn, project, batch, todo, stamp, False, held, ledger, report.graph_failed)
                    )
                    batch.began += time.monotonic() - began  # the wall bound counts the slices, as before
                if batch.full() or waiting():
                    break
                if isinstance(following, _Parsing):  # not parsed yet: waited for under the lock
                    following = next(work, None)
                    if following is None:
                        break
                taken = _take(following, work, size - batch.items, ready)
                following = _peek(work, ready)
                dates.prepare(item for item in taken if isinstance(item, Parsed))
            last = following is None
            # A cold sync's last batch commits its files, then its references are resolved in a
            # transaction of their own that only adds edges.
            resolve_after = last and held.complete
            if last:
                if redates is None:  # the pool's last file came while this batch was written
                    redates = _redates(conn, project, graph_pending, read | unread_skip)
                source_dates.apply(conn, redates)
                step("indexing", 0, 0)  # the progress bar names the final steps once, not at every batch
                step("graph", 0, 0)
            if batch.applied or batch.gone or last or not held.complete:
                todo = graph_pending if last else Pending()
                graph.update(_apply_graph(conn, project, batch, todo, stamp, last, held, ledger, report.graph_failed))
            if last and not resolve_after:
                _finish(conn, report, graph, graph_before, ledger, before, stamp, step)
                skips.write(conn)
        if resolve_after:
            with transaction(conn):
                offload = parsed.offload if isinstance(parsed, Reading) else None
                graph_build.resolve_held(conn, held, stamp=stamp, offload=offload, failed=report.graph_failed)
                _finish(conn, report, graph, graph_before, ledger, before, stamp, step)
                skips.write(conn)
        if last:
            return
        done += batch.items
        # Timed per item written: a batch cut short by its bytes counts the items it held.
        size = _next_size(batch.items, time.thread_time() - started)
        wanted = min(2 * wanted, BATCH_BYTES)
        del batch, taken
        yield_to_waiting_writers(conn)


def _apply_graph(
    conn: Connection,
    project: Project,
    batch: _Batch,
    todo: Pending,
    stamp: str,
    last: bool,
    held: graph_build.Unresolved,
    ledger: LedgerChanges,
    failed: dict[str, str],
) -> dict[str, int]:
    """The graph of the files ``batch`` wrote since its last graph pass (``graph_build.apply``),
    then forgotten: a cold sync applies each slice's as soon as it is written, so that the
    pool's last slice alone is left for the serial tail."""
    stats = graph_build.apply(
        conn,
        project,
        batch.applied,
        batch.gone,
        todo,
        stamp=stamp,
        last=last,
        located=batch.located,
        held=held,
        ledger_changes=ledger,
        failed=failed,
    )
    batch.applied, batch.located, batch.gone = [], {}, []
    return stats


class _Batch:
    """What one transaction wrote so far, slice after slice: its items and bytes (``full``
    when it reached ``size`` items, ``wanted`` bytes or ``BATCH_WALL_SECONDS`` since it began),
    and what its graph pass takes at its end (``graph_build.apply``)."""

    def __init__(self, size: int, wanted: int) -> None:
        self.size, self.wanted = size, wanted
        self.began = time.monotonic()
        self.items = self.bytes = 0
        self.applied: list[graph_build.FileChange] = []
        self.located: dict[str, list[tuple[str, int]]] = {}
        self.gone: list[str] = []

    def full(self) -> bool:
        return (
            self.items >= self.size or self.bytes >= self.wanted or time.monotonic() - self.began >= BATCH_WALL_SECONDS
        )


def _write_slice(
    conn: Connection,
    report: SyncReport,
    manifest: dict[str, sources.ManifestRow],
    batch: _Batch,
    taken: list[Parsed | str],
    dates: source_dates.ReadDates,
    stamp: str,
    step: Progress,
    done: int,
    total: int,
) -> None:
    """One slice of a batch: its files' excerpts, full-text and manifest rows written, its
    vanished paths retired; its files' graph changes kept in ``batch``."""
    files = [item for item in taken if isinstance(item, Parsed)]
    gone = [item for item in taken if isinstance(item, str)]
    at = done + batch.items
    applied, located = _write_files(conn, report, manifest, files, dates, stamp, step, at, max(total, at + len(files)))
    batch.applied += applied
    batch.located.update(located)
    if gone:
        writer = ExcerptWriter(conn, stamp, set(), set())
        for path in gone:
            report.files_removed += 1
            writer.retire_path(path, report)
        batch.gone += gone
    batch.items += len(taken)
    batch.bytes += sum(item.candidate.size for item in files)


class _Parsing:
    """The next item is still being parsed (``_peek``): whether there is one is not known yet."""


_PARSING = _Parsing()


def _peek(work: Iterator[Parsed | str], ready: Callable[[], bool]) -> Parsed | str | _Parsing | None:
    """The next item when taking it does not wait for the pool (None: there is none), else
    ``_PARSING``."""
    return next(work, None) if ready() else _PARSING


def _redates(conn: Connection, project: Project, pending: Pending, skip: set[str]) -> dict[str, str]:
    if pending.git_head is None:
        return {}
    return source_dates.commit_dates_of_unread(conn, project.root, skip)


def _finish(
    conn: Connection,
    report: SyncReport,
    graph: Counter[str],
    graph_before: tuple[int, int] | None,
    ledger: LedgerChanges,
    before: int,
    stamp: str,
    step: Progress,
) -> None:
    """The end of the last transaction: the graph's figures (its sizes against ``graph_before``,
    None when the sync could not change it: then as the last recorded sync left them, when they
    still hold; what the batches' graph passes counted), what became of the ledger's records and
    the run's record in the report."""
    known = sources.last_graph_sizes(conn) if graph_before is None else None
    nodes, edges = known or graph_store.counts(conn)
    nodes_before, edges_before = graph_before or (nodes, edges)
    report.graph = {
        "nodes": nodes,
        "edges": edges,
        "nodes_delta": nodes - nodes_before,
        "edges_delta": edges - edges_before,
        **graph,
    }
    report.ledger_added, report.ledger_changed = ledger.added, ledger.changed
    report.ledger_retired, report.ledger_kept = ledger.retired, ledger.kept
    report.retired_uris += ledger.retired_uris
    report.writes = sources.changes(conn) - before
    if report.writes:
        sources.record_sync_run(conn, stamp, json.dumps(report.to_json(), sort_keys=True))
    step("committing", 0, 0)


def _work(
    parsed: Iterable[Parsed],
    report: SyncReport,
    manifest: dict[str, sources.ManifestRow],
    vanished: list[str],
    read: set[str],
    skips: Skips,
) -> Iterator[Parsed | str]:
    """The files to write, as they are parsed, then the paths to retire: ``vanished`` and the
    files known before that are skipped now (counted in ``report``; those skipped for their
    bytes in ``skips``). ``read`` collects the paths of the files read with excerpts."""
    for item in parsed:
        if item.skip is None:
            if item.rows:
                read.add(item.candidate.path)
            yield item
            continue
        if item.skip in sources.REMEMBERED_SKIPS:
            cand = item.candidate
            skips.found.append(sources.SkippedFile(cand.path, cand.size, cand.mtime_ns, cand.parser, item.skip))
        if item.skip != GONE:  # a file deleted since discovery is no skipped file
            report.skip(item.skip, item.candidate.path)
        report.eligible -= 1
        if item.candidate.path in manifest:
            vanished.append(item.candidate.path)
    yield from sorted(set(vanished))


def _write_files(
    conn: Connection,
    report: SyncReport,
    manifest: dict[str, sources.ManifestRow],
    files: list[Parsed],
    dates: source_dates.ReadDates,
    stamp: str,
    step: Progress,
    done: int,
    total: int,
) -> tuple[list[graph_build.FileChange], dict[str, list[tuple[str, int]]]]:
    """One slice's files: excerpts and manifest rows written, new facts indexed; the files whose
    graph must be rebuilt, as ``graph_build.apply`` takes them, and their excerpts' places."""
    applied: list[graph_build.FileChange] = []
    writer = ExcerptWriter(
        conn,
        stamp,
        {item.candidate.path for item in files},
        {row.content_hash for item in files for row in item.rows},
    )
    for n, item in enumerate(files, start=1):
        step("writing", done + n, total)
        cand = item.candidate
        old = manifest.get(cand.path)
        if old and old.fingerprint == item.fingerprint and old.parser == cand.parser:
            report.files_touched += 1
            sources.touch_manifest(conn, cand.path, cand.size, cand.mtime_ns)
            continue
        if old:
            report.files_changed += 1
        else:
            report.files_new += 1
        # Bytes unchanged but not "touched": another parser (a new version) read them again.
        writer.apply_file(
            item, report, dates.of(item), reparsed=old is not None and old.fingerprint == item.fingerprint
        )
        applied.append((cand.path, item.fingerprint, item.relations))
    writer.flush()
    fact_store.index_fts_rows(conn, writer.new_facts)  # new facts only: none was updated since
    return applied, writer.located()


def _take(
    first: Parsed | str, work: Iterator[Parsed | str], size: int, ready: Callable[[], bool]
) -> list[Parsed | str]:
    """``first`` and what follows it from ``work`` that is parsed already, up to ``size`` items
    or ``BATCH_BYTES`` of files read (``first`` always: one file larger than that is a slice
    of its own)."""
    batch = [first]
    held = first.candidate.size if isinstance(first, Parsed) else 0
    while len(batch) < size and held < BATCH_BYTES and ready():
        item = next(work, None)
        if item is None:
            break
        batch.append(item)
        held += item.candidate.size if isinstance(item, Parsed) else 0
    return batch


def _always() -> bool:
    return True


def _next_size(size: int, seconds: float) -> int:
    wanted = int(size * BATCH_SECONDS / max(seconds, 1e-3))
    return max(BATCH_MIN, min(wanted, size * BATCH_GROWTH, BATCH_MAX))
