"""How fast the product's parsers read a tree, this src/ against another's in turn (not a test).

Each round runs a child process per tree (``PYTHONPATH`` set to each ``src/``), which reads every
file the sync would read and times each parser over all its files, serially, on CPU time (the
best of ``--best`` passes), the cycle collector off as in a sync's parsing workers
(``ingest.read``); each round runs both trees, the first of a round the second of the next, so
both see the same machine. A
parser change is measured here before ``bench/sync_floor.py`` is read: its floor counts the
product's parsers, so a slower parser raises the floor and lowers the ratio for nothing
(docs/benchmarks.md, "Issue 19, twenty-second session").

    .venv/bin/python bench/parse_speed.py --django --against /tmp/before/src   # git archive <commit> src
    .venv/bin/python bench/parse_speed.py --dir PATH --against /tmp/before/src --rounds 3
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _common import DJANGO, SDIST_CACHE, fetch_sdist

SRC = Path(__file__).resolve().parent.parent / "src"


def child(root: Path, best: int) -> None:
    """In the child: each parser's best CPU time over the files discovery keeps, as JSON."""
    from kenning.config import default_name, parse_config
    from kenning.ingest.discover import discover
    from kenning.ingest.parsers import load_relations
    from kenning.project import Project

    project = Project(root=root, config=parse_config({}, default_name(root), root))  # kenning init's defaults
    gc.disable()  # as a sync's parsing workers run (``ingest.read._worker_start``)
    by_parser: dict[str, list[tuple[str, str]]] = {}
    for cand in discover(project).candidates:
        try:
            text = (root / cand.path).read_text(encoding="utf-8")
        except (OSError, UnicodeError):
            continue
        by_parser.setdefault(cand.parser, []).append((cand.path, text))
    times = {}
    for name, files in sorted(by_parser.items()):
        parse = load_relations(name)
        spent = []
        for _ in range(best):
            start = time.process_time()
            for path, text in files:
                with contextlib.suppress(RecursionError, ValueError, UnicodeError, MemoryError):  # a sync skips them
                    parse(text, path)
            spent.append(time.process_time() - start)
        times[name] = {"files": len(files), "seconds": min(spent)}
    print(json.dumps(times))


def timed(root: Path, src: Path, best: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(root), "--best", str(best)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--django", action="store_true", help="Django 5.0.6's source (pip download, cached)")
    where.add_argument("--dir", type=Path, help="a tree to read")
    where.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--against", type=Path, help="another src/ (git archive <commit> src), timed in turn")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--best", type=int, default=3, help="passes per parser in a child; the fastest counts")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.best)
        return
    root = (args.dir if args.dir else fetch_sdist(*DJANGO, SDIST_CACHE)).resolve()
    trees = [("this tree", SRC)] + ([("against", args.against)] if args.against else [])
    runs: dict[str, list[dict]] = {label: [] for label, _ in trees}
    for round_ in range(args.rounds):
        for label, src in trees if round_ % 2 == 0 else trees[::-1]:
            runs[label].append(timed(root, src, args.best))
    print(f"{root}: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end")
    print(f"{'parser':16} {'tree':10} {'files':>6}  seconds (CPU, best of {args.best}) per round   median")
    for label, rounds in runs.items():
        for name in sorted(rounds[0]):
            spent = [r[name]["seconds"] for r in rounds if name in r]
            cells = " / ".join(f"{s:.3f}" for s in spent)
            print(f"{name:16} {label:10} {rounds[0][name]['files']:6}  {cells:40} {statistics.median(spent):.3f}")


if __name__ == "__main__":
    main()
