"""A cold sync's references resolved by two processes: the sync's and a helper (a worker of the
pool that parsed its files, idle by then).

A cold sync resolves every reference once, after its last batch committed (``graph.build.
resolve_held``): on two cores this was the serial tail, one core idle while the writer resolved
(Django: 143,208 references, 1.25–1.35 s). Resolution only reads what is committed (nodes,
references, what files say of their bases and globals) and adds edges, so a share of the
references can be resolved elsewhere: the helper opens the store read-only, reads its share of
the references back by id, resolves them as the sync would and returns their edges, which the
sync writes after its own share's and before the rest's: the edges, their ids and the decisions
superseded come out as one process would have made them.

SQLite only, and only with a pool forked before the store was opened (a first sync's,
``sync.run``): a process that inherited an open SQLite connection must not open the same file
(SQLite's locks are per process). A helper that fails costs nothing but time: the sync
resolves its share itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.graph.resolve import RESOLVE_BATCH, Resolver
from kenning.store import graph_refs
from kenning.store.graph import RefRow
from kenning.store.readonly import open_readonly

if TYPE_CHECKING:  # concurrent.futures imports logging: not for a sync that starts no pool
    from concurrent.futures import Future

Edge = tuple[int, int, str, str, int]  # (src, dst, type, link, ref id), as GraphWriter.ref_edge buffers it
# its edges, (newer, older) decisions, and the files whose resolution failed (``Resolver.failed``)
Share = tuple[list[Edge], list[tuple[int, int]], dict[str, str]]
# Submits a function and its arguments to a helper process; None when none is available.
Offload = Callable[..., "Future[Share] | None"]

# References from which a helper is offered: chosen, not measured (a small tree's tail is short,
# and the helper's store opening and read-back are fixed costs); Django has 143,208.
HELPED_FROM = 20_000
# The helper's share of the references. The helper reads its share back from the store before
# resolving it, the sync resolves its own from memory and then writes both shares' edges: with
# halves, the sync waited for the helper (0.13 s on Django, timed by hand); with 0.43,
# `bench/sync_floor.py --django --against` gave the resolution phase a median of 0.60 s against
# 0.69 with halves (6 pairs; docs/benchmarks.md, twenty-ninth session).
HELPER_SHARE = 0.43


class Collected:
    """What ``Resolver`` writes to, in a helper: the edges it gives, kept (never written)."""

    ref_sources = False  # SQLite: an edge resolved from a reference needs no source of its own
    stores_mirrors = False  # nor a test's call its ``tested_by`` (derived where the graph is read)

    def __init__(self) -> None:
        self.edges: list[Edge] = []

    def ref_edge(self, src: int, dst: int, type_: str, link: str, ref: RefRow) -> None:
        if src != dst:
            self.edges.append((src, dst, type_, link, ref.id))

    def flush(self) -> int:
        return 0


def offered(rows: Sequence[RefRow], offload: Offload | None, path: str, stamp: str) -> tuple[int, Future[Share] | None]:
    """Hand about the last ``HELPER_SHARE`` of ``rows`` to a helper when there are enough of them
    and one is available (``path``: the SQLite store's file, ``db.store_file``); returns where
    the sync's own share ends and the helper's result. The share begins at a multiple of
    ``RESOLVE_BATCH``: resolved in the same chunks as by one process, in whose order a chunk's
    calls on modules' values come last, the edges keep their ids."""
    if offload is None or not path or len(rows) < HELPED_FROM:  # no path: PostgreSQL, or a store in memory
        return len(rows), None
    cut = RESOLVE_BATCH * round(len(rows) * (1 - HELPER_SHARE) / RESOLVE_BATCH)
    if not 0 < cut < len(rows):
        return len(rows), None
    future = offload(resolve_share, path, (rows[cut].id, rows[-1].id, len(rows) - cut), stamp)
    return (cut, future) if future is not None else (len(rows), None)


def resolve_share(path: str, share: tuple[int, int, int], stamp: str) -> Share:
    """In the helper: the references of the store at ``path`` whose ids run from ``share``'s first
    to its last (as many as its count says: every reference there is the sync's), read back and
    resolved against what is committed there."""
    first, last, count = share
    conn = open_readonly(Path(path))
    try:
        rows = graph_refs.ref_rows_between(conn, first, last)
        if len(rows) != count:
            raise ValueError(f"references {first}-{last}: {len(rows)} stored, {count} expected")
        collected = Collected()
        resolver = Resolver(conn, stamp, writer=collected)  # type: ignore[arg-type]  # the members it uses
        resolver.resolve_rows(rows, supersede=False)
        return collected.edges, resolver.superseding, resolver.failed
    finally:
        conn.close()
