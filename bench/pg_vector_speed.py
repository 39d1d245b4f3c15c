"""Dense search on PostgreSQL: the exact scan against pgvector's HNSW index, in one run, on
generated vectors (the server must have pgvector: see docs/postgresql.md, `.ci/pgvector.sh`).

    KENNING_DATABASE_URL=postgresql://… python bench/pg_vector_speed.py [--vectors 5000]
        [--other 20000] [--queries 100] [--k 10]

``--vectors`` facts of a fresh project, each with a 384-dimension vector (the MiniLM index)
drawn around one of 50 seeded centres (as text embeddings cluster by topic), L2-normalised;
``--other`` more facts and vectors of another fresh project in the same database, ahead of the
first in the same index. ``--queries`` question vectors near a random centre, each answered
three ways, interleaved:

* exact, cold: ``store.vectors.load`` (every current vector of the project) and the product,
  what a one-shot `kenning ask` does (``dense/index.py`` keeps the matrix per process);
* exact, warm: the product over the matrix already loaded (a long-lived server's case);
* HNSW: ``store.vectors.candidates`` (the index's 100 nearest of the project,
  ``hnsw.ef_search`` 100, iterative scan) and the product over those rows.

Per way: p50/p95 wall ms, and the client's and the server backend's CPU ms per query
(``/proc/<pid>/stat`` of the backend: server and client on one machine). Then HNSW's recall@k
against the exact top ``k`` and the largest score difference between the two on the same fact.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from kenning.config import init_project  # noqa: E402
from kenning.dense.index import top  # noqa: E402
from kenning.store import facts, vectors  # noqa: E402
from kenning.store.db import open_store, scratch_name, transaction  # noqa: E402

NOW = datetime(2026, 12, 1, tzinfo=UTC)
DIMENSION = 384
EMBEDDER = "minilm"
DESCRIBED = {"model_id": "bench", "weights_sha256": "0", "dimension": DIMENSION, "pooling": "mean", "fingerprint": "b"}


def _ticks() -> float:
    return os.sysconf("SC_CLK_TCK")


def server_cpu_ms(pid: int) -> float:
    """User + system CPU of the server backend ``pid`` so far, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / _ticks()


def project_with_vectors(stack: ExitStack, url: str, n: int, centres: np.ndarray, rng: np.random.Generator):
    """A throwaway project on the server (``store.db.scratch_name``: its rows deleted on exit)
    holding ``n`` facts and their vectors."""
    project = init_project(Path(tempfile.mkdtemp()), "bench-vectors")[0]
    project = replace(project, config=replace(project.config, store=url))
    name = stack.enter_context(scratch_name(project))
    conn = open_store(replace(project, config=replace(project.config, name=name)), create=True)
    stack.callback(conn.close)
    vectors.reset(conn, EMBEDDER, DESCRIBED, created=NOW.isoformat())
    for first in range(0, n, 2000):
        count = min(2000, n - first)
        picked = centres[rng.integers(0, len(centres), count)]
        batch = picked + rng.normal(scale=0.06, size=picked.shape).astype(np.float32)
        batch /= np.linalg.norm(batch, axis=1, keepdims=True)
        with transaction(conn):
            next_id = facts.next_id(conn)
            rows = []
            for k in range(count):
                uri = f"gen/{first + k}.md#s"
                rows.append(  # store.facts.ROW_COLUMNS
                    [next_id + k, "section", f"note {first + k}", "text", "", f"gen/{first + k}.md", "file", uri, "f"]
                    + [f"h{first + k}", None, NOW.isoformat(), None, "projection", "[]", None, None, None, None, "{}"]
                    + [None]
                )
            facts.insert_rows(conn, rows)
            vectors.put(conn, EMBEDDER, [(next_id + k, f"h{first + k}", batch[k]) for k in range(count)])
    return conn


def p(values: list[float], q: float) -> float:
    return round(float(np.quantile(values, q)), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vectors", type=int, default=5000)
    parser.add_argument("--other", type=int, default=20000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    url = os.environ.get("KENNING_DATABASE_URL")
    if not url:
        sys.exit("set KENNING_DATABASE_URL to a PostgreSQL server with pgvector")
    rng = np.random.default_rng(11)
    centres = rng.normal(size=(50, DIMENSION)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    with ExitStack() as stack:
        report = run(stack, url, args, centres, rng)
    print(json.dumps(report, indent=2))


def run(stack: ExitStack, url: str, args: argparse.Namespace, centres: np.ndarray, rng: np.random.Generator) -> dict:
    started = time.perf_counter()
    if args.other:
        project_with_vectors(stack, url, args.other, centres, rng)
    conn = project_with_vectors(stack, url, args.vectors, centres, rng)
    load_s = time.perf_counter() - started
    conn.execute("ANALYZE dense_vectors")
    conn.execute("ANALYZE facts")
    if not vectors.approximate(conn, EMBEDDER, DIMENSION):
        sys.exit("this server has no HNSW index for the vectors: pgvector was not created (docs/postgresql.md)")
    backend = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
    queries = centres[rng.integers(0, len(centres), args.queries)]
    queries = queries + rng.normal(scale=0.06, size=queries.shape).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    ids, matrix = vectors.load(conn, EMBEDDER, DIMENSION)
    ways = ("exact_cold", "exact_warm", "hnsw")
    wall: dict[str, list[float]] = {w: [] for w in ways}
    client: dict[str, list[float]] = {w: [] for w in ways}
    server: dict[str, list[float]] = {w: [] for w in ways}
    hits, max_delta, same_scores = 0, 0.0, 0
    for q in queries:
        found: dict[str, list[tuple[int, float]]] = {}
        for way in ways:
            t, c, s = time.perf_counter(), time.process_time(), server_cpu_ms(backend)
            if way == "exact_cold":
                all_ids, all_matrix = vectors.load(conn, EMBEDDER, DIMENSION)
                found[way] = top(all_ids, all_matrix @ q, args.k)
            elif way == "exact_warm":
                found[way] = top(ids, matrix @ q, args.k)
            else:
                some_ids, some = vectors.candidates(conn, EMBEDDER, DIMENSION, q, args.k)
                found[way] = top(some_ids, some @ q, args.k)
            wall[way].append((time.perf_counter() - t) * 1000)
            client[way].append((time.process_time() - c) * 1000)
            server[way].append(server_cpu_ms(backend) - s)
        exact = dict(found["exact_warm"])
        hits += len(exact.keys() & {i for i, _ in found["hnsw"]})
        deltas = [abs(score - exact[i]) for i, score in found["hnsw"] if i in exact]
        max_delta = max([max_delta, *deltas])
        same_scores += found["hnsw"] == found["exact_warm"]
    report = {
        "vectors": args.vectors,
        "other_project_vectors": args.other,
        "queries": args.queries,
        "k": args.k,
        "load_s": round(load_s, 1),
        **{
            f"{way}_{what}": value
            for way in ways
            for what, value in (
                ("p50_ms", p(wall[way], 0.5)),
                ("p95_ms", p(wall[way], 0.95)),
                ("client_cpu_ms_per_query", round(sum(client[way]) / len(queries), 2)),
                ("server_cpu_ms_per_query", round(sum(server[way]) / len(queries), 2)),
            )
        },
        "hnsw_recall_at_k": round(hits / (args.k * len(queries)), 4),
        "hnsw_same_ids_and_scores": f"{same_scores}/{len(queries)}",
        "hnsw_max_score_difference": float(f"{max_delta:.3g}"),
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }
    return report


if __name__ == "__main__":
    main()
