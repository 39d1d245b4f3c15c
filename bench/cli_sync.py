"""A one-shot `kenning sync` after one edit, as a person, a hook or an editor runs it (not a test):
the wall and CPU time of each command, from the interpreter's start to its exit.

Before each run a line is appended to one file of the project (``--edit``: the first Markdown file by
default), so each sync reads, parses and writes that file and checks the others' size and mtime: the
"one edit" of ``bench/peers.py``, without qmd beside it. With ``--against SRC`` (a ``src/`` exported
from another commit) the two trees run in turn, the order alternating, through ``PYTHONPATH``; both
are byte-compiled first. The project is synced once beforehand (not timed). Beside the times, the
number of modules each tree imported for one such sync (``-X importtime``).

    .venv/bin/python bench/cli_sync.py --project PATH --runs 20
    .venv/bin/python bench/cli_sync.py --project PATH --against /tmp/before/src --runs 20
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, required=True, help="an initialised project (synced once here)")
    parser.add_argument("--edit", type=Path, help="the file a line is appended to before each sync")
    parser.add_argument("--against", type=Path, help="another commit's src/ (git archive), run in turn")
    parser.add_argument("--runs", type=int, default=20, help="syncs per tree (default 20)")
    args = parser.parse_args(argv)
    project = args.project.resolve()
    edited = args.edit or next(iter(sorted(project.rglob("*.md"))), None)
    if edited is None:
        parser.error("no Markdown file to edit in the project: give --edit")
    trees = [("this tree", REPO / "src")] + ([("against", args.against.resolve())] if args.against else [])
    for _, src in trees:
        compileall.compile_dir(str(src), quiet=1)
    _sync(project, trees[0][1])  # whatever was unsynced, not timed
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    for run in range(args.runs):
        for name, src in trees if run % 2 == 0 else trees[::-1]:
            with edited.open("a", encoding="utf-8") as handle:
                handle.write(f"\nEdit {run} of {name}.\n")
            times[name].append(_sync(project, src))
    for name, src in trees:
        walls = sorted(w for w, _ in times[name])
        cpus = sorted(c for _, c in times[name])
        print(
            f"{name:9}: wall min/median/max {walls[0] * 1000:.0f} / {statistics.median(walls) * 1000:.0f} / "
            f"{walls[-1] * 1000:.0f} ms, CPU {cpus[0] * 1000:.0f} / {statistics.median(cpus) * 1000:.0f} / "
            f"{cpus[-1] * 1000:.0f} ms, {_modules(project, src, edited)} modules imported ({len(walls)} runs)"
        )
    return 0


def _sync(project: Path, src: Path) -> tuple[float, float]:
    """One ``kenning sync`` of ``project`` with ``src`` first on the path: its wall and CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "kenning", "sync", "--no-embed", "--project", str(project)]
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"kenning sync failed ({status}): {process.stderr.read().decode() if process.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime


def _modules(project: Path, src: Path, edited: Path) -> int:
    with edited.open("a", encoding="utf-8") as handle:
        handle.write("\nOne more edit.\n")
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-X", "importtime", "-m", "kenning", "sync", "--no-embed", "--project", str(project)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return sum(1 for line in done.stderr.splitlines() if line.startswith("import time:") and "|" in line) - 1


if __name__ == "__main__":
    raise SystemExit(main())
