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
step: ranked from the word postings, PostgreSQL migration 0008) for ``--queries`` two-word OR
expressions, p50/p95, and the same with the second word filtered to titles (``"a" OR
title:"b"``: scored in titles only, as FTS5's ``bm25()``), p50/p95. Rows of earlier runs
stay in the database (other project names), as on a shared server.

``--graph N``: a second generated project of N Python modules (``pkg/mNNNN.py``, three
functions each; each module imports and calls functions of three others, and calls its own),
synced into SQLite and into PostgreSQL, then ``--queries`` path queries between two random
functions through ``answer.graph.run_query`` (the whole `kenning graph path` answer: look-ups,
the walk up to 6 hops, freshness, excerpts), p50/p95 per engine, and how many answers give the
same path on both.

``--reuse N``: what a long-lived server (``kenning mcp --http``, ``kenning serve``) pays per
request to reuse the PostgreSQL session it keeps (``interfaces.serve.Connections``, which
checks a kept session before handing it out), on a project of 20 files synced to the server:
N hand-outs alone, then N requests reading one excerpt (``facts.get_many``, a ``memory_get``'s
read), then min(N, 300) questions (``serve.ask_kept``, what ``memory_ask`` and the cockpit's
Ask run: two words of the project's vocabulary), each timed, p50/p95 in µs. ``--files 0
--reuse N`` runs only this.

``--noop N``: a no-op ``kenning sync`` (lexical, ``embed=False``) of a project of N one-line
Markdown files on the server, its manifest written straight from the discovery (no excerpts:
what a sync reads and checks when nothing changed, at N indexed paths), after one warm-up sync;
``--queries`` of them at most 9, each timed, their seconds. ``--noop-sqlite``: the same project
on SQLite (no server needed). ``--noop-tree PATH`` (or ``django``: Django 5.0.6's sdist, pip
download, cached): a copy of that tree instead of N generated files. ``--against SRC`` (a
``src/`` exported from another commit: ``git archive <commit> src | tar -x -C DIR``): the
no-op syncs run in child processes (``_product_sync.py --noop-child``, the sync alone timed),
``--rounds`` rounds of 5 syncs with SRC and 5 with this tree, the first of each round's pair
alternating; min / median / max of each side.

    python bench/pg_speed.py --files 0 --noop 60000 --noop-sqlite --against /tmp/base/src
    python bench/pg_speed.py --files 0 --noop-tree django --noop-sqlite --against /tmp/base/src
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from _common import DJANGO, SDIST_CACHE, fetch_sdist
from _product_sync import noop_syncs
from kenning.answer.graph import GraphOptions, run_query
from kenning.answer.search import search_project
from kenning.config import init_project, load_project
from kenning.ingest.discover import discover
from kenning.interfaces.serve import Connections, ask_kept
from kenning.search.serve import SearchOptions
from kenning.store import facts, fts, sources
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
            conn.execute("ANALYZE word_postings")
        times, filtered = [], []
        for q in queries:
            t = time.perf_counter()
            fts.words(conn, q, fts.Filters(), 50, WEIGHTS)
            times.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()  # the second word filtered to titles: scored in titles only
            fts.words(conn, q.replace(' OR "', ' OR title:"'), fts.Filters(), 50, WEIGHTS)
            filtered.append((time.perf_counter() - t) * 1000)
    finally:
        conn.close()
    return {
        "excerpts": n,
        "load_s": round(load_s, 1),
        "excerpts_per_s": round((n - present) / load_s) if present < n else None,
        "words_p50_ms": p(times, 0.5),
        "words_p95_ms": p(times, 0.95),
        "words_title_filtered_p50_ms": p(filtered, 0.5),
        "words_title_filtered_p95_ms": p(filtered, 0.95),
    }


def write_code(root: Path, n: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for i in range(n):
        others = [j for j in rng.sample(range(n), k=min(4, n)) if j != i][:3]
        lines = [f'"""Module {i}."""', ""]
        lines += [f"from pkg.m{j:04d} import f{j:04d}_{j % 3}" for j in others]
        for k in range(3):
            lines += ["", "", f"def f{i:04d}_{k}(x):"]
            lines += [f"    x = f{j:04d}_{j % 3}(x)" for j in others if (i + j + k) % 3 == 0]
            lines += [f"    return f{i:04d}_{k + 1}(x)" if k < 2 else "    return x"]
        path = root / "pkg" / f"m{i:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")


def graph_paths(project, pairs: list[tuple[str, str]]) -> tuple[dict[str, object], list[list[str]]]:
    start = time.perf_counter()
    report = sync(project, now=NOW)
    seconds = time.perf_counter() - start
    conn = open_store(project)
    times, paths = [], []
    try:
        for a, b in pairs:
            t = time.perf_counter()
            answer = run_query(conn, project, "path", a, GraphOptions(), now=NOW, other=b)
            times.append((time.perf_counter() - t) * 1000)
            paths.append([e.fact.source.uri for e in answer.excerpts])
    finally:
        conn.close()
    found = [x for x in paths if x]
    return {
        "sync_s": round(seconds, 2),
        "nodes": report.graph.get("nodes"),
        "edges": report.graph.get("edges"),
        "batches": report.batches,
        "paths_found": len(found),
        "mean_path_nodes": round(sum(map(len, found)) / len(found), 1) if found else None,
        "path_p50_ms": p(times, 0.5),
        "path_p95_ms": p(times, 0.95),
    }, paths


def graph_bench(url: str, n: int, queries: int) -> dict[str, object]:
    rng = random.Random(17)
    pairs = [(f"f{rng.randrange(n):04d}_0", f"f{rng.randrange(n):04d}_2") for _ in range(queries)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "code"
        root.mkdir()
        write_code(root, n)
        init_project(root, f"graph-{uuid.uuid4().hex[:8]}")
        with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as config:
            config.write("\n[dense]\nenabled = false\n")
        local = load_project(root, {})
        local = replace(local, config=replace(local.config, store=None))
        out: dict[str, object] = {"modules": n, "queries": queries}
        out["sqlite"], on_sqlite = graph_paths(local, pairs)
        out["postgresql"], on_pg = graph_paths(replace(local, config=replace(local.config, store=url)), pairs)
        out["same_paths"] = sum(a == b for a, b in zip(on_sqlite, on_pg, strict=True))
        out["same_path_lengths"] = sum(len(a) == len(b) for a, b in zip(on_sqlite, on_pg, strict=True))
    return out


def reuse_bench(url: str, n: int) -> dict[str, float]:
    """``--reuse N`` (see the module doc)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        write_files(root, 20)
        init_project(root, f"reuse-{uuid.uuid4().hex[:8]}")
        with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as config:
            config.write("\n[dense]\nenabled = false\n")
        made = load_project(root, {})
        project = replace(made, config=replace(made.config, store=url))
        sync(project, now=NOW)
        connections = Connections(project)
        try:
            with connections.conn() as conn:
                ids = [r["id"] for r in conn.rows("SELECT id FROM facts WHERE project = %s", (project.name,))]
            handout, read = [], []
            for _ in range(n):
                start = time.perf_counter()
                with connections.conn():
                    pass
                handout.append((time.perf_counter() - start) * 1e6)
            for i in range(n):
                start = time.perf_counter()
                with connections.conn() as conn:
                    facts.get_many(conn, project.name, [ids[i % len(ids)]])
                read.append((time.perf_counter() - start) * 1e6)
            rng = random.Random(3)
            asked = []
            for _ in range(min(n, 300)):
                question = " ".join(rng.choices(VOCAB[20:400], k=2))
                start = time.perf_counter()
                ask_kept(connections, question, now=NOW)
                asked.append((time.perf_counter() - start) * 1e6)
        finally:
            connections.close()
    return {
        "requests": n,
        "handout_p50_us": p(handout, 0.5),
        "handout_p95_us": p(handout, 0.95),
        "read_one_p50_us": p(read, 0.5),
        "read_one_p95_us": p(read, 0.95),
        "ask_p50_us": p(asked, 0.5),
        "ask_p95_us": p(asked, 0.95),
    }


def noop_bench(url: str | None, n: int, reps: int, tree: Path | None, against: Path | None, rounds: int) -> dict:
    """``--noop N`` (see the module doc); ``url`` None: SQLite."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        if tree is not None:
            shutil.copytree(tree, root, symlinks=True)
        for i in range(n if tree is None else 0):
            path = root / "docs" / f"d{i // 1000:03d}" / f"p{i:05d}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# Page {i}\n", encoding="utf-8")
        init_project(root, f"noop-{uuid.uuid4().hex[:8]}")
        with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as config:
            config.write("\n[dense]\nenabled = false\n")
        made = load_project(root, {})
        project = replace(made, config=replace(made.config, store=url))
        conn = open_store(project, create=True)
        try:
            rows = [
                sources.IndexedFile(c.path, c.size, c.mtime_ns, "0" * 64, c.parser, NOW.isoformat(), 1)
                for c in discover(project).candidates
            ]
            with transaction(conn):
                sources.put_manifest(conn, rows)
        finally:
            conn.close()
        sync(project, now=NOW, embed=False)  # the first: records its run
        if against is not None:
            return {"paths": len(rows), **_noop_interleaved(root, url, against, rounds)}
        seconds = []
        for _ in range(min(reps, 9)):
            start = time.perf_counter()
            report = sync(project, now=NOW, embed=False)
            seconds.append(round(time.perf_counter() - start, 3))
            assert report.files_unchanged == len(rows) and not report.files_new, report.to_json()
    return {"paths": len(rows), "seconds": seconds, "median_s": sorted(seconds)[len(seconds) // 2]}


def _noop_interleaved(root: Path, url: str | None, against: Path, rounds: int) -> dict[str, dict[str, float]]:
    """``--against``: no-op syncs of ``root`` in child processes, SRC's and this tree's in turn."""
    env = {k: v for k, v in os.environ.items() if k not in ("KENNING_DATABASE_URL", "PYTHONPATH")}
    if url:
        env["KENNING_DATABASE_URL"] = url
    sides: dict[str, list[float]] = {"against": [], "this tree": []}
    for r in range(rounds):
        order = [("against", against), ("this tree", None)]
        for side, src in order if r % 2 == 0 else order[::-1]:
            sides[side] += noop_syncs(root, 5, src, env)
    return {
        side: {"runs": len(t), "min_s": min(t), "median_s": statistics.median(t), "max_s": max(t)}
        for side, t in sides.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--load", type=int, default=0)
    parser.add_argument("--load-name", help="the loaded project's name (kept: a second run only queries it)")
    parser.add_argument("--graph", type=int, default=0, help="Python modules of the graph project (0: none)")
    parser.add_argument("--noop", type=int, default=0, help="files of the no-op sync project (0: none)")
    parser.add_argument("--noop-sqlite", action="store_true", help="the no-op sync project on SQLite")
    parser.add_argument("--noop-tree", help="a tree to copy for the no-op sync project (django: Django 5.0.6)")
    parser.add_argument("--against", type=Path, help="a src/ exported from another commit: no-op syncs interleaved")
    parser.add_argument("--rounds", type=int, default=4, help="--against: rounds of 5 no-op syncs per side")
    parser.add_argument("--reuse", type=int, default=0, help="requests on a long-lived server's kept session (0: none)")
    args = parser.parse_args()
    url = os.environ.get("KENNING_DATABASE_URL")
    if not url and (args.files or args.load or args.graph or args.reuse or (args.noop and not args.noop_sqlite)):
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
    if args.graph:
        result["graph"] = graph_bench(url, args.graph, args.queries)
    if args.noop or args.noop_tree:
        tree = None if not args.noop_tree else Path(args.noop_tree)
        if args.noop_tree == "django":
            tree = fetch_sdist(*DJANGO, SDIST_CACHE)
        noop_url = None if args.noop_sqlite else url
        result["noop"] = noop_bench(noop_url, args.noop, args.queries, tree, args.against, args.rounds)
    if args.reuse:
        result["reuse"] = reuse_bench(url, args.reuse)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
