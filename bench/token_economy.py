"""Token economy of the memory layers (issue 3). A script, not a test: it prints figures.

Builds a throwaway project with a few hundred synthetic observations, then, through the real
MCP server (the SDK's in-memory client session), measures:

- tokens per row (characters ÷ 4) of each layer: memory_index rows, memory_search hits,
  memory_get records (a typical observation), plus each reply's fixed overhead;
- the tokens an agent spends answering a question through index → context → one detail
  (mem_search guided, three calls) versus fetching the full records of the top 10;
- with --latency: p50/p95 of one MCP tool call over stdio (`kenning mcp` as a subprocess)
  on a store of --facts facts (default 50,000), after start-up.

Usage: .venv/bin/python bench/token_economy.py [--observations 300] [--latency] [--facts 50000]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from kenning.bench.speed import quantile
from kenning.config import init_project
from kenning.interfaces.mcp.server import build_server
from kenning.interfaces.render import DATA_FRAME
from kenning.memory.observations import Observation, save
from kenning.store.db import connect
from kenning.tokens import estimate

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
COMPONENTS = [
    "webhook retries",
    "release pipeline",
    "auth token refresh",
    "cache invalidation",
    "schema migration",
    "incremental sync",
    "search ranking",
    "backup rotation",
    "rate limiter",
    "session store",
    "payment reconciliation",
    "feature flags",
    "log shipping",
    "queue consumer",
    "image resizer",
]
VERBS = [
    "fails when",
    "slows down when",
    "needs a restart after",
    "must be checked before",
    "breaks if",
    "was fixed by",
    "depends on",
    "should never run during",
    "is safe only after",
    "was redesigned around",
]
CAUSES = [
    "the upstream times out",
    "two workers race on the same row",
    "the config file is missing",
    "the clock skews by a few seconds",
    "a deploy overlaps a nightly job",
    "the disk fills up",
    "the token expires mid-request",
    "the index is rebuilt",
    "a retry storm starts",
    "the cache is cold",
]
DETAILS = [
    "We saw it in production twice this month.",
    "The fix is a guard in the handler and a test.",
    "Keep the timeout at thirty seconds; lower values caused false alarms.",
    "The on-call runbook has the exact commands.",
    "Metrics show the error rate drop to zero afterwards.",
    "Do not remove the lock: it looks redundant but prevents double processing.",
    "The root cause was a missing index on the lookup column.",
    "This was confirmed by replaying the traffic capture locally.",
    "The first attempt added a retry around the call, which only hid the problem for a week.",
    "Reproducing it needs a staging stack with production-like data volumes and the nightly jobs enabled.",
    "The alert fired at 03:12 and the queue depth reached forty thousand messages before draining.",
    "We added a dashboard panel that tracks the lag per partition so the next regression is visible.",
    "Rolling back the previous release did not help, which ruled out the new serializer.",
    "The vendor confirmed the behaviour is documented but only in the changelog of version 4.2.",
    "A unit test now covers the empty-payload case that triggered the original crash.",
    "Two teams own parts of this path; the owners file lists who to page for each part.",
]


def observation(rng: random.Random, n: int) -> Observation:
    comp, verb, cause = rng.choice(COMPONENTS), rng.choice(VERBS), rng.choice(CAUSES)
    body = f"The {comp} {verb} {cause}. " + " ".join(rng.sample(DETAILS, rng.randint(10, 16))) + f" (case {n})"
    return Observation(
        text=body,
        title=f"{comp.capitalize()} {verb} {cause}"[:70],
        tags=(comp.split()[0], "ops"),
        importance=rng.randint(3, 9),
        why=rng.choice(DETAILS) if n % 2 else None,
        how_to_apply="Check this before touching the " + comp + "." if n % 3 == 0 else None,
        memory_type=rng.choice(["durable", "working"]),
    )


def build(root: Path, count: int, name: str = "bench") -> object:
    root.mkdir(parents=True)
    project, _ = init_project(root, name)
    conn = connect(project.db_path, create=True)
    rng = random.Random(42)
    for n in range(count):
        save(conn, project.name, observation(rng, n), now=NOW - timedelta(hours=count - n))
    conn.close()
    return project


def body_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[1:] if lines and lines[0] == DATA_FRAME else lines


async def measure(project: object, questions: list[str]) -> dict[str, list[float]]:
    server = build_server(project, clock=lambda: NOW)
    figures: dict[str, list[float]] = {
        k: []
        for k in (
            "index_row",
            "index_overhead",
            "search_hit",
            "search_overhead",
            "get_record",
            "guided",
            "guided_depth2",
            "auto",
            "get_full",
            "top10_get",
        )
    }
    async with create_connected_server_and_client_session(server._mcp_server) as client:

        async def call(name: str, **args: object) -> tuple[str, object]:
            result = await client.call_tool(name, args)
            assert not result.isError, result.content[0].text
            return result.content[0].text, result.structuredContent

        for question in questions:
            text, data = await call("memory_index", query=question, limit=10)
            rows = [line for line in body_lines(text) if line.startswith("kn://")]
            figures["index_row"].append(statistics.mean(estimate(r) + 0.25 for r in rows))  # + newline
            figures["index_overhead"].append(estimate(text) - sum(estimate(r) for r in rows))
            text, _ = await call("memory_search", query=" OR ".join(re.findall(r"\w{4,}", question)), limit=10)
            listed = [line for line in body_lines(text)[1:] if not line.startswith(("note: ", "hidden: "))]
            hits = re.split(r"\n(?=kn://)", "\n".join(listed))
            figures["search_hit"].append(statistics.mean(estimate(h) for h in hits))
            figures["search_overhead"].append(estimate(text) - sum(estimate(h) for h in hits))
            top = [e["id"] for e in data["excerpts"]]
            text, _ = await call("memory_get", ids=top[:1])
            figures["get_record"].append(estimate(text) - estimate(DATA_FRAME))
            # index → context → one detail, the guided way
            step1, s1 = await call("mem_search", query=question, limit=10)
            token = re.search(r"^Continue with: (\S+)$", step1, re.M).group(1)
            step2, s2 = await call("mem_search", continuation=token, selectedIds=[str(top[0])])
            token2 = re.search(r"^Continue with: (\S+)$", step2, re.M).group(1)
            step3, _ = await call("mem_search", continuation=token2, selectedIds=[str(top[0])])
            figures["guided"].append(sum(estimate(t) for t in (step1, step2, step3)))
            step1, _ = await call("mem_search", query=question, limit=10, depthBefore=2, depthAfter=2)
            token = re.search(r"^Continue with: (\S+)$", step1, re.M).group(1)
            step2, _ = await call("mem_search", continuation=token, selectedIds=[str(top[0])])
            token2 = re.search(r"^Continue with: (\S+)$", step2, re.M).group(1)
            step3, _ = await call("mem_search", continuation=token2, selectedIds=[str(top[0])])
            figures["guided_depth2"].append(sum(estimate(t) for t in (step1, step2, step3)))
            auto, _ = await call("mem_search", query=question, mode="auto", limit=10, maxDetails=1)
            figures["auto"].append(estimate(auto))
            full, _ = await call("memory_get", ids=top[:10], full=True)
            figures["top10_get"].append(estimate(full))
            figures["get_full"].append(statistics.mean(estimate(b) for b in full.split("\n\n")))
    return figures


async def stdio_latency(project_root: Path, calls: int) -> tuple[list[float], list[float]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    kenning = str(Path(sys.executable).with_name("kenning"))
    params = StdioServerParameters(command=kenning, args=["mcp", "--project", str(project_root)], env=dict(os.environ))
    timings = []
    rng = random.Random(7)
    words = vocabulary()[200:5000]  # mid-frequency terms, as people type
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("memory_index", {"query": "warm up"})
        for _ in range(calls):
            question = " ".join(rng.sample(words, 3))
            start = time.perf_counter()
            result = await session.call_tool("memory_index", {"query": question, "limit": 10})
            timings.append((time.perf_counter() - start) * 1000)
            assert not result.isError
        floor = []  # the same transport with almost no work: one record by id
        for n in range(calls):
            start = time.perf_counter()
            await session.call_tool("memory_get", {"ids": [1 + n % 1000]})
            floor.append((time.perf_counter() - start) * 1000)
    return timings, floor


def vocabulary(size: int = 30_000) -> list[str]:
    """Pseudo-words: a latency store needs a realistic spread of term frequencies (the
    token-economy corpus above repeats a few phrases, so each of its terms matches a large
    share of the store, which no real corpus does)."""
    rng = random.Random(5)
    consonants, vowels = "bcdfghklmnprstvz", "aeiou"
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(rng.randint(2, 4))))
    return sorted(words)


_CUMULATIVE: list[float] = []


def zipf_text(rng: random.Random, words: list[str], count: int) -> str:
    if len(_CUMULATIVE) != len(words):
        _CUMULATIVE[:] = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))
    return " ".join(rng.choices(words, cum_weights=_CUMULATIVE, k=count))


def bulk(project: object, facts: int) -> float:
    """Insert ``facts`` observations (Zipf-distributed pseudo-words) in one transaction."""
    from kenning.ingest.identifiers import keywords_for
    from kenning.store import facts as fact_store
    from kenning.store.db import transaction

    rng = random.Random(1)
    words = vocabulary()
    conn = connect(project.db_path, create=True)
    start = time.perf_counter()
    with transaction(conn):
        for n in range(facts):
            obs = Observation(
                text=zipf_text(rng, words, rng.randint(60, 180)) + f" (case {n})",
                title=zipf_text(rng, words, 6),
                tags=(rng.choice(words),),
                importance=rng.randint(1, 10),
                memory_type=rng.choice(["durable", "working"]),
            )
            stamp = (NOW - timedelta(minutes=facts - n)).strftime("%Y-%m-%dT%H:%M:%SZ")
            fact_store.insert(
                conn,
                fact_store.NewFact(
                    type="observation",
                    title=obs.title,
                    body=obs.text,
                    source_kind="manual",
                    source_uri="manual:bench",
                    producer="agent",
                    date_indexed=stamp,
                    date_source=stamp,
                    date_confirmed=stamp,
                    keywords=keywords_for(obs.title),
                    tags=obs.tags,
                    importance=obs.importance,
                    memory_type=obs.memory_type,
                ),
            )
    conn.close()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=300)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--latency", action="store_true", help="also time MCP calls over stdio on a big store")
    parser.add_argument("--facts", type=int, default=50_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--store", type=Path, default=None, help="latency: reuse (or create once) the big project at this directory"
    )
    args = parser.parse_args()
    rng = random.Random(3)
    questions = [
        f"{rng.choice(COMPONENTS)} {rng.choice(VERBS).split()[0]} {rng.choice(CAUSES).split()[-1]}"
        for _ in range(args.questions)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        project = build(Path(tmp) / "bench", args.observations)
        figures = anyio.run(measure, project, questions)
        mean = {k: statistics.mean(v) for k, v in figures.items() if v}
        print(
            f"kenning token economy · {args.observations} observations · {len(questions)} questions · "
            f"tokens = characters / 4"
        )
        print(f"machine: {platform.platform()} · Python {platform.python_version()} · {os.cpu_count()} CPU(s)")
        print()
        print("| layer | tokens per row | fixed overhead per reply |")
        print("|---|---:|---:|")
        print(f"| memory_index (row) | {mean['index_row']:.1f} | {mean['index_overhead']:.0f} |")
        print(f"| memory_search (hit) | {mean['search_hit']:.1f} | {mean['search_overhead']:.0f} |")
        print(
            f"| memory_get (record, body cut at 520 characters) | {mean['get_record']:.1f} | {estimate(DATA_FRAME)} |"
        )
        print(f"| memory_get full=true (record, whole body) | {mean['get_full']:.1f} | {estimate(DATA_FRAME)} |")
        print()
        print("| answering one question | tokens (mean) |")
        print("|---|---:|")
        print(f"| mem_search guided: index(10) → context(1 anchor, depth 1) → 1 detail | {mean['guided']:.0f} |")
        print(f"| same, depthBefore=depthAfter=2 | {mean['guided_depth2']:.0f} |")
        print(f"| mem_search auto, maxDetails=1 | {mean['auto']:.0f} |")
        print(f"| memory_get of the top 10, full | {mean['top10_get']:.0f} |")
        print(f"| ratio top-10 full / guided | {mean['top10_get'] / mean['guided']:.1f}x |")
        print(f"| ratio top-10 full / guided, depth 2 | {mean['top10_get'] / mean['guided_depth2']:.1f}x |")
        print(f"| ratio top-10 full / auto | {mean['top10_get'] / mean['auto']:.1f}x |")
        if args.latency:
            big = args.store or Path(tmp) / "big"
            seconds = 0.0
            if not (big / ".kenning" / "kenning.db").exists():
                big.mkdir(parents=True, exist_ok=True)
                project_big, _ = init_project(big, "big")
                seconds = bulk(project_big, args.facts)
            timings, floor = anyio.run(stdio_latency, big, args.calls)
            print()
            print(
                f"| MCP call over stdio, {args.facts}-fact store{f' (built in {seconds:.0f} s)' if seconds else ''}, "
                f"{args.calls} calls each | p50 | p95 |"
            )
            print("|---|---:|---:|")
            for label, values in (
                ("memory_index(query of 3 terms, limit=10)", timings),
                ("memory_get(one id): transport floor", floor),
            ):
                print(f"| {label} | {quantile(values, 0.5):.1f} ms | {quantile(values, 0.95):.1f} ms |")


if __name__ == "__main__":
    main()
