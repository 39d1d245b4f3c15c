"""Every question set of ``bench/questions`` in one run (not a test): each question's rank, and the
questions that moved against an earlier run.

Each file ``NAME.jsonl`` or ``NAME.SET.jsonl`` is one run of ``bench/real_projects.py --level 0 --json``:
an sdist of ``real_projects.PROJECTS`` (httpx, Flask, Django, click), or a clone of the project's
repository at the commit its questions were written at (``real_projects.CLONES``; ``httpx.git`` reads its
clone's HEAD, as real_projects.py does: the team's mirror of encode/httpx is at ae1b9f66, the commit its
questions were written at). A clone is read from ``--mirror`` (``OWNER+NAME/repo`` under it, as the team's
``fetch`` tool leaves them) when there, else from GitHub. The ranks of every question (1 to 5, or
null: no expected file in the first five) are written to ``--out`` as JSON; with ``--against`` an
earlier run's file, every question whose rank differs is printed, then both runs' figures.

    .venv/bin/python bench/question_sets.py --out /tmp/q/before.json
    .venv/bin/python bench/question_sets.py --out /tmp/q/after.json --against /tmp/q/before.json
    .venv/bin/python bench/question_sets.py --only cobra.docs,flask --out /tmp/q/some.json
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/question_sets.py --out /tmp/q/base.json   # another tree

About eight minutes for the 47 runs on two cores once the sdists and clones are at hand (each project
is synced cold once per run, at level 0). Give each tree its own ``--work``: a store synced there by one
tree is reused by the next run, whose answers would then be read from the other tree's excerpts.
Question sets are written by reading a project, never from kenning's answers (real_projects.py says how
each was written).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from real_projects import CLONES, PROJECTS, QUESTIONS, REPOSITORIES

HERE = Path(__file__).resolve().parent
Run = tuple[str, str]  # (project, set: "" for NAME.jsonl)


def runs() -> list[Run]:
    """Every question file as (project, set), in name order."""
    found = []
    for file in sorted(QUESTIONS.glob("*.jsonl")):
        name, _, question_set = file.name.removesuffix(".jsonl").partition(".")
        found.append((name, question_set))
    return found


def label(run: Run) -> str:
    return ".".join(part for part in run if part)


def repository(name: str, mirror: Path) -> str:
    owner_name = REPOSITORIES[name]
    local = mirror / owner_name.replace("/", "+") / "repo"
    return str(local) if local.exists() else f"https://github.com/{owner_name}"


def command(run: Run, work: Path, mirror: Path) -> list[str]:
    name, question_set = run
    args = [sys.executable, str(HERE / "real_projects.py"), "--projects", name, "--level", "0", "--json"]
    args += ["--work", str(work / label(run))]
    if question_set:
        args += ["--set", question_set]
    if name in CLONES or question_set == "git":
        args += ["--clone", repository(name, mirror)]
    elif name not in PROJECTS:
        raise SystemExit(f"{label(run)}: {name} is neither an sdist of real_projects.py nor one of its clones")
    return args


def ask(run: Run, work: Path, mirror: Path) -> dict[str, int | None]:
    """The run's ranks by question (real_projects.py in a child process, its own KENNING_HOME)."""
    done = subprocess.run(command(run, work, mirror), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{label(run)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout)[run[0]]
    return {row["question"]: row["rank"] for row in result["ranks"]}


def figures(ranks: dict[str, dict[str, int | None]]) -> str:
    every = [rank for run in ranks.values() for rank in run.values()]
    found = [rank for rank in every if rank]
    per_run = [sum(1 for r in run.values() if r) / len(run) for run in ranks.values() if run]
    if not every:
        return "no question"
    return (
        f"{len(every)} questions in {len(ranks)} runs: {len(found)} found in the first five "
        f"({len(found) / len(every):.4f}), first {sum(1 for r in found if r == 1)}, "
        f"MRR@5 {sum(1 / r for r in found) / len(every):.4f}, mean recall@5 over runs {sum(per_run) / len(per_run):.4f}"
    )


def moved(before: dict[str, dict[str, int | None]], after: dict[str, dict[str, int | None]]) -> list[str]:
    lines = []
    for run, ranks in after.items():
        old = before.get(run)
        if old is None:
            lines.append(f"{run}: not in the earlier run")
            continue
        for question, rank in ranks.items():
            if question in old and old[question] != rank:
                lines.append(f"{run}: {question!r} {old[question] or 'out'} -> {rank or 'out'}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="where the ranks are written (JSON)")
    parser.add_argument("--against", type=Path, help="an earlier run's --out: print what moved")
    parser.add_argument("--only", default="", help="comma-separated runs (cobra.docs, flask, …); default all")
    parser.add_argument("--work", type=Path, default=Path("/tmp/kenning-question-sets"))
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"), help="OWNER+NAME/repo clones")
    args = parser.parse_args()
    every = runs()
    wanted = [r for r in every if not args.only or label(r) in args.only.split(",")]
    unknown = set(args.only.split(",")) - {label(r) for r in every} if args.only else set()
    if unknown:
        parser.error(f"--only: no question file for {', '.join(sorted(unknown))}")
    before = json.loads(args.against.read_text(encoding="utf-8")) if args.against else None
    ranks: dict[str, dict[str, int | None]] = {}
    for n, run in enumerate(wanted, start=1):
        start = time.perf_counter()
        ranks[label(run)] = ask(run, args.work, args.mirror)
        got = ranks[label(run)]
        found = sum(1 for r in got.values() if r)
        print(
            f"[{n}/{len(wanted)}] {label(run)}: {found}/{len(got)} in {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(ranks, indent=1, ensure_ascii=False), encoding="utf-8")
    if before is not None:
        lines = moved(before, ranks)
        print("\n".join(lines) if lines else "no question moved")
        print("before:", figures({run: before[run] for run in ranks if run in before}))
    print("this run:", figures(ranks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
