"""Questions asked across projects (not a test): does ``ask --all-projects`` still find a project's
answer when other projects are searched beside it?

The four pinned sdists of ``bench/real_projects.py`` (httpx, flask, Django, click: four Python
projects whose docs and code share much of their vocabulary, as a developer's machine holds) are
synced at level 0 into one ``KENNING_HOME`` (their own ``--work`` layout, so a run of
``real_projects.py --level 0`` leaves them ready; a store already there is used as it is, at the
level it was synced at), and each project's own question set
(``bench/questions/NAME.jsonl``, 136 questions, written by reading that project) is asked of all
four at once (``across.answers.ask_all``, in process, limit 5). An excerpt answers only when it is
the question's project's and holds an expected file (``real_projects.hit``). Beside it, the same
questions asked of their project alone: what the fusion of the four lists may reach at best.

    .venv/bin/python bench/cross_questions.py                 # sync what is missing, ask, print
    .venv/bin/python bench/cross_questions.py --misses --json

``--clones cobra=PATH,ky=PATH,…``: instead, the projects ``real_projects.py`` reads from a clone
(each at its pinned commit, ``PATH`` a clone or a mirror of its repository), asked their
``--set`` (default ``docs``: cobra, ky, asciidoctor, leveldb, gson and ripgrep's questions about their
own docs, 140) across all of them: six languages whose docs share less vocabulary, a set the
weighing was not chosen on (docs/benchmarks.md, "crossrank"). ``--with-sdists`` adds the four sdists to
the clones, in one home: ten stores, each project asked its own questions (its ``NAME.jsonl``, or the
clones' ``--set``) across all ten, 276 questions (docs/benchmarks.md, "crosscover").

Prints recall@5, MRR@5 and the share of questions whose first excerpt is another project's, per
project and over all; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)
from _trees import cloned, under_git
from real_projects import CLONES, PROJECTS, QUESTIONS, fetch_sdist, hit, run_sync

LIMIT = 5


def _uris(excerpt) -> list[str]:
    return [u for u in (excerpt.fact.source.uri, *(loc.uri for loc in excerpt.fact.locations)) if u]


def _rank(excerpts, project: str, expected: set[str]) -> int | None:
    for rank, excerpt in enumerate(excerpts[:LIMIT], start=1):
        if excerpt.fact.project == project and hit(_uris(excerpt), expected):
            return rank
    return None


def _figures(ranks: list[int | None], others_first: int | None = None) -> dict[str, float | int | None]:
    n = len(ranks)
    found = [r for r in ranks if r]
    out: dict[str, float | int | None] = {
        "questions": n,
        "recall_at_5": round(len(found) / n, 3) if n else None,
        "mrr_at_5": round(sum(1 / r for r in found) / n, 3) if n else None,
    }
    if others_first is not None:
        out["another_project_first"] = round(others_first / n, 3) if n else None
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/kenning-real-projects"))
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench" / "sdists")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print each question missed across projects")
    parser.add_argument("--clones", default="", help="NAME=REPOSITORY,… of real_projects.py's clones instead")
    parser.add_argument("--set", default="docs", help="with --clones: bench/questions/NAME.SET.jsonl")
    parser.add_argument(
        "--with-sdists",
        action="store_true",
        help="with --clones: the four sdists too, in the same home, each asked its own NAME.jsonl",
    )
    args = parser.parse_args()
    home = args.work / "home"
    os.environ["KENNING_HOME"] = str(home)  # before kenning reads it

    from kenning import registry
    from kenning.across.answers import ask_all
    from kenning.across.stores import StorePool
    from kenning.answer.ask import ask_project
    from kenning.clock import utc_now
    from kenning.config import load_project

    env = {**os.environ}
    roots = {}
    repositories = dict(pair.split("=", 1) for pair in args.clones.split(",") if pair)
    unknown = sorted(set(repositories) - set(CLONES))
    if unknown:
        parser.error(f"--clones: {', '.join(unknown)} not among {', '.join(CLONES)}")
    if args.with_sdists and not repositories:
        parser.error("--with-sdists adds the sdists to --clones: give --clones too")
    names = [*repositories, *(PROJECTS if args.with_sdists or not repositories else ())]
    for name in names:
        root = args.work / name
        if not (root / ".kenning" / "kenning.db").exists():
            print(f"syncing {name} (level 0)…", file=sys.stderr, flush=True)
            if name in repositories:
                root = cloned(repositories[name], root, CLONES[name])
            else:
                requirement, folder = PROJECTS[name]
                root = under_git(fetch_sdist(requirement, folder, args.cache), root)
            run_sync(root, env, 0)
        roots[name] = root
    entries = [e for e in registry.list_entries(home) if e.name in roots]
    if len(entries) != len(roots):
        raise SystemExit(f"{home}: expected {sorted(roots)} registered, found {sorted(e.name for e in entries)}")
    now = utc_now()
    pool = StorePool(load_project)
    results: dict[str, dict] = {}
    every: dict[str, list[int | None]] = {"across": [], "alone": []}
    firsts = 0
    misses = []
    for name, root in roots.items():
        project = load_project(root)
        suffix = f".{args.set}" if name in repositories else ""
        questions = (QUESTIONS / f"{name}{suffix}.jsonl").read_text(encoding="utf-8")
        rows = [json.loads(line) for line in questions.splitlines() if line.strip()]
        across, alone, others_first = [], [], 0
        for row in rows:
            expected = set(row["expected"])
            answer = ask_all(row["question"], entries, now=now, limit=LIMIT, home=home, stores=pool)
            rank = _rank(answer.excerpts, name, expected)
            across.append(rank)
            others_first += bool(answer.excerpts) and answer.excerpts[0].fact.project != name
            own = ask_project(project, row["question"], now=now, limit=LIMIT)
            alone.append(_rank(own.excerpts, name, expected))
            if rank is None:
                got = [f"{e.fact.project}:{e.fact.source.uri}" for e in answer.excerpts[:LIMIT]]
                misses.append({"project": name, "question": row["question"], "alone": alone[-1], "got": got})
        results[name] = {"across": _figures(across, others_first), "alone": _figures(alone)}
        every["across"] += across
        every["alone"] += alone
        firsts += others_first
    pool.close()
    totals = {"across": _figures(every["across"], firsts), "alone": _figures(every["alone"])}
    if args.json:
        print(json.dumps({"projects": results, "all": totals, "misses": misses if args.misses else None}, indent=2))
        return 0
    print(f"{'project':8} {'questions':>9}  across: recall@5  MRR@5  another first   alone: recall@5  MRR@5")
    for name, r in {**results, "all": totals}.items():
        a, o = r["across"], r["alone"]
        print(
            f"{name:8} {a['questions']:9}          {a['recall_at_5']:8}  {a['mrr_at_5']:5}  "
            f"{a['another_project_first']:13}          {o['recall_at_5']:8}  {o['mrr_at_5']:5}"
        )
    if args.misses:
        for miss in misses:
            print(f"MISS {miss['project']}: {miss['question']!r} (alone: {miss['alone']}): {miss['got']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
