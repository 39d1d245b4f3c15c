"""A small tree's cold index under two versions of kenning, alternated (not a test).

Times ``kenning init --sync --no-embed`` (the command ``bench/peers.py`` times) on a fresh copy
of the corpus with a fresh ``KENNING_HOME`` each run, the console script's path, with
``PYTHONPATH`` at each ``src`` folder in turn (A, B, B, A, …), and prints wall and CPU seconds
(the command's and its waited-for children's: the parsing pool) per arm, with the load average
after each pair. The corpus is ``bench/peers.py``'s at ``--scale`` (1: the Node.js + npm docs,
155 Markdown files, 4.1 MB), or ``--corpus DIR``.

    git -C . archive <base> src | tar -x -C /tmp/before
    .venv/bin/python bench/cold_ab.py --pairs 12 before=/tmp/before/src after=$PWD/src
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import peers  # noqa: E402  (the corpus, made as the comparison with qmd makes it)

COMMAND = "import sys; from kenning.interfaces.cli.entry import run; sys.argv[0] = 'kenning'; sys.exit(run())"


def one_run(corpus: Path, src: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one cold index of a copy of ``corpus`` with kenning from ``src``."""
    with tempfile.TemporaryDirectory(prefix="kenning-cold-ab-") as tmp:
        work = Path(tmp)
        shutil.copytree(corpus, work / "corpus")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(HOME=str(work), KENNING_HOME=str(work / "kenning"), NO_COLOR="1", PYTHONPATH=src)
        args = ["init", "--sync", "--no-embed", "--project", str(work / "corpus"), "--name", "cold"]
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", COMMAND, *args], env=env, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"kenning from {src} failed on {corpus}")
        return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("arms", nargs=2, metavar="NAME=SRC")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--corpus", type=Path)
    args = parser.parse_args()
    arms = dict(arm.split("=", 1) for arm in args.arms)
    with tempfile.TemporaryDirectory(prefix="kenning-cold-ab-corpus-") as tmp:
        corpus = args.corpus or Path(tmp) / "corpus"
        if args.corpus is None:
            peers.make_corpus(corpus, peers.corpus_files(), args.scale)
        for src in arms.values():  # each arm's bytecode written once, outside the timed runs
            one_run(corpus, src)
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in arms}
        loads = []
        for pair in range(args.pairs):
            for name in list(arms) if pair % 2 == 0 else list(arms)[::-1]:
                runs[name].append(one_run(corpus, arms[name]))
            loads.append(os.getloadavg()[0])
    for name, timed in runs.items():
        walls, cpus = [w for w, _ in timed], [c for _, c in timed]
        print(
            f"{name:8} wall median {statistics.median(walls):.3f} s [{' '.join(f'{w:.3f}' for w in walls)}]"
            f"  CPU median {statistics.median(cpus):.3f} s [{' '.join(f'{c:.3f}' for c in cpus)}]"
        )
    print("load average after each pair: " + " ".join(f"{load:.2f}" for load in loads))


if __name__ == "__main__":
    main()
