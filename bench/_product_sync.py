"""The product's cold sync and no-op resyncs of a tree, each in a child process of its own,
timed phase by phase (not a test): what ``bench/sync_floor.py`` sets beside its floor.

A child runs this file (``--sync-child ROOT [--pinned]`` or ``--noop-child ROOT --reps N``) and prints
JSON; the parent's helpers (``product_sync``, ``noop_syncs``) start it and read that back, and
``cpu_bound`` turns a report into the least wall time its CPU allows. This module imports
kenning only inside the children, so that ``PYTHONPATH`` can point a child at another commit's
``src/`` (``sync_floor.py --against``).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

NOOP_REPS = 9  # no-op resyncs timed after the product's cold sync
THIS_SRC = Path(__file__).resolve().parents[1] / "src"
_COMPILED: set[Path] = set()


def sync_child(root: Path, pinned: bool = False) -> None:
    """One cold sync at level 0 (``--no-embed``) in this process; prints its wall time and each
    phase's, summed over the sync's batches, as JSON. The phases are timed by wrapping the
    functions that do them (the progress callback names the final steps once, not per batch):
    ``discover`` = until the files are read; ``waiting for parsing`` = the main process waiting
    for the pool's next file (read + parse, while nothing is written); ``rows`` = excerpt,
    location and manifest rows; ``FTS5`` = word + trigram rows; ``graph`` = the batches' graph
    passes; ``resolution`` = a cold sync's references resolved after its last batch (its edges'
    indexes built again included); ``commit``; ``other`` = the rest (source dates, batches'
    set-up). ``tail_cpu``: the main thread's CPU in each phase after the pool's last file (the
    serial tail), the edges' indexes apart. ``pinned``: the process, and the pool it forks, kept on one
    core (``pin_to_one_core``)."""
    if pinned:
        pin_to_one_core()
    from contextlib import contextmanager
    from datetime import UTC, datetime

    from kenning.config import load_project
    from kenning.ingest import read as ingest_read
    from kenning.store import graph_write
    from kenning.sync import batches, run
    from kenning.sync.run import sync

    spent = {"waiting for parsing": 0.0, "rows": 0.0, "FTS5": 0.0, "graph": 0.0, "resolution": 0.0, "commit": 0.0}
    cpu = dict.fromkeys(spent, 0.0)  # the main thread's CPU in each phase (steadier than wall under load)
    first: list[float] = []
    tail: list[float] = []  # the writer's CPU when it took the pool's last file
    tail_began: list[float] = []  # and the wall clock then

    tail_cpu: dict[str, float] = {}  # the main thread's CPU per phase after the pool's last file

    def add(name: str, begin: tuple[float, float], minus: tuple[float, float] = (0.0, 0.0)) -> None:
        spent[name] += time.perf_counter() - begin[0] - minus[0]
        used = time.thread_time() - begin[1] - minus[1]
        cpu[name] += used
        if tail and begin[1] >= tail[0]:  # begun after the pool's last file: the serial tail
            tail_cpu[name] = tail_cpu.get(name, 0.0) + used

    def now() -> tuple[float, float]:
        return time.perf_counter(), time.thread_time()

    def timed(name: str, work: Callable) -> Callable:
        def wrapper(*args: object, **kwargs: object) -> object:
            begin = now()
            try:
                return work(*args, **kwargs)
            finally:
                add(name, begin)

        return wrapper

    read_all = run.read_all
    write_files, index_fts, graph_apply, transaction = (
        batches._write_files,
        batches.fact_store.index_fts_rows,
        batches.graph_build.apply,
        batches.transaction,
    )

    def read_all_timed(*args: object, **kwargs: object) -> object:
        first.append(time.perf_counter())
        items = iter(read_all(*args, **kwargs))

        def waited() -> object:
            while True:
                begin = now()
                item = next(items, None)
                add("waiting for parsing", begin)
                if item is None:
                    tail.append(time.thread_time())  # the pool's last file taken: the serial tail begins
                    tail_began.append(time.perf_counter())
                    return
                yield item

        # The batches ask a Reading whether the next file is parsed (a tree without it: a generator).
        reading = getattr(ingest_read, "Reading", None)
        if reading is None:
            return waited()
        offload = getattr(items, "offload", None)  # a tree whose pool helps resolve the graph (graph.helper)
        if offload is not None:
            return reading(waited(), items.ready, items.start, items.close, offload)
        return reading(waited(), items.ready, items.start, items.close)

    def write_files_timed(*args: object, **kwargs: object) -> object:
        fts_before, begin = (spent["FTS5"], cpu["FTS5"]), now()
        result = write_files(*args, **kwargs)
        add("rows", begin, (spent["FTS5"] - fts_before[0], cpu["FTS5"] - fts_before[1]))
        return result

    @contextmanager
    def indexes_timed(conn: object):  # noqa: ANN202
        """The edges' indexes built again after a resolution: timed apart (inside "resolution")."""
        with indexes_after(conn) as inner:
            yield inner
            begin = now()
        used = time.thread_time() - begin[1]
        if tail and begin[1] >= tail[0]:
            tail_cpu["of which edge indexes"] = tail_cpu.get("of which edge indexes", 0.0) + used

    @contextmanager
    def transaction_timed(conn: object):  # noqa: ANN202
        with transaction(conn) as inner:
            yield inner
            begin = now()
        add("commit", begin)

    run.read_all = read_all_timed
    batches._write_files = write_files_timed
    batches.fact_store.index_fts_rows = timed("FTS5", index_fts)
    batches.graph_build.apply = timed("graph", graph_apply)
    resolve_held = getattr(batches.graph_build, "resolve_held", None)  # a cold sync's own resolution
    if resolve_held is not None:
        batches.graph_build.resolve_held = timed("resolution", resolve_held)
    indexes_after = getattr(graph_write, "edge_indexes_built_after", None)
    if indexes_after is not None:
        graph_write.edge_indexes_built_after = indexes_timed
    batches.transaction = transaction_timed
    start, start_cpu = time.perf_counter(), time.thread_time()
    own_before = sum(getattr(resource.getrusage(resource.RUSAGE_SELF), f) for f in ("ru_utime", "ru_stime"))
    try:
        done = sync(load_project(root), now=datetime.now(UTC), embed=False)
    finally:
        batches._write_files, batches.fact_store.index_fts_rows = write_files, index_fts
        batches.graph_build.apply, batches.transaction = graph_apply, transaction
        if resolve_held is not None:
            batches.graph_build.resolve_held = resolve_held
        if indexes_after is not None:
            graph_write.edge_indexes_built_after = indexes_after
        run.read_all = read_all
    end = time.perf_counter()
    pool_cpu, own_cpu = (
        sum(getattr(resource.getrusage(who), f) for f in ("ru_utime", "ru_stime"))
        for who in (resource.RUSAGE_CHILDREN, resource.RUSAGE_SELF)
    )
    own_cpu -= own_before  # this process's start-up and imports are not the sync's
    total_cpu = pool_cpu + own_cpu
    phases = {"discover": (first[0] if first else end) - start, **spent}
    phases["other"] = end - start - sum(phases.values())
    cpu["main thread"] = time.thread_time() - start_cpu
    if tail:  # the tail's CPU no timed phase holds: batches' set-up, source dates, the run's record
        timed_cpu = sum(used for name, used in tail_cpu.items() if not name.startswith("of which"))
        tail_cpu["other"] = time.thread_time() - tail[0] - timed_cpu
    report = {
        "wall": end - start,
        "cpu": total_cpu,
        "pool_cpu": pool_cpu,  # the parsing pool's workers (this process's children)
        "tail": time.thread_time() - tail[0] if tail else None,  # the writer's CPU after the pool's last file
        "tail_cpu": tail_cpu,
        "tail_wall": end - tail_began[0] if tail_began else None,  # the tail's wall time
        "batches": done.batches,
        "phases": phases,
        "phase_cpu": cpu,
    }
    print(json.dumps(report))


def pin_to_one_core() -> None:
    """Keep this process and the processes it forks on one core. The pool still has a worker per
    core the machine has (``os.cpu_count`` is unchanged), but they take turns with the writer
    instead of running beside it: the sync's CPU is then the work alone, without what two busy
    cores cost each other on a shared VM (the same parsing spread from 1.4 to 2.1x one process's
    speed on two processes between rounds here), and ``writer_per_pool`` compares a change on the
    writing side by a ratio the machine's speed of the moment mostly cancels out of."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def noop_child(root: Path, reps: int) -> None:
    """``reps`` syncs of a tree synced already (nothing to do) in this process; prints the
    seconds of each, as JSON."""
    from datetime import UTC, datetime

    from kenning.config import load_project
    from kenning.sync.run import sync

    project = load_project(root)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        sync(project, now=datetime.now(UTC), embed=False)
        times.append(time.perf_counter() - start)
    print(json.dumps(times))


def noop_syncs(
    root: Path, reps: int = NOOP_REPS, pythonpath: Path | None = None, env: dict[str, str] | None = None
) -> list[float]:
    """No-op syncs of ``root`` (synced already) in a child process, sorted (issue 19: ≤ 0.25 s on Django);
    ``pythonpath``: another copy of ``src/`` instead of this tree's; ``env``: the child's environment."""
    child_env = _child_env(pythonpath, os.environ if env is None else env)
    out = subprocess.run(
        [sys.executable, __file__, "--noop-child", str(root), "--reps", str(reps)],
        capture_output=True,
        check=True,
        env=child_env,
    ).stdout
    return sorted(json.loads(out))


def product_sync(root: Path, pythonpath: Path | None = None, *, pinned: bool = False) -> tuple[dict, float]:
    """The product's cold sync of ``root`` in a child process (``pythonpath``: another copy of
    ``src/`` instead of this tree's; ``pinned``: on one core, ``pin_to_one_core``), and the
    child's peak RSS (MB)."""
    env = _child_env(pythonpath, os.environ)
    command = [sys.executable, __file__, "--sync-child", str(root), *(["--pinned"] if pinned else [])]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the product's sync failed")
    return json.loads(out), usage.ru_maxrss / 1024


def _child_env(pythonpath: Path | None, base: Mapping[str, str]) -> dict[str, str]:
    """A child's environment: ``PYTHONPATH`` at ``pythonpath`` when given, and its modules' bytecode
    compiled beforehand and read from there, as an installed kenning's is. Without it, a shell with
    ``PYTHONDONTWRITEBYTECODE`` (this machine's) made every sync compile again each module it
    imports whose bytecode was stale or missing, the parsers once in each pool worker: the writing
    half, the graph and the parsers, 166 of this tree's 271 modules on 2026-12-05."""
    src = pythonpath or THIS_SRC
    if src not in _COMPILED:
        compileall.compile_dir(src, quiet=1)
        _COMPILED.add(src)
    env = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    return env


def bound_seconds(report: dict) -> float:
    """The least wall time the sync's CPU (the pool's and the writing process's) allows on this
    machine's cores: everything before the pool's last file spread over every core, then the
    writer's serial tail (its CPU from there: resolving the references, the last commit) alone.
    A small tree, parsed without a pool, is one process: its CPU."""
    if report.get("tail") is None or not report["pool_cpu"]:
        return report["cpu"]
    return (report["cpu"] - report["tail"]) / (os.cpu_count() or 1) + report["tail"]


def cpu_bound(report: dict, best: float) -> str:
    """``bound_seconds`` and the CPU behind it, against the floor's ``best`` wall time."""
    if report.get("tail") is None or not report["pool_cpu"]:
        return f"CPU {report['cpu']:.2f} s in one process"
    bound = bound_seconds(report)
    return (
        f"CPU: pool {report['pool_cpu']:.2f} s, writing process {report['cpu'] - report['pool_cpu']:.2f} s, of which "
        f"{report['tail']:.2f} s alone after the pool's last file; at this CPU {os.cpu_count() or 1} cores allow "
        f"no less than {bound:.2f} s = {bound / best:.2f}x the floor"
    )


def describe(report: dict) -> str:
    """One run's phases (wall), its CPU split and the main thread's CPU per phase, on one line."""
    phases = ", ".join(f"{name} {spent:.2f}" for name, spent in report["phases"].items())
    if report.get("tail") is not None:
        phases += f"; CPU pool {report['pool_cpu']:.2f}, writer alone after the pool {report['tail']:.2f}"
        if report.get("tail_cpu"):
            named = ", ".join(f"{name} {used:.2f}" for name, used in report["tail_cpu"].items())
            phases += f" ({named})"
        if report.get("tail_wall") is not None:
            phases += f"; tail wall {report['tail_wall']:.2f}"
    return phases + "; CPU " + ", ".join(f"{name} {spent:.2f}" for name, spent in report["phase_cpu"].items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sync-child", type=Path)
    parser.add_argument("--noop-child", type=Path)
    parser.add_argument("--reps", type=int, default=NOOP_REPS)
    parser.add_argument("--pinned", action="store_true", help="--sync-child on one core (pin_to_one_core)")
    args = parser.parse_args()
    if args.sync_child:
        sync_child(args.sync_child, args.pinned)
    elif args.noop_child:
        noop_child(args.noop_child, args.reps)
    else:
        parser.error("--sync-child ROOT or --noop-child ROOT: this file is run by bench/sync_floor.py")


if __name__ == "__main__":
    main()
