"""What freshness per excerpt costs at read, and what line-level source dates would cost (not a test).

Usage:
    .venv/bin/python bench/fresh_read.py                       # a copy of /tmp/sdists/httpx-0.27.0
    .venv/bin/python bench/fresh_read.py --dir PATH --rounds 5
    .venv/bin/python bench/fresh_read.py --src ../other/src    # the same figures with another checkout's code
    .venv/bin/python bench/fresh_read.py --blame REPO          # source dates: one git pass vs git blame per file

Query latency (in process, ``search_project``, limit 10, level 0) over a fixed query list:
first on the synced tree, then after one comment line was appended to every indexed source
file, so every served excerpt's file changed and is hashed again and (with per-excerpt
freshness) re-split once per answer. Also prints how the served excerpts' states split.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

QUERIES = [
    "timeout",
    "how are timeouts configured",
    "redirect",
    "proxy",
    "authentication",
    "stream response",
    "cookies",
    "headers",
    "transport",
    "retry",
    "client request",
    "encoding",
    "status code",
    "url",
    "limits",
    "ssl certificate",
    "multipart",
    "decode",
    "event hooks",
    "base url",
]
EDITED = (".py", ".md", ".rst", ".txt")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/sdists/httpx-0.27.0"))
    parser.add_argument("--rounds", type=int, default=5, help="times each query runs per tree state")
    parser.add_argument("--src", type=Path, help="import kenning from this src folder (before/after figures)")
    parser.add_argument("--blame", type=Path, metavar="REPO", help="instead: time git log vs git blame in REPO")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src.resolve() if args.src else Path(__file__).resolve().parent.parent / "src"))
    if args.blame:
        return blame(args.blame)
    if not args.dir.is_dir():
        print(f"skipped: {args.dir} not found (unpack an sdist there, or pass --dir)")
        return 0
    return queries(args.dir, args.rounds)


def queries(source: Path, rounds: int) -> int:
    from kenning.answer.search import SearchOptions, search_project
    from kenning.config import init_project, load_project
    from kenning.sync.run import sync

    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / source.name
        shutil.copytree(source, root)
        init_project(root, "bench")
        with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as handle:
            handle.write("\n[dense]\nenabled = false\n")
        project = load_project(root)
        sync(project, now=now)
        import kenning

        print(f"kenning from {Path(kenning.__file__).parent}; corpus {source}; load {os.getloadavg()[0]:.2f}")
        rows = [("synced tree", *_measure(project, rounds, search_project, SearchOptions))]
        files = sorted(
            (p for p in root.rglob("*") if p.suffix in EDITED and ".kenning" not in p.parts and p.is_file()),
            key=lambda p: (-p.stat().st_size, str(p)),
        )
        _append(files[:3])
        rows.append(("3 largest edited", *_measure(project, rounds, search_project, SearchOptions, cold=True)))
        _append(files[3:])
        n = len(files)
        rows.append((f"{n} edited, 1st read", *_measure(project, rounds, search_project, SearchOptions, cold=True)))
        rows.append((f"{n} edited, cached", *_measure(project, rounds, search_project, SearchOptions)))
    print(f"{'tree':<24} {'p50 ms':>8} {'p95 ms':>8}  served excerpts by state")
    for name, p50, p95, states in rows:
        print(f"{name:<24} {p50:>8.1f} {p95:>8.1f}  {dict(sorted(states.items()))}")
    return 0


def _append(paths: list[Path]) -> None:
    """One line appended to each file: a comment in Python, a sentence elsewhere."""
    for path in paths:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n# edited after the sync\n" if path.suffix == ".py" else "\nEdited after the sync.\n")


def _measure(project, rounds, search_project, options_type, cold: bool = False) -> tuple[float, float, Counter]:
    """p50, p95 (ms) and the served states. ``cold``: the spans of changed files are forgotten
    before each answer (as in a CLI process, which answers once); otherwise a long-lived
    process keeps them (``freshness._SPLIT``, by path and content)."""
    from kenning import freshness

    forget = getattr(freshness, "_SPLIT", {}).clear if cold else (lambda: None)
    now = datetime.now(UTC)
    times: list[float] = []
    states: Counter[str] = Counter()
    for query in QUERIES:  # a first, unmeasured round warms imports and the page cache
        search_project(project, query, options_type(limit=10), now=now)
    for _ in range(rounds):
        for query in QUERIES:
            forget()
            started = time.perf_counter()
            search_project(project, query, options_type(limit=10), now=now)
            times.append((time.perf_counter() - started) * 1000)
    for query in QUERIES:
        answer = search_project(project, query, options_type(limit=10, include_missing=True), now=now)
        states.update(e.freshness.state.value for e in answer.excerpts)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], states


def blame(repo: Path) -> int:
    """Source dates for every tracked .py/.md file of ``repo`` (a work tree): kenning's one pass
    (``git_dates.commit_dates``: ls-tree, then one streamed ``git log``) against ``git blame``
    of each file (what dating an excerpt by its own lines would take)."""
    from kenning.ingest import git_dates

    files = subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True, check=True)
    paths = [p for p in files.stdout.splitlines() if p.endswith((".py", ".md", ".rst"))]
    commits = subprocess.run(["git", "-C", str(repo), "rev-list", "--count", "HEAD"], capture_output=True, text=True)
    started = time.perf_counter()
    blobs: dict[str, str | None] = {p: git_dates.blob_id((repo / p).read_bytes()) for p in paths}
    dated = git_dates.commit_dates(repo, blobs)
    dates_s = time.perf_counter() - started
    started = time.perf_counter()
    for path in paths:
        subprocess.run(["git", "-C", str(repo), "blame", "--porcelain", "--", path], capture_output=True, check=False)
    blame_s = time.perf_counter() - started
    load = os.getloadavg()[0]
    print(f"repository {repo}: {commits.stdout.strip()} commits, {len(paths)} .py/.md/.rst files; load {load:.2f}")
    print(f"commit_dates (ls-tree + one git log), {len(dated)} files dated: {dates_s * 1000:.0f} ms")
    per_file = blame_s / len(paths) * 1000
    print(f"git blame --porcelain, one per file:          {blame_s * 1000:.0f} ms ({per_file:.1f} ms a file)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
