"""`make demo`'s sync again and again, until the vector index is complete (not a test): the
figures of "densesave" in docs/benchmarks.md.

This repository's committed files are cloned twice (``git clone`` of HEAD) into ``--work``; each
clone is synced by `kenning sync --json` as `make demo` runs it (default budget: 1.75 × the
lexical part, at least 15 s), one by this tree's ``src/`` and one by ``--against`` (a ``src/``
exported from another commit), alternated sync by sync, each with a KENNING_HOME of its own,
until both indexes are complete or ``--syncs`` runs. Each line: per model, excerpts embedded of
the total (+ added in this sync, its seconds), the sync's wall and CPU seconds, the load average.

    git archive <commit> src | tar -x -C /tmp/before
    .venv/bin/python bench/demo_syncs.py --against /tmp/before/src --work /tmp/demo-syncs
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import REPO

RUN = "import sys; from kenning.interfaces.cli.entry import run; sys.argv[0] = 'kenning'; run()"


def kenning(src: Path, home: Path, root: Path, *args: str) -> tuple[str, float, float]:
    """stdout, wall seconds and CPU seconds (user + system, children included) of one command."""
    env = {**os.environ, "PYTHONPATH": str(src), "KENNING_HOME": str(home)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN, *args], env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    out = proc.stdout.read().decode() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"kenning {' '.join(args)} failed under {src}")
    return out, time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="a src/ exported from another commit")
    parser.add_argument("--work", type=Path, required=True, help="a folder for the clones and their homes")
    parser.add_argument("--syncs", type=int, default=30, help="at most this many syncs of each tree")
    args = parser.parse_args()
    trees = {"this": REPO / "src", "against": args.against.resolve()}
    shutil.rmtree(args.work, ignore_errors=True)
    for name, src in trees.items():
        root = args.work / name
        subprocess.run(["git", "clone", "-q", str(REPO), str(root)], check=True)
        kenning(src, args.work / f"home-{name}", root, "init", "--project", ".", "--name", "kenning-demo")
    complete: dict[str, int] = {}
    first: dict[str, dict[str, int]] = {name: {} for name in trees}  # the sync that completed each model's index
    for number in range(1, args.syncs + 1):
        for name, src in trees.items():
            if name in complete:
                continue
            home, root = args.work / f"home-{name}", args.work / name
            out, wall, cpu = kenning(src, home, root, "sync", "--project", ".", "--json")
            dense = json.loads(out)["dense"]
            models = dense["embedders"]
            parts = ", ".join(
                f"{model} {e['embedded']}/{e['total']} (+{e['added']} in {e['seconds']} s)"
                for model, e in models.items()
            )
            load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
            print(f"sync {number:2d} {name:7s}: {parts}; {wall:.1f} s wall, {cpu:.1f} s CPU; load {load}", flush=True)
            for model, e in models.items():
                if e["embedded"] == e["total"]:
                    first[name].setdefault(model, number)
            if all(e["embedded"] == e["total"] for e in models.values()):
                complete[name] = number
        if len(complete) == len(trees):
            break
    for name in trees:
        done = ", ".join(f"{model} after sync {n}" for model, n in first[name].items()) or "none"
        print(f"{name}: indexes complete: {done}" + ("" if name in complete else " (not all)"))


if __name__ == "__main__":
    main()
