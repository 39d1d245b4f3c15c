"""A cold sync's resolution on two cores (``graph.build.resolve_held``).

After the pool's last file, a cold sync resolves every reference at once, alone on one core
(Django: 136,739 references, about 1.8 s of CPU: half of it resolving in Python, the rest
inserting the edges and building their indexes). The store holds every node and reference by
then (the last batch committed them), so a helper process forked for it resolves the second
half of the references from its own read-only connection while this process resolves the
first and writes its edges; the helper sends back its edges, written after, and the
decisions its references supersede, marked after. Resolution reads the nodes and references,
never the edges, and each reference's edges depend on them alone: the edges and their ids
are those one process writes.

Only on SQLite (PostgreSQL's writer stores each edge's source), with the ``fork`` start
method, and in a process running no other thread (a lock another thread holds would stay
held in the child: the parsing pool forks under the same rule). When the helper fails, this
process resolves its half itself."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
import sys
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection as Pipe

from kenning.graph.resolve import RESOLVE_BATCH, Resolver
from kenning.store.db import Connection
from kenning.store.graph import RefRow

SPLIT_FROM = 20_000  # references: fewer are resolved in one process (forking costs about 10-30 ms)
OWN_SHARE = 0.5  # of the references, those the sync's process resolves (it also writes every edge)
HELPER_JOIN_SECONDS = 5.0


def resolve_rows(conn: Connection, resolver: Resolver, rows: Sequence[RefRow]) -> None:
    """``resolver.resolve_rows(rows)``, its second half by a helper process when it pays."""
    path = _helper_store(conn, resolver, len(rows))
    if path is None:
        resolver.resolve_rows(rows)
        return
    cut = int(len(rows) * OWN_SHARE)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    helper = context.Process(target=_help, args=(path, resolver.stamp, rows[cut:], send), daemon=True)
    helper.start()
    send.close()
    try:
        resolver.resolve_rows(rows[:cut], supersede=False)
        try:
            edges, superseding = receive.recv()
        except (EOFError, OSError):
            edges, superseding = None, None
        if edges is None or superseding is None:  # the helper failed: its half here
            resolver.resolve_rows(rows[cut:])
            return
        resolver.writer.add_ref_edges(edges)
        resolver.writer.flush()
        resolver.supersede(superseding)
    finally:
        receive.close()
        helper.join(HELPER_JOIN_SECONDS)
        if helper.is_alive():  # stopped meanwhile (an error, Ctrl-C): the helper's work is moot
            helper.kill()
            helper.join()


def _helper_store(conn: Connection, resolver: Resolver, count: int) -> str | None:
    """The store's file when a helper may resolve half of ``count`` references, else None."""
    if count < SPLIT_FROM or resolver.writer.ref_sources or not sys.platform.startswith("linux"):
        return None
    if threading.active_count() != 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    for _, name, path in conn.execute("PRAGMA database_list"):
        if name == "main" and path:
            return str(path)
    return None


def _help(path: str, stamp: str, rows: Sequence[RefRow], send: Pipe) -> None:
    """In the helper: ``rows`` resolved against the committed store, the edges kept in order
    and sent back with the pairs of decisions they supersede; (None, None) on any failure."""
    result: tuple[list[tuple] | None, list[tuple[int, int]] | None] = (None, None)
    try:
        store = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            helper = _Collecting(store, stamp)
            for start in range(0, len(rows), RESOLVE_BATCH):
                helper._resolve_chunk(rows[start : start + RESOLVE_BATCH])
            result = (helper.edges, helper.superseding)
        finally:
            store.close()
    except BaseException:  # noqa: BLE001 (any failure, Ctrl-C too: the sync decides what follows)
        result = (None, None)
    with contextlib.suppress(OSError):  # the sync stopped meanwhile and closed its end
        send.send(result)
    send.close()


class _Collecting(Resolver):
    """A resolver that writes nothing: each chunk's edges kept, in order."""

    def __init__(self, conn: sqlite3.Connection, stamp: str) -> None:
        super().__init__(conn, stamp)
        self.edges: list[tuple] = []

    def _flush(self) -> None:
        self.edges += self.writer.take_ref_edges()
