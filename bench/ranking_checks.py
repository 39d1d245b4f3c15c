"""What the per-excerpt checks of an answer cost (not a test): the time ``ask`` spends in the license
check (``search.factors.license_notice``) and in snippets (``search.snippet.make_snippet``), per
answer, on a synced project and a list of questions, asked as a server asks them (one connection,
the word lists kept). The figures behind "licensenotices" in docs/benchmarks.md.

    .venv/bin/python bench/ranking_checks.py --project /tmp/s76/nl/scifact \\
        --questions ../shared/bench/scifact/queries.jsonl --home /tmp/s76/nl/home
        # the store bench/nl_latency.py --keep /tmp/s76/nl keeps: SciFact replicated to 57,220 excerpts

``--questions``: a JSON Lines file (each line's ``text``) or plain text (a question a line).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)


def questions_in(path: Path, limit: int) -> list[str]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if lines and lines[0].lstrip().startswith("{"):
        return [json.loads(line)["text"] for line in lines][:limit]
    return lines[:limit]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", type=Path, required=True, help="a synced project's root")
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--home", type=Path, help="KENNING_HOME of that project's sync")
    parser.add_argument("--limit", type=int, default=300, help="questions asked (the first ones)")
    args = parser.parse_args()
    if args.home:
        os.environ["KENNING_HOME"] = str(args.home)

    from kenning.answer.ask import ask_project
    from kenning.clock import utc_now
    from kenning.config import load_project
    from kenning.search import lexical
    from kenning.search import ranker as ranking
    from kenning.store.db import connect

    project = load_project(args.project)
    conn = connect(project.db_path)
    questions = questions_in(args.questions, args.limit)
    now = utc_now()
    lexical.keep_word_lists()  # as the MCP and web servers do
    warm = lexical.warm_word_lists(project.db_path)
    if warm is not None:
        warm.done.wait()
    for question in questions:  # every list read once: the timed asks read none
        ask_project(project, question, now=now, conn=conn)

    spent = {"license": 0.0, "snippet": 0.0}
    calls = {"license": 0, "snippet": 0}

    def timed(name: str, function):  # a wrapper for either check
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - started
                calls[name] += 1

        return wrapper

    license_notice, make_snippet = ranking.license_notice, ranking.make_snippet
    ranking.license_notice = timed("license", license_notice)
    ranking.make_snippet = timed("snippet", make_snippet)
    per_answer: dict[str, list[float]] = {"license": [], "snippet": [], "ask": []}
    try:
        for question in questions:
            before = dict(spent)
            started = time.perf_counter()
            ask_project(project, question, now=now, conn=conn)
            per_answer["ask"].append(time.perf_counter() - started)
            for name in spent:
                per_answer[name].append(spent[name] - before[name])
    finally:
        ranking.license_notice, ranking.make_snippet = license_notice, make_snippet
    excerpts = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
    print(f"{project.name}: {excerpts} excerpts, {len(questions)} questions, load {os.getloadavg()[0]:.2f}")
    for name, values in per_answer.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        each = f", {calls[name] / len(questions):.1f} calls an answer" if name in calls else ""
        print(
            f"  {name:8} ms an answer: mean {1000 * statistics.fmean(values):.3f}, p50 "
            f"{1000 * statistics.median(values):.3f}, p95 {1000 * p95:.3f}, max {1000 * ordered[-1]:.3f}{each}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
