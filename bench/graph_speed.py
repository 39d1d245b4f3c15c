"""Graph speed: build on a generated 500-file Python project, and two-hop neighbourhood queries.

Run: .venv/bin/python bench/graph_speed.py [--files 500] [--queries 300]
Prints figures; asserts nothing (speed is measured here, never in unit tests).

Also a path between two symbols drawn at random (``graph path``, the same pairs each run), its
p50/p95 and how many pairs it links: ``PYTHONPATH=/tmp/before/src`` (a ``git archive`` of another
commit) times another tree's, ``graph.walk.path_between`` where ``graph/paths.py`` is not there yet.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kenning.answer.graph import GraphOptions, run_query
from kenning.bench.speed import quantile
from kenning.clock import utc_now
from kenning.config import init_project
from kenning.graph import build as graph_build
from kenning.graph import walk

try:
    from kenning.graph.paths import path_between
except ImportError:  # a tree from before graph/paths.py
    path_between = walk.path_between  # type: ignore[attr-defined]
from kenning.store.db import connect
from kenning.sync.run import sync


def generate(root: Path, files: int, rng: random.Random) -> None:
    for i in range(files):
        package = f"pkg{i % 20}"
        imports = sorted({rng.randrange(files) for _ in range(3)} - {i})
        lines = [f'"""Module {i}: generated for the graph benchmark."""', ""]
        lines += [f"from pkg{j % 20}.mod{j} import func_{j}_{rng.randrange(10)}" for j in imports]
        lines.append("")
        for f in range(10):
            lines.append(f"def func_{i}_{f}(value, factor=2):")
            lines.append(f'    """Function {f} of module {i}."""')
            for j in imports[:2]:
                lines.append(f"    value = func_{j}_{rng.randrange(10)}(value) if False else value")
            lines.append(f"    return helper_{f % 3}(value) * factor + len(str(value))")
            lines.append("")
        for h in range(3):
            lines.append(f"def helper_{h}(value):\n    return value + {i * 3 + h}\n")
        lines.append(f"class Model{i}:\n    def run(self, value):\n        return func_{i}_0(value)\n")
        path = root / "src" / package / f"mod{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(42)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "bench"
        root.mkdir()
        generate(root, args.files, rng)
        project, _ = init_project(root, "bench")
        graph_time = [0.0, 0.0]
        original = graph_build.apply

        def timed(*a, **k):
            start, cpu = time.perf_counter(), time.process_time()
            try:
                return original(*a, **k)
            finally:
                graph_time[0] += time.perf_counter() - start
                graph_time[1] += time.process_time() - cpu

        graph_build.apply = timed
        start = time.perf_counter()
        report = sync(project, now=utc_now())
        cold = time.perf_counter() - start
        start = time.perf_counter()
        again = sync(project, now=utc_now())
        noop = time.perf_counter() - start
        graph_build.apply = original
        conn = connect(project.db_path)
        symbols = [r[0] for r in conn.execute("SELECT key FROM graph_nodes WHERE kind = 'symbol'")]
        starts = rng.sample(symbols, min(args.queries, len(symbols)))
        walk_ms, answer_ms, sizes = [], [], []
        for key in starts:
            t0 = time.perf_counter()
            nodes = walk.find_nodes(conn, key)
            hits = walk.neighbours(conn, nodes, hops=2, limit=200)
            walk_ms.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(hits))
            t0 = time.perf_counter()
            run_query(conn, project, "neighbours", key, GraphOptions(hops=2, limit=20), now=utc_now())
            answer_ms.append((time.perf_counter() - t0) * 1000)
        path_ms, linked = [], 0
        for a, b in zip(starts, rng.sample(symbols, len(starts)), strict=True):
            ends = walk.find_nodes(conn, a), walk.find_nodes(conn, b)
            t0 = time.perf_counter()
            linked += bool(path_between(conn, *ends))
            path_ms.append((time.perf_counter() - t0) * 1000)
        conn.close()
    print(f"machine: nproc={os.cpu_count()} python={platform.python_version()} {platform.machine()} {sys.platform}")
    print(
        f"project: {args.files} Python files, {report.added} excerpts, graph {report.graph['nodes']} nodes / "
        f"{report.graph['edges']} edges"
    )
    print(
        f"cold sync (parse + index + graph): {cold:.2f} s; graph part alone: {graph_time[0]:.2f} s "
        f"(CPU {graph_time[1]:.2f} s)"
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average during the run: {load:.2f}")
    print(f"no-op resync: {noop * 1000:.1f} ms, writes {again.writes}")
    print(
        f"two-hop neighbourhood, {len(walk_ms)} symbols (median {statistics.median(sizes):.0f} nodes reached): "
        f"walk p50 {quantile(walk_ms, 0.5):.2f} ms, p95 {quantile(walk_ms, 0.95):.2f} ms; "
        f"full answer (facts + freshness, limit 20) p50 {quantile(answer_ms, 0.5):.2f} ms, "
        f"p95 {quantile(answer_ms, 0.95):.2f} ms"
    )
    print(
        f"path between two symbols, {len(path_ms)} pairs ({linked} linked within 6 edges): "
        f"p50 {quantile(path_ms, 0.5):.2f} ms, p95 {quantile(path_ms, 0.95):.2f} ms"
    )


if __name__ == "__main__":
    main()
