"""What the server's warm-up threshold gives a question asked for the first time (not a test):
``postings.WARM_FROM`` (the rows a word's list holds at least to be read by the warm-up) and
``postings.WARM_POSTINGS`` (its budget) set to each ``--settings`` pair in turn, in alternated
child processes, on ``bench/nl_latency.py``'s SciFact ×10 store.

Each child does what a server does before its first questions (the warm-up, waited for; the
train claims asked), then asks the 300 test claims once (the first asking: the lists the warm-up
did not read are read then) and once more (every list read), and prints p50 / p95 of both, the
lists and postings the warm-up read and how long it took.

    .venv/bin/python bench/warm_from.py --keep /tmp/quiet/nl --settings 500:4000000,100:5000000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import DEFAULT_DATA, relax_query_budget, table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=Path, required=True, help="nl_latency.py's --keep folder")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--settings", default="500:4000000,100:5000000", help="WARM_FROM:WARM_POSTINGS pairs")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["KENNING_HOME"] = str(args.keep / "home")
    if args.child:
        print(json.dumps(_child(args.keep, args.data, args.child)))
        return 0
    rows = []
    for _ in range(args.rounds):
        for setting in args.settings.split(","):
            command = [sys.executable, __file__, "--keep", str(args.keep), "--data", str(args.data), "--child", setting]
            figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            first, again = figures["first"], figures["again"]
            rows.append([setting, figures["lists"], figures["postings"], figures["warm_s"], *first, *again])
            rows[-1].append(round(first[1] / again[1], 2) if again[1] else None)
    headers = ["from:budget", "lists", "postings", "warm-up s", "first p50", "first p95", "again p50", "again p95"]
    print(table([*headers, "first / again p95"], rows))
    return 0


def _child(keep: Path, data: Path, setting: str) -> dict:
    from kenning.answer.ask import ask_project
    from kenning.bench.speed import quantile
    from kenning.clock import utc_now
    from kenning.config import load_project
    from kenning.search import lexical
    from kenning.store import postings
    from kenning.store.db import connect
    from nl_latency import _scifact

    relax_query_budget()
    warm_from, budget = (int(part) for part in setting.split(":"))
    postings.WARM_FROM, postings.WARM_POSTINGS = warm_from, budget
    built = _scifact(data, keep / "scifact", 10)
    if built is None:
        raise SystemExit("no SciFact data")
    root, warm, timed = built
    project = load_project(root)
    conn = connect(project.db_path)
    now = utc_now()
    lexical.keep_word_lists()
    started = time.perf_counter()
    task = lexical.warm_word_lists(project.db_path)
    if task is not None:
        task.done.wait()
    warm_seconds = time.perf_counter() - started
    for question in warm:
        ask_project(project, question, now=now, conn=conn)
    passes: list[list[float]] = [[], []]
    for times in passes:
        for question in timed:
            begun = time.perf_counter()
            ask_project(project, question, now=now, conn=conn)
            times.append((time.perf_counter() - begun) * 1000)
    return {
        "lists": task.lists if task else 0,
        "postings": task.postings if task else 0,
        "warm_s": round(warm_seconds, 2),
        "first": [round(quantile(passes[0], q), 2) for q in (0.5, 0.95)],
        "again": [round(quantile(passes[1], q), 2) for q in (0.5, 0.95)],
    }


if __name__ == "__main__":
    raise SystemExit(main())
