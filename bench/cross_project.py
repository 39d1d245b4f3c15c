"""Cross-project speed: one question over 20 registered projects of 5,000 excerpts each.

Run: .venv/bin/python bench/cross_project.py [--projects 20] [--files 500] [--queries 200]
Generates the projects in a temporary KENNING_HOME (each file: a heading and nine Markdown sections, so
500 files give 5,000 excerpts), syncs and registers them, plus one confidential project (read
by nothing), then times in process, question by question:
- `search_all` (`kenning search --all-projects`): open 20 stores read-only, search each,
  fuse by RRF, limit 10 — once opening the stores for each question (the CLI), once with the
  stores kept open between questions (``StorePool``: the MCP server and the cockpit);
- `ask_all` (`kenning ask --all-projects`): the same through each project's router;
- `ask_all` with a dated decision question ("what did I decide about X since September").
Prints figures; asserts nothing (speed is measured here, never in unit tests).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)
from kenning import registry
from kenning.across.answers import ask_all, search_all
from kenning.across.stores import OneShot, StorePool
from kenning.answer.search import SearchOptions
from kenning.bench.speed import quantile
from kenning.clock import utc_now
from kenning.config import init_project, load_project
from kenning.sync.run import sync

SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "nu",
    "pe",
    "ra",
    "si",
    "tu",
    "vo",
    "ze",
    "bar",
    "del",
    "fin",
    "gor",
    "hul",
    "jex",
    "kim",
    "lum",
    "mor",
    "nix",
]
# 8,000 made-up words (two or three syllables), drawn with Zipf's law (s = 1.07) as in natural
# text: a few very common words, a long tail of rare ones. Queries take 1-3 words of middle
# frequency (ranks 50-4,000), as topical questions do.
WORDS = sorted({a + b + c for a in SYLLABLES for b in SYLLABLES for c in ("", *SYLLABLES[:19])})[:8000]
_WEIGHTS = [1 / (rank**1.07) for rank in range(1, len(WORDS) + 1)]


def zipf_words(rng: random.Random, n: int) -> list[str]:
    return rng.choices(WORDS, weights=_WEIGHTS, k=n)


def query_words(rng: random.Random) -> str:
    return " ".join(WORDS[rng.randrange(50, 4000)] for _ in range(rng.choice((1, 2, 3))))


def generate(root: Path, files: int, rng: random.Random, project_index: int) -> None:
    for i in range(files):
        sections = []
        for s in range(9):
            title = " ".join(zipf_words(rng, 3))
            body = " ".join(zipf_words(rng, 40))
            sections.append(f"## {title} {s}\n\n{body}.\n")
        kind = "docs/adr" if i % 25 == 0 else "docs"
        head = (
            f"# Note {project_index}-{i}\n\n* Status: accepted\n* Date: 2026-{1 + i % 11:02d}-15\n\n"
            if kind == "docs/adr"
            else f"# Note {project_index}-{i}\n\n"
        )
        path = root / kind / f"{i:04d}-note.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(head + "\n".join(sections), encoding="utf-8")


def _count(root: Path) -> int:
    from kenning.store.readonly import open_readonly, summary

    conn = open_readonly(load_project(root).db_path)
    try:
        return summary(conn).facts
    finally:
        conn.close()


def timed(calls: list, fn) -> list[float]:
    out = []
    for call in calls:
        start = time.perf_counter()
        fn(call)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--projects", type=int, default=20)
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--keep",
        metavar="DIR",
        help="generate the projects in DIR and keep them; reuse them when "
        "DIR already holds them (a rerun skips the setup)",
    )
    args = parser.parse_args()
    rng = random.Random(15)
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        home = Path(tmp) / "home"
        excerpts = 0
        start = time.perf_counter()
        reuse = (home / "projects.json").is_file()
        for p in range(0 if reuse else args.projects + 1):
            root = Path(tmp) / f"p{p:02d}"
            root.mkdir(parents=True)
            generate(root, args.files, rng, p)
            name = f"project{p:02d}" if p < args.projects else "secret"
            if p == args.projects:
                (root / ".kenning").mkdir()
                (root / ".kenning" / "config.toml").write_text(f'name = "{name}"\nconfidential = true\n')
            project, _ = init_project(root, name)
            report = sync(project, now=utc_now())
            excerpts += report.added if p < args.projects else 0
            registry.register(home, project.name, project.root)
        setup = time.perf_counter() - start
        entries = registry.list_entries(home)
        if reuse:
            excerpts = sum(_count(e.path) for e in entries if e.name != "secret")
        queries_rng = random.Random(151)  # its own generator: a reused DIR gets the same queries
        queries = [query_words(queries_rng) for _ in range(args.queries)]
        now = utc_now()
        pool = StorePool(load_project)
        for q in queries[:5]:  # warm the page cache, as a second question would
            search_all(entries, q, SearchOptions(limit=10), now=now, home=home, stores=pool)
        sample = search_all(entries, queries[0], SearchOptions(limit=10), now=now, home=home, stores=pool)
        cold_ms = timed(
            queries,
            lambda q: search_all(entries, q, SearchOptions(limit=10), now=now, home=home, stores=OneShot(load_project)),
        )
        search_ms = timed(
            queries, lambda q: search_all(entries, q, SearchOptions(limit=10), now=now, home=home, stores=pool)
        )
        ask_ms = timed(queries, lambda q: ask_all(q, entries, now=now, limit=10, home=home, stores=pool))
        dated_ms = timed(
            queries,
            lambda q: ask_all(
                f"what did I decide about {q} since September", entries, now=now, limit=10, home=home, stores=pool
            ),
        )
        pool.close()
    print(f"machine: nproc={os.cpu_count()} python={platform.python_version()} {platform.machine()} {sys.platform}")
    print(f"load average after the run: {os.getloadavg()[0]:.2f}")
    print(
        f"{args.projects} projects, {excerpts:,} excerpts in all ({excerpts // args.projects:,} each) + 1 "
        f"confidential; setup (generate + sync) {setup:.1f} s"
    )
    print(
        f"sample answer: {len(sample.searched)} store(s) read, excluded {[e.project for e in sample.excluded]}, "
        f"{len(sample.excerpts)} excerpts"
    )
    for label, values in (
        ("search_all, stores opened per question (the CLI)", cold_ms),
        ("search_all, stores kept open (MCP server, cockpit)", search_ms),
        ("ask_all, stores kept open", ask_ms),
        ("ask_all, dated decisions, stores kept open", dated_ms),
    ):
        print(
            f"{label}, {len(values)} queries: p50 {quantile(values, 0.5):.1f} ms, p95 {quantile(values, 0.95):.1f} ms, "
            f"max {max(values):.1f} ms"
        )


if __name__ == "__main__":
    main()
