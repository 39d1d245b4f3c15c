"""Level 2 against level 0 on the same generated corpus, in one run: fact-write throughput and
word-search p95, SQLite vs PostgreSQL.

    KENNING_DATABASE_URL=postgresql://… python bench/pg_speed.py [--facts 20000] [--queries 200]

The corpus: ``--facts`` excerpts of 60 words drawn from a fixed 5,000-word vocabulary (seeded),
written through ``kenning.store.facts.insert`` in one transaction on each engine (the sync
itself does not run on PostgreSQL yet: this is the write path it will use, not `kenning
sync`). Queries: ``--queries`` two-word OR expressions through ``kenning.store.fts.words``
(limit 10), p50/p95 in ms. SQLite: a fresh file store; PostgreSQL: a fresh project name in the
given database (rows of earlier runs stay, filtered out by the project column).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from kenning.store import facts, fts
from kenning.store.db import connect, transaction
from kenning.store.postgres.connection import connect as pg_connect

WEIGHTS = (2.0, 1.5, 1.2, 1.0)


def corpus(n: int, seed: int = 7) -> list[facts.NewFact]:
    rng = random.Random(seed)
    vocab = [f"w{i:04d}" for i in range(5000)]
    return [
        facts.NewFact(
            type="section",
            title=" ".join(rng.choices(vocab, k=4)),
            body=" ".join(rng.choices(vocab, k=60)),
            source_kind="file",
            source_uri=f"doc{i}.md:1-9",
            producer="projection",
            date_indexed="2026-11-30T00:00:00Z",
            path=f"doc{i}.md",
        )
        for i in range(n)
    ]


def measure(conn, rows: list[facts.NewFact], queries: list[str]) -> dict[str, float]:
    start = time.perf_counter()
    with transaction(conn):
        for fact in rows:
            facts.insert(conn, fact)
    write_s = time.perf_counter() - start
    times = []
    for q in queries:
        t = time.perf_counter()
        fts.words(conn, q, fts.Filters(), 10, WEIGHTS)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return {
        "facts_per_s": round(len(rows) / write_s),
        "write_s": round(write_s, 2),
        "query_p50_ms": round(statistics.median(times), 2),
        "query_p95_ms": round(times[int(len(times) * 0.95) - 1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    url = os.environ.get("KENNING_DATABASE_URL")
    if not url:
        sys.exit("set KENNING_DATABASE_URL to a PostgreSQL database (`.ci/postgres.sh DIR` starts one)")
    rows = corpus(args.facts)
    rng = random.Random(11)
    queries = [f'"w{rng.randrange(5000):04d}" OR "w{rng.randrange(5000):04d}"' for _ in range(args.queries)]
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = connect(Path(tmp) / "kenning.db", create=True)
        try:
            result = {"sqlite": measure(sqlite, rows, queries)}
        finally:
            sqlite.close()
    pg = pg_connect(url, f"bench-{uuid.uuid4().hex[:8]}")
    try:
        result["postgresql"] = measure(pg, rows, queries)
    finally:
        pg.close()
    print(json.dumps({"facts": args.facts, "queries": args.queries, **result}, indent=2))


if __name__ == "__main__":
    main()
