"""Speed benchmark for level 0 (not a test): sync, resync, query, CLI, memory.

Usage:
    .venv/bin/python bench/speed.py                 # generated corpus: 2,000 Markdown + 2,000 Python files
    .venv/bin/python bench/speed.py --dir PATH      # a copy of any directory
    .venv/bin/python bench/speed.py --json
    .venv/bin/python bench/speed.py --profile       # instead: each phase's share of a cold sync

Prints one table; every figure comes from this run on this machine. Targets (issue 2):
cold sync >= 10 MB/s; no-op resync of 4,000 files <= 0.3 s; in-process query p95 <= 10 ms on
50,000 excerpts; `kenning search` end to end <= 150 ms; peak RSS during sync <= 300 MB.

The table measures level 0: the bench's store has dense retrieval switched off (``[dense]
enabled = false`` in its ``.kenning/config.toml``), so no sync embeds. With the dense extra
installed, one more line then gives level 1's cost on the same store: the same sync with
dense switched on (it embeds for its budget, ``[dense] budget_seconds``) and a no-op sync after
it (which keeps embedding until the index is complete).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from kenning.bench.speed import quantile

WORDS = [
    "index",
    "search",
    "memory",
    "fusion",
    "ranking",
    "token",
    "session",
    "cache",
    "project",
    "source",
    "fingerprint",
    "freshness",
    "stale",
    "decision",
    "convention",
    "evidence",
    "verdict",
    "commit",
    "graph",
    "node",
    "edge",
    "query",
    "router",
    "pack",
    "budget",
    "excerpt",
    "manifest",
    "sync",
    "parser",
    "section",
    "heading",
    "symbol",
    "module",
    "function",
    "class",
    "method",
    "import",
    "call",
    "test",
    "store",
    "migration",
    "schema",
    "trigger",
    "lexical",
    "trigram",
    "dense",
    "vector",
    "embedding",
    "model",
    "latency",
    "throughput",
    "benchmark",
    "recall",
    "precision",
    "coverage",
    "attribution",
    "lifecycle",
    "supersede",
    "retire",
    "confirm",
    "forget",
    "registry",
    "config",
    "agent",
]

QUERIES = [
    "cache freshness",
    "rrf fusion ranking",
    "session token budget",
    "where is parse_section_42",
    "graph edge node",
    "stale source fingerprint",
    "router pack budget",
    "Handler17",
    "migration schema trigger",
    "how does the manifest work",
    "lifecycle supersede retire",
    "embedding latency",
    "decision evidence verdict",
    "module_7",
    "compute_recall",
    "what is the coverage",
    "sync parser section",
    "benchmark throughput",
    "query router",
    "confirm forget registry",
]


def _vocabulary(size: int = 20_000, seed: int = 7) -> tuple[list[str], list[float]]:
    """Domain words plus pseudo-words, drawn with Zipf-like frequencies (rank^-1.07), as in
    natural text: a few words are everywhere, most are rare."""
    rng = random.Random(seed)
    letters = "etaoinshrdlucmfwypvbgkqjxz"
    extra = {"".join(rng.choices(letters, k=rng.randint(4, 10))) for _ in range(size)}
    vocab = WORDS + sorted(extra - set(WORDS))
    rng.shuffle(vocab)
    cumulative, total = [], 0.0
    for rank in range(1, len(vocab) + 1):
        total += rank**-1.07
        cumulative.append(total)
    return vocab, cumulative


VOCAB, CUMULATIVE = _vocabulary()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choices(VOCAB, cum_weights=CUMULATIVE, k=n)).capitalize() + "."


def markdown_file(rng: random.Random, i: int) -> str:
    parts = [f"# Document {i}: {rng.choice(WORDS)} {rng.choice(WORDS)}\n", sentence(rng, 30) + "\n"]
    for s in range(10):
        parts.append(f"\n## Section {s} {rng.choice(WORDS)} {rng.choice(WORDS)}\n")
        for _ in range(rng.randint(1, 3)):
            parts.append("\n" + " ".join(sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(1, 4))) + "\n")
        if rng.random() < 0.3:
            parts.append(f"\n```python\n# not a heading\nvalue_{s} = {rng.randint(0, 99)}\n```\n")
    return "".join(parts)


def python_file(rng: random.Random, i: int) -> str:
    lines = [f'"""Module {i}: {sentence(rng, 12)}"""', "", "import os", "from pathlib import Path", ""]
    for c in range(3):
        lines += [f"class Handler{i}_{c}:", f'    """{sentence(rng, 10)}"""', ""]
        for m in range(3):
            lines += [
                f"    def {rng.choice(WORDS)}_{m}(self, value, limit=10):",
                f'        """{sentence(rng, 8)}"""',
                f"        total = value + {rng.randint(1, 9)}",
                "        for item in range(limit):",
                "            total += item",
                "        return total",
                "",
            ]
    for f in range(6):
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{i}_{f}"
        lines += [
            f"def {name}(items, key=None):",
            f'    """{sentence(rng, 14)}"""',
            "    result = []",
            "    for item in items:",
            "        if key is None or key(item):",
            "            result.append(item)",
            "    return sorted(result)",
            "",
        ]
    return "\n".join(lines) + "\n"


def generate(root: Path, n_md: int, n_py: int, seed: int = 42) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(n_md):
        path = root / "docs" / f"d{i // 100:02d}" / f"doc_{i:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = markdown_file(rng, i)
        path.write_text(text, encoding="utf-8")
        total += len(text.encode())
    for i in range(n_py):
        path = root / "src" / f"pkg{i // 100:02d}" / f"module_{i:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = python_file(rng, i)
        path.write_text(text, encoding="utf-8")
        total += len(text.encode())
    return total


# Like an installed package: byte-code is cached after the first run (a session that sets
# PYTHONDONTWRITEBYTECODE would otherwise recompile every module on every command).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def kenning(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("kenning")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=cwd, check=True, env=CHILD_ENV)


def wall_ms(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def dense_switch(project_root: Path, enabled: bool) -> None:
    """Write ``[dense] enabled`` into the project's config (the documented switch)."""
    config = project_root / ".kenning" / "config.toml"
    text = config.read_text(encoding="utf-8").split("\n[dense]\n", 1)[0].rstrip("\n")
    config.write_text(f"{text}\n\n[dense]\nenabled = {'true' if enabled else 'false'}\n", encoding="utf-8")


def level0_project(root: Path):  # type: ignore[no-untyped-def]
    from kenning.config import init_project, load_project

    init_project(root, "bench")
    dense_switch(root, False)
    return load_project(root)


def level1_cost(root: Path) -> dict[str, object] | None:
    """The same store with dense switched on: a sync (it embeds for its budget), then a no-op
    sync, both through the CLI. ``None`` without the dense extra."""
    from kenning import dense

    if dense.missing() is not None:
        return None
    dense_switch(root, True)
    figures: dict[str, object] = {}
    for label in ("first_sync", "noop_sync"):
        start = time.perf_counter()
        done = kenning("sync", "--project", str(root), "--json")
        figures[f"{label}_s"] = round(time.perf_counter() - start, 2)
        report = json.loads(done.stdout)["dense"]
        figures[f"{label}_embedding_s"] = report.get("seconds")
        figures["budget_s"] = report.get("budget_seconds")
        for name, e in report.get("embedders", {}).items():
            figures[f"{label}_{name}"] = f"{e['embedded']} of {e['total']} (+{e['added']})"
    dense_switch(root, False)
    return figures


def run(root: Path, source_bytes: int) -> dict[str, object]:
    from kenning.answer.search import SearchOptions, search_conn
    from kenning.search.query import parse
    from kenning.store.db import connect

    project = level0_project(root)
    figures: dict[str, object] = {"source_mb": round(source_bytes / 1e6, 2)}

    # Cold sync in a child process, so its peak RSS is measured alone.
    start = time.perf_counter()
    kenning("sync", "--project", str(root), "--json")
    cold = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures["cold_sync_s"] = round(cold, 2)
    figures["cold_sync_mb_per_s"] = round(source_bytes / 1e6 / cold, 2)
    figures["peak_rss_sync_mb"] = round(usage.ru_maxrss / 1024, 1)

    conn = connect(project.db_path)
    figures["files"] = conn.execute("SELECT count(*) FROM manifest").fetchone()[0]
    figures["excerpts"] = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'active'").fetchone()[0]
    conn.close()
    figures["db_mb"] = round(project.db_path.stat().st_size / 1e6, 1)

    from kenning.sync.run import sync

    noop = []
    for _ in range(5):
        start = time.perf_counter()
        report = sync(project, now=datetime.now(UTC))
        noop.append(time.perf_counter() - start)
        assert report.writes == 0
    figures["noop_resync_s_median"] = round(statistics.median(noop), 3)

    start = time.perf_counter()
    kenning("sync", "--project", str(root))
    figures["noop_resync_cli_s"] = round(time.perf_counter() - start, 3)

    victim = next(root.rglob("*.md"))
    victim.write_text(victim.read_text() + "\n## Added section\n\nFresh words here.\n")
    start = time.perf_counter()
    report = sync(project, now=datetime.now(UTC))
    figures["one_file_resync_s"] = round(time.perf_counter() - start, 3)

    conn = connect(project.db_path)
    timings = []
    options = SearchOptions(limit=10)
    for _ in range(10):
        for query in QUERIES:
            start = time.perf_counter()
            search_conn(conn, project, parse(query), options, now=datetime.now(UTC))
            timings.append((time.perf_counter() - start) * 1000)
    conn.close()
    figures["query_ms_p50"] = round(quantile(timings, 0.5), 2)
    figures["query_ms_p95"] = round(quantile(timings, 0.95), 2)

    kenning("search", "warm up", "--project", str(root))  # writes the byte-code cache
    cli_times = [
        wall_ms(lambda query=query: kenning("search", query, "--project", str(root)))
        for query in QUERIES[:10]
        for _ in range(2)
    ]
    figures["cli_search_ms_p50"] = round(quantile(cli_times, 0.5), 1)
    figures["cli_search_ms_p95"] = round(quantile(cli_times, 0.95), 1)
    # Peers in the same run, as the machine's speed drifts: the interpreter alone, and a
    # command that imports click.
    floor, version = [], []
    for _ in range(10):
        floor.append(wall_ms(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True, env=CHILD_ENV)))
        version.append(wall_ms(lambda: kenning("--version")))
    figures["python_startup_ms_p50"] = round(quantile(floor, 0.5), 1)
    figures["cli_version_ms_p50"] = round(quantile(version, 0.5), 1)
    return figures


# cProfile entries (path suffix, function) summed into each phase of a sync.
PHASES = (
    ("parse (one process here)", (("ingest/read.py", "read_all"),)),
    (
        "excerpt, location, manifest rows",
        (("sync/write.py", "apply_file"), ("sync/write.py", "flush"), ("sync/write.py", "retire_path")),
    ),
    ("word and trigram indexes", (("store/facts.py", "index_fts_rows"),)),
    ("graph", (("graph/build.py", "apply"),)),
    ("begin + commit (WAL checkpoint)", (("store/db.py", "transaction"),)),
)


def profile_sync(root: Path) -> None:
    """A cold sync in this process, parsing serially, under cProfile: each phase's share.
    The profiler slows Python code more than SQLite's, so read shares, not seconds."""
    import cProfile
    import pstats

    from kenning.ingest import read as read_module
    from kenning.sync import run as sync_module

    project = level0_project(root)
    read_module.PARALLEL_FROM = read_module.PARALLEL_FROM_BYTES = sys.maxsize
    profiler = cProfile.Profile()
    profiler.enable()
    sync_module.sync(project, now=datetime.now(UTC))
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]

    def cumulative(entries: tuple[tuple[str, str], ...]) -> float:
        return sum(
            row[3]
            for (path, _, name), row in stats.items()
            if any(path.endswith(suffix) and name == function for suffix, function in entries)
        )

    total = cumulative((("sync/run.py", "sync"),))
    print(f"cold sync under cProfile, serial parse: {total:.1f} s")
    for label, entries in PHASES:
        seconds = cumulative(entries)
        print(f"  {label:34} {seconds:6.1f} s  {100 * seconds / total:5.1f} %")


def machine() -> dict[str, object]:
    return {
        "cpus": os.cpu_count(),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, help="benchmark a copy of this directory instead of a generated corpus")
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--profile", action="store_true", help="instead: profile one cold sync in process and print each phase's share"
    )
    args = parser.parse_args()
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-bench-home-"))
    with tempfile.TemporaryDirectory(prefix="kenning-bench-") as tmp:
        root = Path(tmp) / "corpus"
        if args.dir:
            shutil.copytree(args.dir, root, symlinks=True, ignore=shutil.ignore_patterns(".kenning", ".venv"))
            size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)
            corpus = f"copy of {args.dir}"
        else:
            root.mkdir()
            size = generate(root, args.markdown, args.python)
            corpus = f"generated: {args.markdown} Markdown + {args.python} Python files"
        if args.profile:
            print(f"corpus: {corpus}, {size / 1e6:.1f} MB")
            profile_sync(root)
            return
        figures = run(root, size)
        level1 = level1_cost(root)
    result = {"corpus": corpus, "machine": machine(), "level": 0, "figures": figures, "level1_sync": level1}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"corpus: {corpus}")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in result["machine"].items()))
    print("level 0 (dense switched off in the bench's store):")
    for key, value in figures.items():
        print(f"  {key:24} {value}")
    if level1 is None:
        print("level 1: dense extra not installed")
    else:
        print("level 1 sync cost (dense on, same store): " + ", ".join(f"{k} {v}" for k, v in level1.items()))


if __name__ == "__main__":
    main()
