"""What the French bridge costs a question (not a test): ``search.translate.translate`` timed
alone over SciFact's 300 test claims (English questions: what every English question pays for the
French rules) and, with ``--questions FILE``, over the questions of a JSON-lines file
(``bench/questions/*.fr.jsonl``: French ones), on a synced project's store.

Each pass translates every question once; the first pass fills the per-store caches (index
probes, glossary entries) as a server's first questions do, and the best of the other passes
is printed, in milliseconds per question.

    .venv/bin/python bench/translate_cost.py --project /tmp/quiet/nl/scifact
    PYTHONPATH=/tmp/before/src .venv/bin/python bench/translate_cost.py --project /tmp/quiet/nl/scifact
        # the same with another commit's src/ (git archive COMMIT src | tar -x -C /tmp/before)
    .venv/bin/python bench/translate_cost.py --project /tmp/kenning-real-projects/django \\
        --questions bench/questions/django.fr.jsonl
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _common import DEFAULT_DATA, require


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", type=Path, required=True, help="a synced kenning project (its .kenning store)")
    parser.add_argument("--questions", type=Path, help="a JSON-lines file with a 'question' per line")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared bench folder (SciFact)")
    parser.add_argument("--passes", type=int, default=6, help="passes over the questions (the first warms)")
    args = parser.parse_args()

    from kenning.config import load_project
    from kenning.search import translate
    from kenning.search.query import parse
    from kenning.store.db import connect

    if args.questions:
        questions = [json.loads(line)["question"] for line in args.questions.read_text().splitlines() if line]
        label = str(args.questions)
    else:
        scifact = args.data / "scifact"
        if not require(scifact / "queries.jsonl", "SciFact"):
            return
        tested = {line.split("\t")[0] for line in (scifact / "qrels" / "test.tsv").read_text().splitlines()[1:]}
        rows = [json.loads(line) for line in (scifact / "queries.jsonl").read_text().splitlines() if line]
        questions = [row["text"] for row in rows if row["_id"] in tested]
        label = "SciFact test claims"
    parsed = [parse(q) for q in questions]
    conn = connect(load_project(args.project).db_path)
    try:
        times = []
        for _ in range(max(2, args.passes)):
            start = time.perf_counter()
            translated = sum(bool(translate.translate(conn, p)[1]) for p in parsed)
            times.append((time.perf_counter() - start) / len(parsed) * 1000)
    finally:
        conn.close()
    print(
        f"{label}: {len(parsed)} questions, {translated} translated; translate per question "
        f"best {min(times[1:]):.3f} ms, median {sorted(times[1:])[len(times[1:]) // 2]:.3f} ms "
        f"(first pass, caches cold: {times[0]:.3f} ms)"
    )


if __name__ == "__main__":
    main()
