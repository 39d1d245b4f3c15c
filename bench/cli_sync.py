"""A one-shot `kenning sync` after one edit, as a person, a hook or an editor runs it (not a test):
the wall and CPU time of each command, from the interpreter's start to its exit.

Before each run a line is appended to one file of the project (``--edit``: the first Markdown file by
default), so each sync reads, parses and writes that file and checks the others' size and mtime: the
"one edit" of ``bench/peers.py``, without qmd beside it. With ``--against SRC`` (a ``src/`` exported
from another commit) the two trees run in turn, the order alternating, through ``PYTHONPATH``; both
are byte-compiled first. The project is synced once beforehand (not timed). Beside the times, the
number of modules each tree imported for one such sync (``-X importtime``).

With ``--noop`` nothing is edited: each sync finds nothing changed (a no-op ``kenning sync``, as a
hook runs it at every prompt), and each tree syncs a copy of the project of its own (a store one
tree migrated is one the other may not open).

    .venv/bin/python bench/cli_sync.py --project PATH --runs 20
    .venv/bin/python bench/cli_sync.py --project PATH --against /tmp/before/src --runs 20
    .venv/bin/python bench/cli_sync.py --project PATH --against /tmp/before/src --noop
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, required=True, help="an initialised project (synced once here)")
    parser.add_argument("--edit", type=Path, help="the file a line is appended to before each sync")
    parser.add_argument("--against", type=Path, help="another commit's src/ (git archive), run in turn")
    parser.add_argument("--runs", type=int, default=20, help="syncs per tree (default 20)")
    parser.add_argument("--noop", action="store_true", help="edit nothing: time no-op syncs (a copy per tree)")
    args = parser.parse_args(argv)
    project = args.project.resolve()
    edited = None if args.noop else args.edit or next(iter(sorted(project.rglob("*.md"))), None)
    if edited is None and not args.noop:
        parser.error("no Markdown file to edit in the project: give --edit")
    trees = [("this tree", REPO / "src")] + ([("against", args.against.resolve())] if args.against else [])
    for _, src in trees:
        compileall.compile_dir(str(src), quiet=1)
    with tempfile.TemporaryDirectory(prefix="kenning-cli-sync-") as work:
        # Each tree's project and environment: the project itself, or (--noop) a copy of its own.
        runs = {
            name: _copy(project, Path(work) / str(n), src) if args.noop else (project, _env(src))
            for n, (name, src) in enumerate(trees)
        }
        for name, _ in trees:  # whatever was unsynced, not timed
            _sync(*runs[name])
            if not args.noop:
                break
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
        for run in range(args.runs):
            for name, _ in trees if run % 2 == 0 else trees[::-1]:
                if edited is not None:
                    with edited.open("a", encoding="utf-8") as handle:
                        handle.write(f"\nEdit {run} of {name}.\n")
                times[name].append(_sync(*runs[name]))
        for name, _ in trees:
            walls = sorted(w for w, _ in times[name])
            cpus = sorted(c for _, c in times[name])
            print(
                f"{name:9}: wall min/median/max {walls[0] * 1000:.0f} / {statistics.median(walls) * 1000:.0f} / "
                f"{walls[-1] * 1000:.0f} ms, CPU {cpus[0] * 1000:.0f} / {statistics.median(cpus) * 1000:.0f} / "
                f"{cpus[-1] * 1000:.0f} ms, {_modules(*runs[name], edited)} modules imported ({len(walls)} runs)"
            )
    return 0


def _env(src: Path, home: Path | None = None) -> dict[str, str]:
    """The environment a sync runs in: ``src`` first on the path, and ``home`` as ``KENNING_HOME``."""
    return {**os.environ, "PYTHONPATH": str(src), **({"KENNING_HOME": str(home)} if home else {})}


def _copy(project: Path, where: Path, src: Path) -> tuple[Path, dict[str, str]]:
    """A copy of ``project`` without its store (its config kept) for the tree ``src``, and its
    environment: a ``KENNING_HOME`` of its own, so that the copies' registrations do not meet."""
    shutil.copytree(project, where / "project", symlinks=True, ignore=shutil.ignore_patterns("kenning.db*", ".venv"))
    return where / "project", _env(src, where / "home")


def _sync(project: Path, env: dict[str, str]) -> tuple[float, float]:
    """One ``kenning sync`` of ``project`` in ``env`` (``_env``): its wall and CPU seconds."""
    command = [sys.executable, "-m", "kenning", "sync", "--no-embed", "--project", str(project)]
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"kenning sync failed ({status}): {process.stderr.read().decode() if process.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime


def _modules(project: Path, env: dict[str, str], edited: Path | None) -> int:
    if edited is not None:
        with edited.open("a", encoding="utf-8") as handle:
            handle.write("\nOne more edit.\n")
    command = [sys.executable, "-X", "importtime", "-m", "kenning", "sync", "--no-embed", "--project", str(project)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return sum(1 for line in done.stderr.splitlines() if line.startswith("import time:") and "|" in line) - 1


if __name__ == "__main__":
    raise SystemExit(main())
