"""Level 1 costs: embedding throughput, peak memory while embedding, index size, hybrid query
latency on 50,000 excerpts, and sync time with and without dense.

    python bench/dense_speed.py                    # everything below, default sizes
    python bench/dense_speed.py --excerpts 50000   # the latency store's size

- throughput: passages a second for each model, on kenning's own docs sections (the product's
  ``text_of`` and batch size);
- peak memory: ``kenning.dense.update`` (the sync's hook) on kenning's docs in a child
  process, its peak RSS (``ru_maxrss``) against the same child's RSS before embedding;
- latency: bench/speed.py's generated corpus (2,000 Markdown + 2,000 Python files, about
  50,000 excerpts) synced by the product; its vectors are
  random unit vectors written through ``kenning.store.vectors`` (embedding 50,000 excerpts
  would take hours on this machine; the search's cost — query embedding, one matrix product,
  the lexical search, fusion, freshness — does not depend on the vectors' values); then
  ``kenning.search.hybrid.search`` for bench/speed.py's questions, limit 10, p50/p95, beside
  its parts (query embedding; dense ranking incl. embedding; the lexical pool, the engine's
  ranking cut at the fusion's pool), the process's CPU time per query and the load average;
- sync: this repository's docs/ synced lexically (``[dense] enabled = false``), then again
  from scratch with dense (both models, the default budget), wall time of each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--excerpts", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--skip", nargs="*", default=(), choices=("throughput", "memory", "latency", "sync"))
    parser.add_argument("--child-memory", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_memory:
        return _child_memory(args.child_memory)
    figures: dict = {}
    if "throughput" not in args.skip:
        figures["throughput"] = _throughput()
        print("throughput (passages/s):", json.dumps(figures["throughput"]), flush=True)
    if "memory" not in args.skip:
        figures["memory"] = _memory()
        print("peak memory while embedding:", json.dumps(figures["memory"]), flush=True)
    if "latency" not in args.skip:
        figures["latency"] = _latency(args.excerpts, args.queries)
        print("hybrid latency:", json.dumps(figures["latency"]), flush=True)
    if "sync" not in args.skip:
        figures["sync"] = _sync_times()
        print("sync:", json.dumps(figures["sync"]), flush=True)
    print(json.dumps(figures, indent=2))
    return 0


def _docs_project(root: Path, dense: str) -> object:
    from kenning.config import init_project, load_project

    shutil.copytree(REPO / "docs", root / "docs")
    project, _ = init_project(root, "docs")
    with (project.state_dir / "config.toml").open("a", encoding="utf-8") as handle:
        handle.write(f"\n[dense]\n{dense}\n")
    return load_project(root)


def _throughput() -> dict:
    from kenning.dense import embed
    from kenning.dense.index import BATCH, text_of
    from kenning.store.db import connect

    with tempfile.TemporaryDirectory() as tmp:
        from kenning.clock import utc_now
        from kenning.sync.run import sync

        project = _docs_project(Path(tmp) / "p", "enabled = false")
        sync(project, now=utc_now())
        conn = connect(project.db_path)
        rows = conn.execute(  # kenning_text: a packed body (migration 0019) as text
            "SELECT type, title, kenning_text(body), meta FROM facts WHERE lifecycle = 'active' LIMIT 128"
        ).fetchall()
        conn.close()
    texts = [text_of(*row) for row in rows]
    found = {"passages": len(texts), "mean_chars": round(sum(map(len, texts)) / len(texts))}
    for name, embedder in embed.select({}).items():
        embedder.encode(texts[:4])  # warm
        started = time.perf_counter()
        for i in range(0, len(texts), BATCH):
            embedder.encode(texts[i : i + BATCH])
        found[name] = round(len(texts) / (time.perf_counter() - started), 1)
    return found


def _memory() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "memory.json"
        subprocess.run([sys.executable, __file__, "--child-memory", str(out)], check=True)
        return json.loads(out.read_text())


def _child_memory(out: Path) -> int:
    from kenning import dense
    from kenning.clock import utc_now
    from kenning.store.db import connect
    from kenning.sync.run import sync

    with tempfile.TemporaryDirectory() as tmp:
        project = _docs_project(Path(tmp) / "p", "enabled = false")
        sync(project, now=utc_now())  # lexical only
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        project = _docs_project(Path(tmp) / "q", "enabled = true")
        sync(project, now=utc_now())
        conn = connect(project.db_path)
        done = conn.execute("SELECT count(*) FROM dense_vectors").fetchone()[0]
        conn.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    out.write_text(
        json.dumps(
            {"peak_rss_mb": peak, "rss_before_embedding_mb": before, "vectors": done, "dense": dense.missing() is None}
        )
    )
    return 0


def _latency(n: int, queries: int) -> dict:
    import numpy as np

    from kenning.bench.speed import quantile
    from kenning.clock import iso, utc_now
    from kenning.config import init_project, load_project
    from kenning.dense import index as dense_index
    from kenning.dense import manifest as dense_manifest
    from kenning.search import hybrid, lexical
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions, filters_of
    from kenning.store import vectors
    from kenning.store.db import connect, transaction
    from kenning.sync.run import sync
    from speed import QUERIES, generate  # level 0's corpus and questions (bench/speed.py)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "big"
        generate(root, n // 25, n // 25)  # 2,000 Markdown + 2,000 Python files: about 50,000 excerpts
        project, _ = init_project(root, "big")
        with (project.state_dir / "config.toml").open("a", encoding="utf-8") as handle:
            handle.write("\n[dense]\nenabled = false\nmultilingual = false\n")
        project = load_project(root)
        sync(project, now=utc_now())
        size_before = project.db_path.stat().st_size
        embedder = dense_index.embedders(project)["minilm"]
        conn = connect(project.db_path)
        ids = [r[0] for r in conn.execute("SELECT id, content_hash FROM facts WHERE lifecycle = 'active'")]
        hashes = dict(conn.execute("SELECT id, content_hash FROM facts"))
        gen = np.random.default_rng(7)
        with transaction(conn):
            vectors.reset(conn, "minilm", dense_manifest.expected(embedder), created=iso(utc_now()))
            for start in range(0, len(ids), 5000):
                chunk = gen.standard_normal((len(ids[start : start + 5000]), embedder.dimension)).astype(np.float32)
                chunk /= np.linalg.norm(chunk, axis=1, keepdims=True)
                part = ids[start : start + 5000]
                vectors.put(conn, "minilm", zip(part, (hashes[i] for i in part), chunk, strict=True))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_after = project.db_path.stat().st_size
        started = time.perf_counter()
        hybrid.dense_ranking(conn, project, embedder, "warm up", 10)
        load_seconds = time.perf_counter() - started
        questions = [QUERIES[i % len(QUERIES)] for i in range(queries)]
        total, embed_only, lexical_only, dense_only, cpu = [], [], [], [], []
        now = utc_now()
        load_before = os.getloadavg()
        for q in questions:
            started = time.perf_counter()
            embedder.encode([q])
            embed_only.append(time.perf_counter() - started)
            started = time.perf_counter()
            lexical.ranking(conn, parse(q), filters_of(SearchOptions()), hybrid.FUSION.lexical_pool)
            lexical_only.append(time.perf_counter() - started)
            started = time.perf_counter()
            hybrid.dense_ranking(conn, project, embedder, q, hybrid.FUSION.dense_pool)
            dense_only.append(time.perf_counter() - started)
            started, cpu_started = time.perf_counter(), time.process_time()
            hybrid.search(conn, project, parse(q), SearchOptions(limit=10), now=now, embedder=embedder)
            total.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        conn.close()
    return {
        "excerpts": len(ids),
        "index_bytes": size_after - size_before,
        "bytes_per_excerpt": round((size_after - size_before) / len(ids)),
        "matrix_load_s": round(load_seconds, 2),
        "hybrid_ms_p50": round(quantile(total, 0.5) * 1000, 1),
        "hybrid_ms_p95": round(quantile(total, 0.95) * 1000, 1),
        # CPU time of the process (every thread) per hybrid query: what a machine shared with
        # other jobs cannot inflate the way it inflates wall time
        "hybrid_cpu_ms_p50": round(quantile(cpu, 0.5) * 1000, 1),
        "hybrid_cpu_ms_p95": round(quantile(cpu, 0.95) * 1000, 1),
        "load_average": [round(x, 1) for x in (*load_before[:1], *os.getloadavg()[:1])],
        "lexical_pool_ms_p50": round(quantile(lexical_only, 0.5) * 1000, 1),
        "lexical_pool_ms_p95": round(quantile(lexical_only, 0.95) * 1000, 1),
        "dense_ranking_ms_p50": round(quantile(dense_only, 0.5) * 1000, 1),
        "dense_ranking_ms_p95": round(quantile(dense_only, 0.95) * 1000, 1),
        "query_embedding_ms_p50": round(quantile(embed_only, 0.5) * 1000, 1),
        "query_embedding_ms_p95": round(quantile(embed_only, 0.95) * 1000, 1),
    }


def _sync_times() -> dict:
    from kenning.clock import utc_now
    from kenning.config import init_project, load_project
    from kenning.sync.run import sync

    found = {}
    for label, dense in (("lexical", "enabled = false"), ("with_dense", "enabled = true")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "kenning"
            shutil.copytree(REPO / "docs", root / "docs")  # the whole tree would take an hour to embed here
            project, _ = init_project(root, "kenning")
            with (project.state_dir / "config.toml").open("a", encoding="utf-8") as handle:
                handle.write(f"\n[dense]\n{dense}\n")
            started = time.perf_counter()
            report = sync(load_project(root), now=utc_now())
            found[label] = {
                "seconds": round(time.perf_counter() - started, 1),
                "excerpts": report.added,
                "dense": report.dense.get("embedders"),
            }
    return found


if __name__ == "__main__":
    sys.exit(main())
