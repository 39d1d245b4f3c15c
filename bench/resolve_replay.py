"""A cold sync's resolution replayed, in one process and with the helper (``graph.resolve_helper``),
alternated (not a test): the serial tail's main part, timed without the parsing around it.

A tree is synced once (Django 5.0.6's source by default, or ``--store`` a synced store); then,
``--reps`` times each, in a transaction rolled back: every resolved edge deleted and every
reference resolved again as a cold sync's last transaction does (the edges' indexes dropped and
built after), by the sync's process alone, then with a helper started half a second before (in
a sync it starts during the parsing). Each run prints its wall time, the main thread's CPU, the
helper's wall and CPU, how many chunks the helper answered and the sync took, the load average,
and whether the edges written, ids included, are the stored ones.

    .venv/bin/python bench/resolve_replay.py --reps 5
    .venv/bin/python bench/resolve_replay.py --store /path/to/project/.kenning/kenning.db --reps 5
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from _common import DJANGO, SDIST_CACHE, fetch_sdist
from kenning.config import init_project
from kenning.graph import resolve_helper
from kenning.graph.resolve import Resolver
from kenning.store import graph as graph_store
from kenning.store import graph_write
from kenning.store.db import connect
from kenning.sync.run import sync

STAMP = "2026-12-02T10:00:00Z"


def resolved_edges(conn: object) -> str:
    """A hash of every resolved edge, ids included."""
    digest = hashlib.sha256()
    for row in conn.execute(  # type: ignore[attr-defined]
        "SELECT id, src, dst, type, link, ref_id FROM graph_edges WHERE ref_id IS NOT NULL ORDER BY id"
    ):
        digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def replay(conn: object, rows: list, helper: resolve_helper.Helper | None) -> tuple[float, float, str]:
    """One resolution of ``rows`` in a transaction rolled back: wall, main thread CPU, edges' hash."""
    conn.execute("BEGIN IMMEDIATE")  # type: ignore[attr-defined]
    try:
        conn.execute("DELETE FROM graph_edges WHERE ref_id IS NOT NULL")  # type: ignore[attr-defined]
        began, began_cpu = time.perf_counter(), time.thread_time()
        resolver = Resolver(conn, STAMP)  # type: ignore[arg-type]
        with graph_write.edge_indexes_built_after(conn):  # type: ignore[arg-type]
            resolve_helper.resolve_rows(resolver, rows, helper)
        wall, cpu = time.perf_counter() - began, time.thread_time() - began_cpu
        return wall, cpu, resolved_edges(conn)
    finally:
        conn.execute("ROLLBACK")  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, help="a synced store (default: Django 5.0.6 synced now)")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=SDIST_CACHE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kenning-resolve-replay-") as tmp:
        store = args.store
        if store is None:
            root = Path(tmp) / "corpus"
            shutil.copytree(fetch_sdist(*DJANGO, args.cache), root, symlinks=True)
            project, _ = init_project(root, "replay")
            sync(project, now=datetime.now(UTC), embed=False)
            store = project.db_path
        conn = connect(store)
        stored = resolved_edges(conn)
        rows = graph_store.ref_rows(conn, graph_store.ref_ids(conn), sources=False)
        print(f"{len(rows)} references; own share {resolve_helper.OWN_SHARE}, chunks of {resolve_helper.HELPER_CHUNK}")
        walls: dict[str, list[float]] = {"one process": [], "with the helper": []}
        for rep in range(args.reps):
            for side in walls:
                helper = resolve_helper.Helper(str(store)) if side == "with the helper" else None
                if helper is not None:
                    time.sleep(0.5)  # started during the parsing in a sync
                wall, cpu, edges = replay(conn, rows, helper)
                line = f"{rep + 1} {side:16}: wall {wall:.3f} s, main thread CPU {cpu:.3f} s"
                if helper is not None:
                    helper.close()
                    seconds = helper.seconds or (0.0, 0.0)
                    line += (
                        f", helper wall {seconds[0]:.2f} s CPU {seconds[1]:.2f} s, {helper.answered} chunks answered"
                    )
                walls[side].append(wall)
                print(f"{line}; load {os.getloadavg()[0]:.1f}; edges as stored: {edges == stored}", flush=True)
        for side, times in walls.items():
            print(
                f"{side}: wall min / median / max {min(times):.3f} / {statistics.median(times):.3f} / "
                f"{max(times):.3f} s"
            )
        conn.close()


if __name__ == "__main__":
    main()
