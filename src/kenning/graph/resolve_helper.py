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
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection as Pipe
from pathlib import Path

from kenning.graph.resolve import RESOLVE_BATCH, EdgeSink, Resolver
from kenning.store import graph as graph_store
from kenning.store.db import Connection, database_file
from kenning.store.graph import RefRow
from kenning.store.graph_write import GraphWriter
from kenning.store.readonly import open_readonly

# References a cold sync resolves (expected when it starts the helper, counted when it would use
# it) for a helper to pay for its start-up (a fresh interpreter, about 0.1 s of CPU).
HELPER_MIN_REFS = 20_000
HELPER_CHUNK = RESOLVE_BATCH  # references the helper resolves and sends back together
OWN_SHARE = 0.45  # of the references, the first part, resolved by the sync's process itself

Edge = tuple[int, int, str, str, int]  # (src, dst, type, link, ref_id), as GraphWriter writes it


class HelperFailed(Exception):
    """The helper stopped answering: the sync resolves what it had not answered for."""


class Helper:
    """The helper process and the sync's end of its pipe (see the module's docstring)."""

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
        self.superseding: list[tuple[int, int]] = []
        self.seconds: tuple[float, float] | None = None  # the helper's resolution: (wall, CPU), once done

    def begin(self, path: str, stamp: str, ids: list[int]) -> bool:
        """Ask the helper to resolve the references ``ids`` of the store at ``path`` (committed);
        False when it cannot be asked."""
        try:
            self._pipe.send((path, stamp, ids, HELPER_CHUNK))
        except (OSError, ValueError):
            return False
        self._reader = threading.Thread(target=self._receive, name="kenning-resolve-inbox", daemon=True)
        self._reader.start()
        return True

    def _receive(self) -> None:
        """Every message of the helper into the inbox, as it comes (the helper never waits for
        the sync to read), until its last one or its end."""
        while True:
            try:
                message = self._pipe.recv()
            except (EOFError, OSError):
                message = ("failed", "the helper stopped")
            self._inbox.put(message)
            if message[0] != "edges":
                return

    def results(self) -> Iterator[tuple[int, list[Edge]]]:
        """Each chunk's references counted and its edges, in order; then ``superseding`` holds
        the helper's superseded decisions. ``HelperFailed`` when it stops first."""
        while True:
            kind, *rest = self._inbox.get()
            if kind == "edges":
                yield rest[0], rest[1]
            elif kind == "done":
                self.superseding, self.seconds = rest[0], rest[1]
                return
            else:
                raise HelperFailed(rest[0])

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
    """``resolver.resolve_rows(rows)``, the last ``1 - OWN_SHARE`` of them decided by ``helper``
    when there is one and enough rows; the same edges, written in the same order."""
    path = database_file(resolver.conn)
    if helper is None or len(rows) < HELPER_MIN_REFS or not path:
        resolver.resolve_rows(rows)
        return
    cut = int(len(rows) * OWN_SHARE)
    theirs = rows[cut:]
    if not helper.begin(path, resolver.stamp, [row.id for row in theirs]):
        resolver.resolve_rows(rows)
        return
    resolver.resolve_rows(rows[:cut], supersede=False)
    writer = resolver.writer
    assert isinstance(writer, GraphWriter)
    answered = 0
    try:
        for count, edges in helper.results():
            writer.resolved_edges(edges)
            writer.flush()
            answered += count
        resolver.superseding += helper.superseding
    except HelperFailed:  # what it did not answer for, resolved here
        resolver.resolve_rows(theirs[answered:], supersede=False)
    resolver.supersede()


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
    path, stamp, ids, chunk = job
    try:
        _resolve(pipe, Path(path), stamp, ids, chunk)
    except Exception as exc:  # any failure is the sync's to recover from: it resolves the rest
        pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        pipe.close()


def _resolve(pipe: Pipe, path: Path, stamp: str, ids: list[int], size: int) -> None:
    began = time.perf_counter(), time.process_time()
    conn = open_readonly(path)
    try:
        sink = EdgeSink()
        resolver = Resolver(conn, stamp, sink)
        for start_at in range(0, len(ids), size):
            chunk = ids[start_at : start_at + size]
            resolver.resolve_chunk(graph_store.ref_rows(conn, chunk, sources=False))
            pipe.send(("edges", len(chunk), sink.take()))
        seconds = time.perf_counter() - began[0], time.process_time() - began[1]
        pipe.send(("done", resolver.superseding, seconds))
    finally:
        conn.close()
