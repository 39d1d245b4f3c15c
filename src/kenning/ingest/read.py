"""Reading the files a sync must (re)index: fingerprint, then parse into excerpt rows and
relations — in a process pool from ``PARALLEL_FROM`` files or ``PARALLEL_FROM_BYTES`` bytes.
No store access here."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import hashlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kenning.files import BINARY_PROBE, read_regular_inside
from kenning.ingest.columns import columns, rebuilt
from kenning.ingest.compiled import compiled_from
from kenning.ingest.discover import Candidate
from kenning.ingest.encoding import decode_source
from kenning.ingest.git_dates import blob_id
from kenning.ingest.parsers import import_parsers, load_relations
from kenning.ingest.relations import Relations
from kenning.ingest.rows import ExcerptRow, prepare

if TYPE_CHECKING:  # imported where a pool starts: a small sync (one edit) starts none (start-up time)
    from concurrent.futures import Future, ProcessPoolExecutor

# (phase, done, total): "reading" and "writing" count files; "indexing", "graph" and
# "committing" are single steps (0, 0) whose length is unknown in advance.
Progress = Callable[[str, int, int], None]
# A process pool from this many changed files or bytes; below, it costs more than it saves
# (measured: 155 Markdown files, 4.1 MB, parse faster in the pool; 30 files, 1.9 MB, even).
PARALLEL_FROM = 200
PARALLEL_FROM_BYTES = 2_000_000
CHUNK = 16  # files a worker parses per task, at most
CHUNK_BYTES = 256_000  # input a worker parses per task, at most (unless one file is larger)
AHEAD_BYTES = 8_000_000  # input the pool may parse ahead of the writer (one batch: sync.batches.BATCH_BYTES)
# A pool worker's priority below the writing process's (``os.nice``; 0-19, higher yields
# more). Three processes share two cores during a sync: at equal priority the writer got two
# thirds of a core, fell behind the pool and wrote its last batch alone. A little below it,
# the scheduler gives the writer a core of its own and the pool the other one and whatever
# the writer leaves; at 2 (not more) the pool still gets most of its share beside other
# programs' processes (docs/benchmarks.md, branch coldstart).
WORKER_NICENESS = 2
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
# glibc's malloc in a pool worker (``mallopt``, malloc.h): freed memory kept for the next files
# up to ``WORKER_HEAP_KEPT`` at the heap's top, and blocks under ``WORKER_MMAP_FROM`` (glibc's
# upper bound on 64-bit) taken from the heap. By default a worker gave back to the system what
# each file's rows, texts and pickles had used and faulted fresh pages in again for the next
# (Django 5.0.6: about 75,000 page faults in the pool, 33,000 so; docs/benchmarks.md, poolcpu).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
WORKER_HEAP_KEPT = 64 * 1024 * 1024
WORKER_MMAP_FROM = 32 * 1024 * 1024
PARENT_POLL_SECONDS = 0.5


# ``Parsed.skip`` of a file deleted between discovery and reading: not a skip reason (a sync
# counts it nowhere, and retires it as removed when the manifest knew it), never "unreadable".
GONE = "gone"

# (candidate, the fingerprint it had when last read, pack the bodies): one file to read.
Job = tuple[Candidate, str | None, bool]


@dataclass(frozen=True)
class Parsed:
    candidate: Candidate
    fingerprint: str | None
    rows: list[ExcerptRow]
    skip: str | None = None
    relations: Relations | None = None
    blob: str | None = None  # git's blob id of the bytes read: are they HEAD's? (source dates)

    def sent(self) -> Sent:
        """What a pool worker sends back for this file (``received`` makes it again): all but
        the candidate, which the writing process holds already, and the rows as columns
        (``ingest.columns``: each ``ExcerptRow`` would pickle through a Python-level reduce and
        come back through its Python ``__new__``; the relations pickle themselves the same way)."""
        return (self.fingerprint, columns(self.rows), self.skip, self.relations, self.blob)

    def __reduce__(self) -> tuple[Any, ...]:
        return (received, (self.candidate, self.sent()))


# ``Parsed.sent``: (fingerprint, the rows' columns, skip, relations, blob).
Sent = tuple[str | None, list[tuple[Any, ...]], str | None, Relations | None, str | None]


def received(candidate: Candidate, sent: Sent) -> Parsed:
    """The ``Parsed`` whose ``sent()`` this is: equal, its rows ``ExcerptRow`` again."""
    fingerprint, rows, skip, relations, blob = sent
    return Parsed(candidate, fingerprint, list(rebuilt(ExcerptRow, rows)), skip, relations, blob)


class Reading(Iterator[Parsed]):
    """Parsed files in order (``read_all``), and whether the next one is there already:
    ``ready()`` is true when ``next`` will not wait for the pool (always, when the files are
    parsed here, one by one as they are taken). ``start()`` hands the first files to the pool
    now (it starts with the first ``next`` otherwise); whoever starts it must ``close()`` it
    (stopping the pool: the files not begun are not parsed; closing twice is harmless).
    ``offload(fn, *args)``: ``fn(*args)`` submitted to the pool once its files are read (None
    when it cannot be), for a reading that keeps its pool for that (``read_all(helpers=True)``);
    None for the others."""

    def __init__(
        self,
        items: Iterator[Parsed],
        ready: Callable[[], bool],
        start: Callable[[], None] = lambda: None,
        close: Callable[[], None] = lambda: None,
        offload: Callable[..., Future[Any] | None] | None = None,
    ) -> None:
        self._items, self.ready, self._start, self.close = items, ready, start, close
        self.offload = offload

    def __next__(self) -> Parsed:
        return next(self._items)

    def start(self) -> Reading:
        self._start()
        return self


def read_all(
    cands: list[Candidate],
    known: Mapping[str, str],
    progress: Progress | None,
    *,
    pack: bool = False,
    helpers: bool = False,
) -> Reading:
    """Parsed files, in order, as they come (in a process pool from PARALLEL_FROM files or
    PARALLEL_FROM_BYTES bytes): the pool goes on parsing while the caller writes what it has.

    ``known``: path -> the fingerprint it had when the same parser version last read it; a
    worker skips parsing bytes it has seen (a new parser version must parse again). ``pack``:
    the excerpts' bodies deflated as the store keeps them (``ExcerptRow.packed``), in the pool.
    ``helpers``: the pool outlives its last file, until ``close()``, and takes other work
    (``Reading.offload``; ``graph.helper`` says which pools may)."""
    jobs = [(c, known.get(c.path), pack) for c in cands]
    large = len(jobs) >= PARALLEL_FROM or sum(c.size for c in cands) >= PARALLEL_FROM_BYTES
    if large and len(jobs) > 1 and (os.cpu_count() or 1) > 1:
        workers = min(4, os.cpu_count() or 2)
        parsers = tuple(sorted({c.parser for c in cands}))
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(os.getpid(), parsers))
        ahead = _Ahead(jobs, workers, pool, keep=helpers)
        items = _counted(_pooled(ahead), len(jobs), progress)
        return Reading(items, ahead.ready, ahead.fill, ahead.stop, ahead.offload if helpers else None)
    return Reading(_counted(map(read_one, jobs), len(jobs), progress), lambda: True)


def _counted(items: Iterator[Parsed], total: int, progress: Progress | None) -> Iterator[Parsed]:
    for done, item in enumerate(items, start=1):
        if progress:
            progress("reading", done, total)
        yield item


def _pooled(ahead: _Ahead) -> Iterator[Parsed]:
    """``ahead``'s files parsed in its pool, which lives as long as this generator."""
    try:
        yield from _in_pool(ahead.pool, ahead)
    finally:  # the caller stopped early (an error while writing): the files not begun are not parsed
        if not (ahead.keep and ahead.finished):
            ahead.stop()


class _Ahead:
    """The chunks handed to the pool and not yet taken: at most ``AHEAD_BYTES`` of input (and
    ``2 * workers`` chunks) ahead of what the caller took. A pool faster than the writer no
    longer holds every parsed file at once (measured on the Node.js + npm docs x10: 171 MB at
    the peak without a bound, see docs/benchmarks.md)."""

    def __init__(self, jobs: list[Job], workers: int, pool: ProcessPoolExecutor, *, keep: bool = False) -> None:
        self.workers, self.pool, self.keep = workers, pool, keep  # keep: the pool outlives the files
        self.chunks = iter(_chunks(jobs))
        # A chunk's future, its candidates (its results come without them: ``Parsed.sent``), its bytes.
        self.pending: deque[tuple[Future[list[Sent]], list[Candidate], int]] = deque()
        self.taken: deque[Parsed] = deque()  # the rest of the chunk the caller is taking
        self.bytes = 0
        self.started = self.finished = self.stopped = False

    def ready(self) -> bool:
        """Whether the next file is parsed (or none is left): taking it will not wait."""
        if self.taken or self.finished:
            return True
        return self.started and (not self.pending or self.pending[0][0].done())

    def fill(self) -> None:
        """Hand the pool chunks up to the bounds (the first call forks its workers)."""
        self.started = True
        for chunk in self.chunks:
            size = sum(job[0].size for job in chunk)
            self.pending.append((self.pool.submit(_read_chunk, chunk), [job[0] for job in chunk], size))
            self.bytes += size
            if self.bytes >= AHEAD_BYTES and len(self.pending) >= 2 * self.workers:
                break

    def stop(self) -> None:
        self.stopped = True
        self.pool.shutdown(cancel_futures=True)

    def offload(self, fn: Callable[..., Any], *args: object) -> Future[Any] | None:
        """``fn(*args)`` in the pool once every file is read; None before, or once it is stopped
        or broken."""
        if not self.finished or self.stopped:
            return None
        try:
            return self.pool.submit(fn, *args)
        except RuntimeError:  # shut down, or broken (a worker killed): BrokenProcessPool is one
            return None


def _chunks(jobs: list[Job]) -> Iterator[list[Job]]:
    """The jobs in order, ``CHUNK`` files or ``CHUNK_BYTES`` of input a task (a larger file
    alone): with a count alone, a chunk of large files kept the writer waiting for its last one
    (on the Node.js docs the first 16 files are a quarter of the corpus)."""
    chunk: list[Job] = []
    held = 0
    for job in jobs:
        if chunk and (len(chunk) == CHUNK or held + job[0].size > CHUNK_BYTES):
            yield chunk
            chunk, held = [], 0
        chunk.append(job)
        held += job[0].size
    if chunk:
        yield chunk


def _in_pool(pool: ProcessPoolExecutor, ahead: _Ahead) -> Iterator[Parsed]:
    """The jobs' results in order, the pool kept within ``ahead``'s bounds."""
    ahead.pool = pool
    while True:
        ahead.fill()
        if not ahead.pending:
            ahead.finished = True
            return
        future, candidates, size = ahead.pending[0]
        ahead.taken.extend(map(received, candidates, future.result()))
        ahead.pending.popleft()
        ahead.bytes -= size
        while ahead.taken:
            yield ahead.taken.popleft()


def _read_chunk(chunk: list[Job]) -> list[Sent]:
    return [read_one(job).sent() for job in chunk]


def _worker_start(parent: int, parsers: tuple[str, ...] = ()) -> None:
    """A pool worker dies with the sync that started it (a SIGKILL gives the parent no chance
    to stop its pool): on Linux the kernel sends it SIGKILL when its parent process dies; everywhere
    a daemon thread also watches, and ends the worker once the sync (``parent``) is gone. Under
    the ``fork`` and ``spawn`` start methods the worker's parent is the sync; under ``forkserver``
    (Python 3.14's default on Linux) it is the fork server, which ends with the sync, and the
    thread checks the sync itself.

    The worker yields the CPU to the process that writes (``WORKER_NICENESS``) and imports the
    parsers of ``parsers`` itself, while that process creates the store: the writer, not the
    parsing, is what a cold sync waits for on two cores (docs/benchmarks.md, branch coldstart).

    Ctrl-C (SIGINT, sent to the terminal's whole process group) is the sync's to handle: it
    stops the pool. A worker ignores it; one idle in the pool, waiting for a helper's work
    (``read_all(helpers=True)``), would otherwise die printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.disable()
    _lower_priority()
    _keep_freed_memory()
    import_parsers(parsers)
    direct = os.getppid()  # the sync, or the fork server
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if not _sync_alive(parent, direct) or os.getppid() != direct:  # gone before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, direct), name="kenning-parent-watch", daemon=True).start()


def _keep_freed_memory() -> None:
    """Where glibc's malloc is the allocator, keep what the worker frees (``WORKER_HEAP_KEPT``);
    elsewhere (another libc, another system), nothing changes."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):  # no mallopt here: as it is
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, WORKER_MMAP_FROM)
        libc.mallopt(_M_TRIM_THRESHOLD, WORKER_HEAP_KEPT)


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or no nice() here: as it is
        os.nice(WORKER_NICENESS)


def _watch_parent(parent: int, direct: int) -> None:
    while os.getppid() == direct and _sync_alive(parent, direct):
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _sync_alive(parent: int, direct: int) -> bool:
    """Whether the sync that started this worker still runs: it is the worker's parent, or,
    under a fork server, a process that still exists (a signal 0 reaches it)."""
    if parent == direct:
        return True  # the parent's death changes ``os.getppid()``, which the caller checks
    try:
        os.kill(parent, 0)
    except (ProcessLookupError, PermissionError):  # gone, or its pid taken by another user's process
        return False
    return True


def read_one(job: Job) -> Parsed:
    """Read, fingerprint and (unless the bytes are unchanged) parse one file."""
    cand, known_fingerprint, pack = job
    try:
        # No link followed, whatever happened since discovery: a link it accepted (inside the
        # root) is read at the target it resolved then; a file swapped for a link since is refused.
        data = read_regular_inside(cand.root_real or _root_of(cand), cand.target or cand.path)
    except FileNotFoundError:
        return Parsed(cand, None, [], skip=GONE)
    except OSError:
        return Parsed(cand, None, [], skip="unreadable")
    if b"\x00" in data[:BINARY_PROBE]:
        return Parsed(cand, None, [], skip="binary")
    if minified(cand.path, data):
        return Parsed(cand, None, [], skip="minified")
    if compiled_from(cand.root_real or _root_of(cand), cand.target or cand.path, data) is not None:
        return Parsed(cand, None, [], skip="compiled")  # its source is read
    fingerprint = hashlib.sha256(data).hexdigest()
    if fingerprint == known_fingerprint:
        return Parsed(cand, fingerprint, [])
    text = decode_source(data)
    try:
        chunks, relations = load_relations(cand.parser)(text, cand.path)
    except Exception:  # noqa: BLE001 (any parser's failure on one file)
        # One pathological file (nesting too deep for a parser, say) must not stop the sync, nor a
        # parser's own bug on one file (an ``IndexError``: {fmt}'s specialization once stopped a
        # sync, in the graph's resolution): it is skipped and counted, like any other file kenning
        # cannot read, and the report names it (``skipped_paths``).
        return Parsed(cand, None, [], skip="parse_error")
    rows = prepare(chunks, cand.path, cand.mtime_ns, pack=pack)
    return Parsed(cand, fingerprint, rows, relations=relations, blob=blob_id(data))


# A built bundle (``ui/dist/assets/index-BMShE0dZ.js``, a vendored ``tinymce.min.js``): no one reads
# or asks about its lines, which crowded pocketbase's answers (1,153 of its 5,587 code excerpts,
# titled ``function e(e){let n=…``). Hand-written JavaScript, TypeScript and CSS of 2 kB or more
# average 29 and 35 characters a line (medians over umami's ``src`` and pocketbase's ``ui/src``, 353
# files; the longest 253, an SVG icon's path data in a component, read still).
MINIFIED_SUFFIXES = (".js", ".mjs", ".cjs", ".css")
MINIFIED_LINE = 300  # average characters per line from which a file is a bundle
MINIFIED_FROM = 2_000  # bytes: a short file is read whatever its lines


def minified(path: str, data: bytes) -> bool:
    """Whether ``data`` is a minified JavaScript or CSS bundle (``x.min.js``, or long lines)."""
    if not path.endswith(MINIFIED_SUFFIXES):
        return False
    if path.endswith((".min.js", ".min.css", ".min.mjs")):
        return True
    return len(data) >= MINIFIED_FROM and len(data) / (data.count(b"\n") + 1) > MINIFIED_LINE


def _root_of(cand: Candidate) -> str:
    """The root a candidate was found under, links resolved."""
    return os.path.realpath(cand.root)
