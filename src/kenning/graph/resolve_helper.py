"""A cold sync's references resolved on two cores: the sync's process and one helper process.

After a large cold sync's last batch commits, the sync's process is the only one working (the
parsing pool is done) while it resolves every reference it kept (``graph.build.resolve_held``):
the serial tail. Which edges a reference makes is pure Python over the store's nodes and the
classes' ``BASES`` references, all committed by then, so a second process can decide them for
part of the references while the sync decides the rest and writes every edge:

- the helper is a fresh interpreter (``python -c``, given one end of a socket pair), not a
  forked process: SQLite's unix VFS keeps per-process state about an open file (its inode's
  lock counts, the WAL index mapping) that a forked child would inherit from the sync, which
  holds the store open in a write transaction. Nor is it ``multiprocessing``'s ``spawn``, which
  runs the parent's main script again in the child (a script calling ``sync`` unguarded would
  sync again). It is started after the first batch of a cold sync at whose rate the sync
  expects ``HELPER_MIN_REFS`` references or more (``start``), so that its start-up overlaps
  the parsing;
- when the last batch has committed, the sync sends it the ids of the last ``1 - OWN_SHARE``
  of the references (``begin``); it opens the store read-only, reads those references back
  (``store.graph.ref_rows``), resolves them chunk by chunk with a ``Resolver`` of its own whose
  edges go to an ``EdgeSink``, and sends each chunk's edges back as the rows ``GraphWriter``
  would write, ``(src, dst, type, link, ref_id)``;
- meanwhile the sync resolves the first ``OWN_SHARE`` and writes their edges, then writes the
  helper's chunks in order as they arrive (a thread receives them), then marks the superseded
  decisions of both shares in order: the edges, their ids and every other row are the ones one
  process writes (the edges' ids follow the references' order either way);
- a helper that fails (an error, a crash, a closed pipe) leaves the references it had not
  answered for to the sync, which resolves them itself; a small sync (fewer than
  ``HELPER_MIN_REFS`` references) never starts or uses one; PostgreSQL, whose writer stores
  each edge's source, resolves in one process.

The sync's share is smaller than half because it also writes every edge and builds their
indexes, while the helper also reads its references back: on Django, 45 % for the sync about
balances the two processes on an idle core (docs/benchmarks.md, "tailpool").
"""

from __future__ import annotations

import contextlib
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection as Pipe
from pathlib import Path

from kenning.graph.resolve import EdgeSink, Resolver
from kenning.store import graph as graph_store
from kenning.store.db import Connection, database_file
from kenning.store.graph import RefRow
from kenning.store.graph_write import GraphWriter
from kenning.store.readonly import open_readonly

# References a cold sync resolves (expected when it starts the helper, counted when it would use
# it) for a helper to pay for its start-up (a fresh interpreter, about 0.1 s of CPU).
HELPER_MIN_REFS = 20_000
# References the helper claims, resolves and sends back together: the sync waits at most for
# the two it may hold at the end (it claims the next before it resolves one).
HELPER_CHUNK = 2_000
OWN_SHARE = 0.45  # of the references, the first part, resolved by the sync's process itself

Edge = tuple[int, int, str, str, int]  # (src, dst, type, link, ref_id), as GraphWriter writes it
Pairs = list[tuple[int, int]]  # superseded decisions: (newer, older)


class Helper:
    """The helper process and the sync's end of its pipe (see the module's docstring). The
    helper's share is cut into chunks that it claims one by one from the front while the sync
    may take them from the back (``steal``): a helper that gets no core (a busy machine) leaves
    its chunks to the sync instead of making it wait."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        with ours, theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _MAIN, str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                env=_environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self._pipe = Pipe(ours.detach())
        self._inbox: queue.SimpleQueue[tuple] = queue.SimpleQueue()
        self._reader: threading.Thread | None = None
        self._lock = threading.Lock()
        self._front = self._back = 0  # chunks [0, front) claimed by the helper, [back, n) by the sync
        self.seconds: tuple[float, float] | None = None  # the helper's resolution (wall, CPU), once closed

    def begin(self, path: str, stamp: str, chunks: list[list[int]]) -> bool:
        """Ask the helper to resolve the references of ``chunks`` (ids) in the store at ``path``
        (committed); False when it cannot be asked."""
        self._back = len(chunks)
        try:
            self._pipe.send((path, stamp, chunks))
        except (OSError, ValueError):
            return False
        self._reader = threading.Thread(target=self._receive, name="kenning-resolve-inbox", daemon=True)
        self._reader.start()
        return True

    def _receive(self) -> None:
        """Answer the helper's claims and put its other messages into the inbox as they come
        (it never waits for the sync's main thread), until its last one or its end."""
        while True:
            try:
                message = self._pipe.recv()
                if message[0] == "claim":
                    with self._lock:
                        granted = message[1] < self._back
                        if granted:
                            self._front = message[1] + 1
                    self._pipe.send(granted)
                    continue
            except (EOFError, OSError):
                message = ("failed", "the helper stopped")
            self._inbox.put(message)
            if message[0] != "edges":
                return

    def steal(self) -> int | None:
        """The last chunk neither side has claimed, now the sync's; None when none is left."""
        with self._lock:
            if self._back <= self._front:
                return None
            self._back -= 1
            return self._back

    def claimed(self) -> int:
        """How many chunks, from the first, the helper claimed."""
        with self._lock:
            return self._front

    def message(self, wait: bool) -> tuple | None:
        """The helper's next message: ``("edges", chunk, edges, pairs)``, ``("done", seconds)``
        or ``("failed", why)``; None when there is none yet and ``wait`` is False."""
        if not wait and self._inbox.empty():
            return None
        message = self._inbox.get()
        if message[0] == "done":
            self.seconds = message[1]
        return message

    def close(self) -> None:
        """Stop the helper (told to when it was never asked, else ended) and free its pipe."""
        if self._reader is None:
            with contextlib.suppress(OSError, ValueError):
                self._pipe.send(None)
        try:
            self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._reader is not None:
            self._reader.join()
            while not self._inbox.empty():  # its last message, not waited for by the sync
                self.message(wait=False)
        self._pipe.close()


def start(conn: Connection, expected: int) -> Helper | None:
    """A helper for a cold sync expected to resolve ``expected`` references in ``conn``'s store
    (the references so far at the rate of its files so far: asked again after each batch, as a
    tree's first files may be its documentation), started now; None below ``HELPER_MIN_REFS``,
    for a PostgreSQL store or one with no file, and when none can be started."""
    if expected < HELPER_MIN_REFS or not database_file(conn):
        return None
    try:
        return Helper()
    except (OSError, subprocess.SubprocessError):
        return None


def resolve_rows(resolver: Resolver, rows: Sequence[RefRow], helper: Helper | None) -> None:
    """``resolver.resolve_rows(rows)``, the chunks of the last ``1 - OWN_SHARE`` of them that
    ``helper`` claims decided by it, when there is one and enough rows; the same edges, written
    in the same order."""
    path = database_file(resolver.conn)
    if helper is None or len(rows) < HELPER_MIN_REFS or not path:
        resolver.resolve_rows(rows)
        return
    cut = int(len(rows) * OWN_SHARE)
    chunks = [rows[at : at + HELPER_CHUNK] for at in range(cut, len(rows), HELPER_CHUNK)]
    if not helper.begin(path, resolver.stamp, [[row.id for row in chunk] for chunk in chunks]):
        resolver.resolve_rows(rows)
        return
    resolver.resolve_rows(rows[:cut], supersede=False)
    _Shared(resolver, chunks, helper).finish()
    resolver.supersede()


class _Shared:
    """The sync's side once its own share is written: each chunk's edges written in order as
    they come, from the helper or from the sync; while the next chunk to write is not there,
    the sync resolves the last chunk neither has claimed (``Helper.steal``), and waits for the
    helper only when none is left."""

    def __init__(self, resolver: Resolver, chunks: list[Sequence[RefRow]], helper: Helper) -> None:
        self.resolver, self.chunks, self.helper = resolver, chunks, helper
        self.ready: dict[int, tuple[list[Edge], Pairs]] = {}  # chunk -> its edges and decisions
        self.written = 0  # chunks written, from the first
        self.over = False  # the helper sent its last message

    def finish(self) -> None:
        while True:
            while not self.over and self._take(self.helper.message(wait=False)):
                pass
            self._write_ready()
            if self.written == len(self.chunks):
                return
            stolen = self.helper.steal()
            if stolen is not None:  # never idle while a chunk is left: the helper may have no core
                self.ready[stolen] = _resolve_apart(self.resolver, self.chunks[stolen])
            elif self.over:  # claimed by a helper that stopped before answering: resolved here
                self.ready[self.written] = _resolve_apart(self.resolver, self.chunks[self.written])
            else:
                self._take(self.helper.message(wait=True))

    def _take(self, message: tuple | None) -> bool:
        """A message of the helper taken in; False when there was none."""
        if message is None:
            return False
        if message[0] == "edges":
            self.ready[message[1]] = (message[2], message[3])
        else:  # done, or failed: what it claimed and did not answer is resolved here
            self.over = True
        return True

    def _write_ready(self) -> None:
        writer = self.resolver.writer
        assert isinstance(writer, GraphWriter)
        while self.written in self.ready:
            edges, pairs = self.ready.pop(self.written)
            writer.resolved_edges(edges)
            writer.flush()
            self.resolver.superseding += pairs
            self.written += 1


def _resolve_apart(resolver: Resolver, rows: Sequence[RefRow]) -> tuple[list[Edge], Pairs]:
    """``rows`` resolved by the sync's ``resolver``, their edges and decisions kept apart (a
    chunk written after the ones before it)."""
    writer, sink, before = resolver.writer, EdgeSink(), len(resolver.superseding)
    resolver.writer = sink
    try:
        resolver.resolve_rows(rows, supersede=False)
    finally:
        resolver.writer = writer
    pairs = resolver.superseding[before:]
    del resolver.superseding[before:]
    return sink.take(), pairs


# What the helper's interpreter runs: ``serve`` on the socket whose descriptor it is given.
_MAIN = "import sys; from kenning.graph.resolve_helper import serve_fd; serve_fd(int(sys.argv[1]))"


def _environment() -> dict[str, str]:
    """The sync's environment, with the folder this ``kenning`` was imported from first on the
    helper's ``PYTHONPATH``: the helper runs the same code (a tree run from its ``src/``)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = [here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def serve_fd(fd: int) -> None:
    """The helper's entry point (``_MAIN``)."""
    serve(Pipe(fd))


def serve(pipe: Pipe) -> None:
    """The helper's process: one job (``Helper.begin``), or None, then it ends."""
    try:
        job = pipe.recv()
    except EOFError:
        return
    if job is None:
        return
    path, stamp, chunks = job
    try:
        _resolve(pipe, Path(path), stamp, chunks)
    except Exception as exc:  # any failure is the sync's to recover from: it resolves the rest
        with contextlib.suppress(OSError, ValueError):
            pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        pipe.close()


def _resolve(pipe: Pipe, path: Path, stamp: str, chunks: list[list[int]]) -> None:
    """Claim the chunks one by one, from the first, until the sync refuses one (it took it):
    the next one is claimed before this one is resolved, so that the answer is there when
    needed."""
    began = time.perf_counter(), time.process_time()
    conn = open_readonly(path)
    try:
        sink = EdgeSink()
        resolver = Resolver(conn, stamp, sink)
        if chunks:
            pipe.send(("claim", 0))
        for at, ids in enumerate(chunks):
            if not pipe.recv():
                break
            if at + 1 < len(chunks):
                pipe.send(("claim", at + 1))
            resolver.resolve_chunk(graph_store.ref_rows(conn, ids, sources=False))
            pipe.send(("edges", at, sink.take(), resolver.superseding))
            resolver.superseding = []
        pipe.send(("done", (time.perf_counter() - began[0], time.process_time() - began[1])))
    finally:
        conn.close()
