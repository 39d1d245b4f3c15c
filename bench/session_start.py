"""Time `kenning hook session-start` end to end, as an agent host runs it (a new process).

Usage: .venv/bin/python bench/session_start.py [--runs 50] [--project PATH]

Without --project, a temporary copy of tests/fixtures/core_corpus is initialised, synced and
its pack built. Prints p50/p95 wall and CPU time of the hook, next to two baselines measured the same
way (a bare interpreter, and `kenning --version`, which pays for the CLI's imports), and the
machine it ran on. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kenning.bench.speed import quantile

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fixtures" / "core_corpus"
KENNING = Path(sys.executable).with_name("kenning")


def timed(cmd: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) milliseconds of each run. CPU time is the steadier figure
    on a busy machine; wall time is what the agent waits for."""
    subprocess.run(cmd, check=True, capture_output=True, env=env)  # warm the file cache
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, env=env)
        wall.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()}")
    return wall, cpu


def line(name: str, measured: tuple[list[float], list[float]]) -> str:
    wall, cpu = measured
    return (
        f"{name:<28} wall p50 {statistics.median(wall):6.1f} ms  p95 {quantile(wall, 0.95):6.1f} ms  "
        f"min {min(wall):6.1f} ms · cpu p50 {statistics.median(cpu):6.1f} ms  p95 {quantile(cpu, 0.95):6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--project", type=Path, default=None)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="kenning-bench-"))
    env = {**os.environ, "KENNING_HOME": str(workdir / "home")}
    env.pop("CLAUDE_PROJECT_DIR", None)
    try:
        project = args.project
        if project is None:
            project = workdir / "corpus"
            shutil.copytree(CORPUS, project)
            for step in (["init", "--project", str(project)], ["sync", "--project", str(project)]):
                subprocess.run([str(KENNING), *step], check=True, capture_output=True, env=env)
        subprocess.run(
            [str(KENNING), "pack", "build", "--project", str(project)], check=True, capture_output=True, env=env
        )
        hook = [str(KENNING), "hook", "session-start", "--project", str(project)]
        pack_size = (project / ".kenning" / "cache" / "pack.md").stat().st_size
        print(
            f"machine: {platform.platform()} · {os.cpu_count()} CPU(s) · Python {platform.python_version()} · "
            f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        print(f"project: {project} · pack {pack_size} bytes · {args.runs} runs each")
        print(line("python -c pass", timed([sys.executable, "-c", "pass"], args.runs, env)))
        print(line("kenning --version", timed([str(KENNING), "--version"], args.runs, env)))
        print(line("kenning hook session-start", timed(hook, args.runs, env)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
