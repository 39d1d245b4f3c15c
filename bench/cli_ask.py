"""A one-shot `kenning ask` as a person or a hook runs it (not a test): the wall time of each
command, from the interpreter's start to its exit, and what the process imported on the way.

Each run is a fresh interpreter (``python -m kenning ask QUESTION --project PATH``), so the
figure holds everything a user waits for: start-up, imports, opening the store, routing, the
answer, printing it. With ``--against SRC`` (a ``src/`` exported from another commit) the two
trees run in turn, the order alternating, through ``PYTHONPATH``; both are byte-compiled first
(a shell with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module at every run).
The import lines list the modules of ``kenning.answer``, numpy and click each tree loaded for the
first question (``-X importtime``, their own and cumulative microseconds; the second of two runs).

    .venv/bin/python bench/cli_ask.py --project /tmp/kenning-real-projects/flask --runs 15
    .venv/bin/python bench/cli_ask.py --project PATH --against /tmp/before/src \\
        --question "how are blueprints registered" --question "who calls url_for"
    /tmp/plain/bin/python bench/cli_ask.py --project PATH --against /tmp/before/src
        # another interpreter (a plain `pip install kenning` without the dense extra)
    .venv/bin/python bench/cli_ask.py --project PATH --against /tmp/before/src --limit 100 \\
        --question "how to test a handler"
        # a larger answer; a run that exits with an error (a refused question) is timed and counted
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _common import REPO

QUESTIONS = ("how are blueprints registered",)
WATCHED = ("kenning.answer.",)  # and the packages of TOPS, themselves
TOPS = ("numpy", "click")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", type=Path, required=True, help="a synced project")
    parser.add_argument("--question", action="append", help=f"repeatable (default: {QUESTIONS[0]!r})")
    parser.add_argument("--runs", type=int, default=15, help="runs of each question on each tree (default: 15)")
    parser.add_argument("--against", type=Path, help="another src/ to time in turn")
    parser.add_argument("--limit", type=int, help="the answer's limit (default: the command's own)")
    args = parser.parse_args(argv)
    trees = [("this tree", REPO / "src")] + ([("against", args.against)] if args.against else [])
    for _, src in trees:
        compileall.compile_dir(src, quiet=1)
    questions = args.question or list(QUESTIONS)
    print(f"python {sys.executable}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    for label, src in trees:
        print(f"{label}: imported {_imports(src, args.project, questions[0], args.limit)}")
    for question in questions:
        times: dict[str, list[float]] = {label: [] for label, _ in trees}
        refused: dict[str, int] = dict.fromkeys(times, 0)
        for run in range(args.runs):
            for label, src in trees if run % 2 == 0 else trees[::-1]:
                ms, code = _ask_ms(src, args.project, question, args.limit)
                times[label].append(ms)
                refused[label] += code != 0
        for label, found in times.items():
            found.sort()
            print(
                f"{question!r}, {label}: min / median / max {found[0]:.0f} / {statistics.median(found):.0f} / "
                f"{found[-1]:.0f} ms ({len(found)} runs"
                + (f", {refused[label]} refused: exit status not 0" if refused[label] else "")
                + ")"
            )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


def _command(
    src: Path, project: Path, question: str, limit: int | None, *python_options: str
) -> tuple[list[str], dict[str, str]]:
    command = [sys.executable, *python_options, "-m", "kenning", "ask", question, "--project", str(project)]
    command += ["--limit", str(limit)] if limit else []
    return command, {**os.environ, "PYTHONPATH": str(src)}


def _ask_ms(src: Path, project: Path, question: str, limit: int | None) -> tuple[float, int]:
    """The wall time of one ``kenning ask`` and its exit status (2: refused, ``QueryTooCostly`` among
    others: a tree that refuses a question is timed to its refusal, and counted)."""
    command, env = _command(src, project, question, limit)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - started) * 1000, done.returncode


def _imports(src: Path, project: Path, question: str, limit: int | None) -> str:
    """The watched imports of the second of two runs (the first reads the files from disk)."""
    command, env = _command(src, project, question, limit, "-X", "importtime")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    for _ in range(2):
        done = subprocess.run(command, env=env, text=True, check=False, **quiet)
    found = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):  # a refused question's error, a warning
            continue
        own, total, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        if name.startswith(WATCHED) or name in TOPS:  # their own submodules left out
            found.append(f"{name} ({own}/{total} µs)")
    return ", ".join(found) or f"none of kenning.answer's modules, {', '.join(TOPS)}"


if __name__ == "__main__":
    raise SystemExit(main())
