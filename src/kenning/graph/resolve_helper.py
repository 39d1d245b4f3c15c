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
  the parsing, and runs at the lowest priority (``HELPER_NICE``): it is meant for a core
  nobody else wants;
- when the last batch has committed, the sync sends it the ids of the last ``1 - OWN_SHARE``
  of the references, in chunks (``begin``); it opens the store read-only and resolves the
  chunks from the first, each read back (``store.graph.ref_rows``) and resolved with a
  ``Resolver`` of its own whose edges go to an ``EdgeSink``, and sent back (by a thread of
  its own, so that it never waits for the sync to read) as the rows ``GraphWriter`` would
  write, ``(src, dst, type, link, ref_id)``, with its superseded decisions;
- meanwhile the sync resolves the first ``OWN_SHARE`` and writes their edges, then writes the
  chunks in order as they come; whenever the next chunk to write is not there yet, it tells
  the helper to stop before the last chunk it has not answered for and resolves that one
  itself, and with only the next chunk left, it waits ``WAIT_SECONDS`` for it, then resolves
  it too (a chunk both resolved is written once: both give the same edges). A helper that
  gets no core (a busy machine) thus never makes the sync wait long. Then the superseded
  decisions of every chunk are marked in order: the edges, their ids and every other row are
  the ones one process writes (the edges' ids follow the references' order either way);
- a helper that fails (an error, a crash, a closed pipe) leaves the chunks it had not
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
from typing import Any

from kenning.graph.resolve import EdgeSink, Resolver
from kenning.store import graph as graph_store
from kenning.store.db import Connection, database_file
from kenning.store.graph import RefRow
from kenning.store.graph_write import GraphWriter
from kenning.store.readonly import open_readonly

# References a cold sync resolves (expected when it starts the helper, counted when it would use
# it) for a helper to pay for its start-up (a fresh interpreter, about 0.1 s of CPU).
HELPER_MIN_REFS = 20_000
HELPER_CHUNK = 2_000  # references the helper resolves and sends back together
# How long the sync waits for the one chunk it left to the helper before resolving it too.
WAIT_SECONDS = 0.05
CLOSE_SECONDS = 0.5  # how long a helper told to stop may take to end before it is killed
OWN_SHARE = 0.45  # of the references, the first part, resolved by the sync's process itself

Edge = tuple[int, int, str, str, int]  # (src, dst, type, link, ref_id), as GraphWriter writes it
Pairs = list[tuple[int, int]]  # superseded decisions: (newer, older)


class Helper:
    """The helper process and the sync's end of its pipe (see the module's docstring). The
    sync's process reads the helper's messages only when it needs them (no thread of its own:
    a receiving thread made the sync's main thread wait for the GIL each time a message came,
    a convoy that a busy machine stretches); the helper sends from a thread of its own, so that
    it never waits for the sync to read."""

    def __init__(self, path: str) -> None:
        """A helper for the store at ``path``: it opens it read-only at once."""
        ours, theirs = socket.socketpair()
        with ours, theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _MAIN, str(theirs.fileno()), path],
                pass_fds=(theirs.fileno(),),
                env=_environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self._pipe = Pipe(ours.detach())
        self._begun = False
        self.answered = 0  # chunks whose edges the helper sent
        self.seconds: tuple[float, float] | None = None  # the helper's resolution (wall, CPU), once done

    def begin(self, stamp: str, chunks: list[list[int]]) -> None:
        """Ask the helper to resolve the references of ``chunks`` (ids), committed, from the
        first. What the sync tells the helper goes through a thread of its
        own (``_send_all``): the job is larger than a socket's buffer, and a helper still
        starting on a busy machine would make the sync wait until it reads."""
        self._outbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._sender = threading.Thread(target=_send_all, args=(self._pipe, self._outbox), name="kenning-resolve-ask")
        self._sender.start()
        self._outbox.put((stamp, chunks))
        self._begun = True

    def stop_before(self, chunk: int) -> None:
        """Tell the helper to resolve no chunk from ``chunk`` on: the sync took them."""
        self._outbox.put(chunk)

    def message(self, timeout: float = 0.0) -> tuple | None:
        """The helper's next message, waited for up to ``timeout`` seconds: ``("edges", chunk,
        edges, decisions)``, ``("done", seconds)`` or ``("failed", why)``; None when none came."""
        try:
            if not self._pipe.poll(timeout):
                return None
            message = self._pipe.recv()
        except (EOFError, OSError, ValueError):
            return ("failed", "the helper stopped")
        if message[0] == "edges":
            self.answered += 1
        elif message[0] == "done":
            self.seconds = message[1]
        return message

    def close(self) -> None:
        """Stop the helper (told to; killed when it does not end at once) and free its pipe."""
        if self._begun:
            self.stop_before(0)
            self._outbox.put(None)  # the sending thread's end
        else:
            with contextlib.suppress(OSError, ValueError):
                self._pipe.send(None)  # a few bytes: the socket's buffer takes them at once
        try:
            self._process.wait(timeout=CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._begun:
            self._sender.join()
        if self._begun and self.seconds is None:  # its last message, not waited for by the sync
            while (message := self.message()) is not None and message[0] == "edges":
                pass
        self._pipe.close()


def start(conn: Connection, expected: int) -> Helper | None:
    """A helper for a cold sync expected to resolve ``expected`` references in ``conn``'s store
    (the references so far at the rate of its files so far: asked again after each batch, as a
    tree's first files may be its documentation), started now; None below ``HELPER_MIN_REFS``,
    for a PostgreSQL store or one with no file, and when none can be started."""
    path = database_file(conn)
    if expected < HELPER_MIN_REFS or not path:
        return None
    try:
        return Helper(path)
    except (OSError, subprocess.SubprocessError):
        return None


def resolve_rows(resolver: Resolver, rows: Sequence[RefRow], helper: Helper | None) -> None:
    """``resolver.resolve_rows(rows)``, the chunks of the last ``1 - OWN_SHARE`` of them that
    ``helper`` claims decided by it, when there is one and enough rows; the same edges, written
    in the same order."""
    if helper is None or len(rows) < HELPER_MIN_REFS:
        resolver.resolve_rows(rows)
        return
    cut = int(len(rows) * OWN_SHARE)
    chunks = [rows[at : at + HELPER_CHUNK] for at in range(cut, len(rows), HELPER_CHUNK)]
    helper.begin(resolver.stamp, [[row.id for row in chunk] for chunk in chunks])
    resolver.resolve_rows(rows[:cut], supersede=False)
    _Shared(resolver, chunks, helper).finish()
    resolver.supersede()


class _Shared:
    """The sync's side once its own share is written: each chunk's edges written in order as
    they come, from the helper or from the sync. While the next chunk to write is not there,
    the sync resolves the last chunk the helper has not answered for, after telling it to stop
    before that one (``Helper.stop_before``); with only the next chunk left to the helper, it
    waits ``WAIT_SECONDS`` for it, then resolves it too. A chunk both resolved (the helper was
    at it) is written once: both give the same edges."""

    def __init__(self, resolver: Resolver, chunks: list[Sequence[RefRow]], helper: Helper) -> None:
        self.resolver, self.chunks, self.helper = resolver, chunks, helper
        self.ready: dict[int, tuple[list[Edge], Pairs]] = {}  # chunk -> its edges and decisions
        self.written = 0  # chunks written, from the first
        self.back = len(chunks)  # chunks [back, n) are the sync's
        self.over = False  # the helper sent its last message

    def finish(self) -> None:
        while True:
            self._receive(0.0)
            self._write_ready()
            if self.written == len(self.chunks):
                return
            taken = self.written if self.over else self.steal()
            if taken is None:  # only the next chunk is the helper's: a moment for it, then here
                self._receive(WAIT_SECONDS)
                if self.written in self.ready or self.over:
                    continue
                taken = self.written
            if taken < self.back:
                self.back = taken
                self.helper.stop_before(taken)
            if taken not in self.ready:
                self.ready[taken] = _resolve_apart(self.resolver, self.chunks[taken])

    def steal(self) -> int | None:
        """The last chunk the helper has not answered for, when it is not the next to write."""
        last = self.back - 1
        return last if last > self.written and last not in self.ready else None

    def _receive(self, timeout: float) -> None:
        """The helper's messages that came, the first waited for up to ``timeout`` seconds."""
        while not self.over and (message := self.helper.message(timeout)) is not None:
            timeout = 0.0
            if message[0] == "edges":
                self.ready.setdefault(message[1], (message[2], message[3]))
            else:  # done, or failed: what it did not answer for is resolved here
                self.over = True

    def _write_ready(self) -> None:
        writer = self.resolver.writer
        assert isinstance(writer, GraphWriter)
        while self.written in self.ready:
            edges, pairs = self.ready.pop(self.written)
            writer.resolved_edges(edges)
            writer.flush()
            self.resolver.superseding += pairs
            self.written += 1
        for late in [chunk for chunk in self.ready if chunk < self.written]:  # resolved twice
            del self.ready[late]


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


# The helper's priority once it has loaded its code and opened the store: the lowest. It is
# meant to use a core nobody else wants; on a machine whose cores are busy, a helper at the
# sync's priority took CPU from the sync itself (the scheduler shares a core between processes,
# not between programs), and the sync, which takes any chunk the helper has not reached, is
# better off alone.
HELPER_NICE = 19
# What the helper's interpreter runs: ``serve_fd`` on the socket whose descriptor it is given.
_MAIN = "import sys; from kenning.graph.resolve_helper import serve_fd; serve_fd(int(sys.argv[1]), sys.argv[2])"


def _environment() -> dict[str, str]:
    """The sync's environment, with the folder this ``kenning`` was imported from first on the
    helper's ``PYTHONPATH``: the helper runs the same code (a tree run from its ``src/``)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = [here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def serve_fd(fd: int, path: str) -> None:
    """The helper's entry point (``_MAIN``): its code loaded and the store at ``path`` opened
    read-only at the sync's priority, while the pool parses (a connection outside any
    transaction holds nothing), then the lowest priority while it waits and resolves."""
    pipe = Pipe(fd)
    try:
        conn: Connection | None = open_readonly(Path(path))
    except Exception:  # noqa: BLE001 (said to the sync when it asks: it resolves alone)
        conn = None
    with contextlib.suppress(OSError):
        os.nice(HELPER_NICE)
    try:
        serve(pipe, conn)
    finally:
        if conn is not None:
            conn.close()


def serve(pipe: Pipe, conn: Connection | None) -> None:
    """One job (``Helper.begin``), or None, then the helper ends."""
    try:
        job = pipe.recv()
    except EOFError:
        return
    if job is None:
        return
    stamp, chunks = job
    try:
        if conn is None:
            raise RuntimeError("the store could not be opened read-only")
        _resolve(pipe, conn, stamp, chunks)
    except Exception as exc:  # any failure is the sync's to recover from: it resolves the rest
        with contextlib.suppress(OSError, ValueError):
            pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        pipe.close()


def _resolve(pipe: Pipe, conn: Connection, stamp: str, chunks: list[list[int]]) -> None:
    """The chunks resolved from the first, until the one the sync said it took (read between
    two chunks); a thread sends what is resolved."""
    began = time.perf_counter(), time.process_time()
    outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(pipe, outbox), name="kenning-resolve-send")
    sender.start()
    try:
        sink = EdgeSink()
        resolver = Resolver(conn, stamp, sink)
        limit = len(chunks)
        for at, ids in enumerate(chunks):
            while pipe.poll():
                limit = min(limit, pipe.recv())
            if at >= limit:
                break
            resolver.resolve_chunk(graph_store.ref_rows(conn, ids, sources=False))
            outbox.put(("edges", at, sink.take(), resolver.superseding))
            resolver.superseding = []
        outbox.put(("done", (time.perf_counter() - began[0], time.process_time() - began[1])))
    finally:
        outbox.put(None)
        sender.join()


def _send_all(pipe: Pipe, outbox: queue.SimpleQueue[Any]) -> None:
    """Send what comes to ``outbox`` until None (or the other end is gone)."""
    while (message := outbox.get()) is not None:
        try:
            pipe.send(message)
        except (OSError, ValueError):
            return
