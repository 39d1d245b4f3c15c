"""Level 2 against level 0, in one run: `kenning sync` throughput and search p95 on the same
generated project, SQLite vs PostgreSQL; optionally a PostgreSQL project loaded with a large
number of generated excerpts and its word-search p95.

    KENNING_DATABASE_URL=postgresql://… python bench/pg_speed.py [--files 2000] [--queries 200]
        [--load 1000000]

The project: ``--files`` Markdown files of 6 sections of 10 to 80 words drawn from a fixed
5,000-word vocabulary with Zipf frequencies (seeded), synced by ``kenning.sync.run.sync`` into a fresh SQLite file
and into a fresh project name of the given database (one transaction per 200 files there).
Queries: ``--queries`` natural questions of two words of middle frequency through ``search_project`` (the whole
search path: candidates, freshness, snippets; limit 10), p50/p95 in ms, and how many
questions give the same top-5 set on both engines.

``--load N``: N generated excerpts (same vocabulary, 60 words, no files) written by
``store.facts.insert_rows`` (COPY) in batches of 20,000 into another fresh project of the
same database, then the word candidates (``store.fts.words``, limit 50, the search's first
step) for ``--queries`` two-word OR expressions, p50/p95. Rows of earlier runs stay in the
database (other project names), as on a shared server.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from kenning.answer.search import search_project
from kenning.config import init_project, load_project
from kenning.search.serve import SearchOptions
from kenning.store import facts, fts
from kenning.store.db import open_store, transaction
from kenning.store.status import index_size
from kenning.sync.run import sync

NOW = datetime(2026, 11, 30, tzinfo=UTC)
VOCAB = [f"w{i:04d}" for i in range(5000)]
ZIPF = [1 / (i + 1) for i in range(5000)]  # word frequencies as in prose: a few common, most rare
WEIGHTS = (2.0, 1.5, 1.2, 1.0)


def write_files(root: Path, n: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for i in range(n):
        parts = [f"# {' '.join(rng.choices(VOCAB, ZIPF, k=3))}\n"]
        for _ in range(6):
            body = " ".join(rng.choices(VOCAB, ZIPF, k=rng.randint(10, 80)))
            parts.append(f"\n## {' '.join(rng.choices(VOCAB, ZIPF, k=3))}\n\n{body}.\n")
        path = root / "docs" / f"d{i // 100:02d}" / f"page{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(parts), encoding="utf-8")


def p(times: list[float], q: float) -> float:
    times = sorted(times)
    return round(times[max(0, int(len(times) * q) - 1)], 2)


def sync_and_search(project, questions: list[str]) -> tuple[dict[str, float], list[list[str]]]:
    start = time.perf_counter()
    report = sync(project, now=NOW)
    seconds = time.perf_counter() - start
    times, tops = [], []
    for question in questions:
        t = time.perf_counter()
        answer = search_project(project, question, SearchOptions(limit=10), now=NOW)
        times.append((time.perf_counter() - t) * 1000)
        tops.append(sorted(e.fact.source.uri for e in answer.excerpts[:5]))
    return {
        "sync_s": round(seconds, 2),
        "files_per_s": round(report.files_new / seconds),
        "excerpts_per_s": round(report.added / seconds),
        "search_p50_ms": p(times, 0.5),
        "search_p95_ms": p(times, 0.95),
    }, tops


def load(url: str, n: int, queries: list[str], name: str | None) -> dict[str, float]:
    rng = random.Random(13)
    project = init_project(Path(tempfile.mkdtemp()), name or f"load-{uuid.uuid4().hex[:8]}")[0]
    project = replace(project, config=replace(project.config, store=url))
    conn = open_store(project, create=True)
    try:
        start = time.perf_counter()
        present = index_size(conn).facts  # a named project loaded by an earlier run is queried again
        for first in range(present, n, 20_000):
            with transaction(conn):
                next_id = facts.next_id(conn)
                rows = []
                for k in range(min(20_000, n - first)):
                    title, body = " ".join(rng.choices(VOCAB, k=4)), " ".join(rng.choices(VOCAB, k=60))
                    uri = f"gen/{first + k}.md#s"
                    rows.append(
                        [next_id + k, "section", title, body, "", f"gen/{first + k}.md", "file", uri, "f", uri]
                        + [None, NOW.isoformat(), None, "projection", "[]", None, None, None, None, "{}", None]
                    )
                facts.insert_rows(conn, rows)
        load_s = time.perf_counter() - start
        if present < n:
            conn.execute("ANALYZE facts")
        times = []
        for q in queries:
            t = time.perf_counter()
            fts.words(conn, q, fts.Filters(), 50, WEIGHTS)
            times.append((time.perf_counter() - t) * 1000)
    finally:
        conn.close()
    return {
        "excerpts": n,
        "load_s": round(load_s, 1),
        "excerpts_per_s": round((n - present) / load_s) if present < n else None,
        "words_p50_ms": p(times, 0.5),
        "words_p95_ms": p(times, 0.95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--load", type=int, default=0)
    parser.add_argument("--load-name", help="the loaded project's name (kept: a second run only queries it)")
    args = parser.parse_args()
    url = os.environ.get("KENNING_DATABASE_URL")
    if not url:
        sys.exit("set KENNING_DATABASE_URL to a PostgreSQL database (`.ci/postgres.sh DIR` starts one)")
    rng = random.Random(11)
    questions = [" ".join(rng.choices(VOCAB[20:2000], k=2)) for _ in range(args.queries)]
    result: dict[str, object] = {"files": args.files, "queries": args.queries, "load_average": os.getloadavg()}
    if args.files:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "project"
            root.mkdir()
            write_files(root, args.files)
            made = init_project(root, f"bench-{uuid.uuid4().hex[:8]}")[0]
            with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as config:
                config.write("\n[dense]\nenabled = false\n")  # lexical on both engines
            made = load_project(root, {})
            local = replace(made, config=replace(made.config, store=None))  # the variable names the server
            result["sqlite"], tops_sqlite = sync_and_search(local, questions)
            server = replace(local, config=replace(local.config, store=url))
            result["postgresql"], tops_pg = sync_and_search(server, questions)
            result["same_top5_sets"] = sum(a == b for a, b in zip(tops_sqlite, tops_pg, strict=True))
    if args.load:
        loadq = [f'"{rng.choice(VOCAB)}" OR "{rng.choice(VOCAB)}"' for _ in range(args.queries)]
        result["postgresql_load"] = load(url, args.load, loadq, args.load_name)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
