"""How fast a cold sync could be on this machine (not a test): the floors behind the "Cold
sync" paragraph of docs/benchmarks.md.

On the generated corpus of bench/speed.py (or a smaller one), each piece of work a cold sync
cannot skip, timed alone in one thread:
- reading the files;
- the product's parsers (``python/4``, ``markdown/2``, …), serially, and beside them the
  libraries they stand on alone (``ast.parse``, tree-sitter's Python parser, markdown-it-pyrs's
  block parser);
- SQLite FTS5 indexing the excerpts those parsers produce (word index with the product's
  tokenizer, trigram index), in memory, one transaction, nothing else in the database, with
  the fastest FTS5 setting tried (``FTS_HASHSIZE``).

Then the best wall time those floors allow on this many cores, if the parsing spread
perfectly over every core and the indexing (one writer) overlapped it entirely, and the
throughput it would give; and, in the same run on the same files, the product's cold sync
(a child process: wall time, peak RSS, each phase's wall time, its ratio to that floor), with
its CPU split between the parsing pool and the writing process, the writer's CPU after the
pool's last file (the serial tail), and the wall time that CPU allows at best on this many
cores (``cpu_bound``): how far scheduling alone could take it.

    .venv/bin/python bench/sync_floor.py [--markdown 2000 --python 2000]
    .venv/bin/python bench/sync_floor.py --dir PATH      # a copy of a real tree
    .venv/bin/python bench/sync_floor.py --django        # Django 5.0.6's source (pip download, cached)
        # (each run also times no-op resyncs of the synced tree: issue 19's must-show 4)
    .venv/bin/python bench/sync_floor.py --django --against /tmp/before/src --reps 3
        # interleaved cold syncs: a src/ exported from another commit (git archive) against this tree
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kenning.ingest.discover import discover
from kenning.ingest.markdown import _MD
from kenning.ingest.parsers import load_relations
from speed import generate

DJANGO = "django==5.0.6"

TARGET_MB_PER_S = 10.0
# FTS5 terms kept in memory before a segment is written: 64 MB indexed this corpus about a
# fifth faster than the default 1 MB, and faster than 8 MB (the product's) or than
# automerge/crisismerge changes.
FTS_HASHSIZE = 64 * 1024 * 1024
NOOP_REPS = 9  # no-op resyncs timed after the product's cold sync


def seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def each(parse: Callable[[object], object], sources: list) -> Callable[[], None]:
    """Parse every source, keeping no result (as a sync does, file by file); a source the
    library rejects (a test file with a deliberate syntax error, say) costs what it cost."""

    def work() -> None:
        for source in sources:
            try:  # noqa: SIM105 (a timed loop: no context manager per source)
                parse(source)
            except (SyntaxError, ValueError, RecursionError):
                pass

    return work


def tree_sitter_seconds(sources: list[bytes]) -> float | None:
    try:
        import tree_sitter_python
        from tree_sitter import Language, Parser
    except ImportError:
        return None
    parser = Parser(Language(tree_sitter_python.language()))
    return seconds(each(parser.parse, sources))


def index_seconds(rows: list[tuple[int, str, str, str, str]]) -> tuple[float, float]:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE words USING fts5(title, keywords, path, body, "
        "tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE grams USING fts5(title, path, tokenize = 'trigram')")  # as migration 0016
    for table in ("words", "grams"):  # the fastest settings tried (the product keeps 8 MB: memory)
        conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('hashsize', {FTS_HASHSIZE})")

    def insert(sql: str, values: list[tuple]) -> None:
        with conn:
            conn.executemany(sql, values)

    words = seconds(
        lambda: insert("INSERT INTO words (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)", rows)
    )
    grams = seconds(
        lambda: insert("INSERT INTO grams (rowid, title, path) VALUES (?, ?, ?)", [(r[0], r[1], r[3]) for r in rows])
    )
    conn.close()
    return words, grams


def django_tree(cache: Path, into: Path) -> None:
    """Django's source distribution (docs, code, tests), downloaded once with pip into ``cache``."""
    archives = sorted(cache.glob("[Dd]jango-5.0.6.tar.gz"))
    if not archives:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(cache),
                DJANGO,
            ],
            check=True,
        )
        archives = sorted(cache.glob("[Dd]jango-5.0.6.tar.gz"))
    with tarfile.open(archives[0]) as archive:
        archive.extractall(into, filter="data")


def sync_child(root: Path) -> None:
    """One cold sync at level 0 (``--no-embed``) in this process; prints its wall time and each
    phase's, summed over the sync's batches, as JSON. The phases are timed by wrapping the
    functions that do them (the progress callback names the final steps once, not per batch):
    ``discover`` = until the files are read; ``waiting for parsing`` = the main process waiting
    for the pool's next file (read + parse, while nothing is written); ``rows`` = excerpt,
    location and manifest rows; ``FTS5`` = word + trigram rows; ``graph``; ``commit``; ``other``
    = the rest (source dates, batches' set-up)."""
    from contextlib import contextmanager
    from datetime import UTC, datetime

    from kenning.config import load_project
    from kenning.ingest import read as ingest_read
    from kenning.sync import batches, run
    from kenning.sync.run import sync

    spent = {"waiting for parsing": 0.0, "rows": 0.0, "FTS5": 0.0, "graph": 0.0, "commit": 0.0}
    cpu = dict.fromkeys(spent, 0.0)  # the main thread's CPU in each phase (steadier than wall under load)
    first: list[float] = []
    tail: list[float] = []  # the writer's CPU when it took the pool's last file

    def add(name: str, begin: tuple[float, float], minus: tuple[float, float] = (0.0, 0.0)) -> None:
        spent[name] += time.perf_counter() - begin[0] - minus[0]
        cpu[name] += time.thread_time() - begin[1] - minus[1]

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
                    return
                yield item

        # The batches ask a Reading whether the next file is parsed (a tree without it: a generator).
        reading = getattr(ingest_read, "Reading", None)
        return reading(waited(), items.ready, items.start, items.close) if reading is not None else waited()

    def write_files_timed(*args: object, **kwargs: object) -> object:
        fts_before, begin = (spent["FTS5"], cpu["FTS5"]), now()
        result = write_files(*args, **kwargs)
        add("rows", begin, (spent["FTS5"] - fts_before[0], cpu["FTS5"] - fts_before[1]))
        return result

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
        batches.graph_build.resolve_held = timed("graph", resolve_held)
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
    report = {
        "wall": end - start,
        "cpu": total_cpu,
        "pool_cpu": pool_cpu,  # the parsing pool's workers (this process's children)
        "tail": time.thread_time() - tail[0] if tail else None,  # the writer's CPU after the pool's last file
        "batches": done.batches,
        "phases": phases,
        "phase_cpu": cpu,
    }
    print(json.dumps(report))


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


def noop_syncs(root: Path, reps: int = NOOP_REPS) -> list[float]:
    """No-op syncs of ``root`` (synced already) in a child process, sorted (issue 19: ≤ 0.25 s on Django)."""
    out = subprocess.run(
        [sys.executable, __file__, "--noop-child", str(root), "--reps", str(reps)], capture_output=True, check=True
    ).stdout
    return sorted(json.loads(out))


def product_sync(root: Path, pythonpath: Path | None = None) -> tuple[dict, float]:
    """The product's cold sync of ``root`` in a child process (``pythonpath``: another copy of
    ``src/`` instead of this tree's), and the child's peak RSS (MB)."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)} if pythonpath else None
    proc = subprocess.Popen([sys.executable, __file__, "--sync-child", str(root)], stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the product's sync failed")
    return json.loads(out), usage.ru_maxrss / 1024


def interleaved(root: Path, against: Path, reps: int) -> list[tuple[str, dict, float]]:
    """Cold syncs of fresh copies of ``root``, alternating ``against`` (a ``src/`` exported from
    another commit: ``git archive``) and this tree, the order swapped every repetition; each
    run printed as it ends, with the load average."""
    from kenning.config import init_project

    runs: list[tuple[str, dict, float]] = []
    for rep in range(reps):
        order: list[tuple[str, Path | None]] = [("against", against), ("this tree", None)]
        for label, pythonpath in order if rep % 2 == 0 else order[::-1]:
            copy = root.parent / f"run-{rep}-{label.replace(' ', '-')}"
            shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".kenning"))
            init_project(copy, "floor")
            report, rss = product_sync(copy, pythonpath)
            shutil.rmtree(copy)
            runs.append((label, report, rss))
            phases = ", ".join(f"{name} {spent:.2f}" for name, spent in report["phases"].items())
            if report.get("tail") is not None:
                phases += f"; CPU pool {report['pool_cpu']:.2f}, writer alone after the pool {report['tail']:.2f}"
            phases += "; CPU " + ", ".join(f"{name} {spent:.2f}" for name, spent in report["phase_cpu"].items())
            print(
                f"  {rep + 1} {label:9}: {report['wall']:6.2f} s, CPU {report['cpu']:6.2f} s, peak RSS {rss:4.0f} MB, "
                f"{report['batches']} batches "
                f"(load {os.getloadavg()[0]:.1f}; {phases})",
                flush=True,
            )
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--dir", type=Path, help="a copy of this directory instead of the generated corpus")
    parser.add_argument("--django", action="store_true", help=f"{DJANGO}'s source tree instead")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench")
    parser.add_argument("--sync-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--noop-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--against", type=Path, help="a src/ exported from another commit: interleaved cold syncs")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each side with --against")
    args = parser.parse_args()
    if args.sync_child:
        sync_child(args.sync_child)
        return
    if args.noop_child:
        noop_child(args.noop_child, args.reps)
        return
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-floor-home-"))
    gc.disable()  # as during a sync (sync/run.py): parsing makes no cyclic garbage
    with tempfile.TemporaryDirectory(prefix="kenning-sync-floor-") as tmp:
        root = Path(tmp) / "corpus"
        if args.django:
            django_tree(args.cache, Path(tmp) / "django")
            (Path(tmp) / "django").rename(root)
            label = f"{DJANGO} source distribution"
        elif args.dir:
            shutil.copytree(args.dir, root, symlinks=True, ignore=shutil.ignore_patterns(".kenning", ".venv", ".git"))
            label = f"copy of {args.dir}"
        else:
            root.mkdir()
            generate(root, args.markdown, args.python)
            label = f"generated: {args.markdown} Markdown + {args.python} Python files"
        from kenning.config import init_project

        project, _ = init_project(root, "floor")
        candidates = discover(project).candidates  # the files the product's sync reads
        # The product's sync first, while this process is small: a child's peak RSS counts
        # the parent's pages it shares between fork and exec.
        if args.against:
            print(f"interleaved cold syncs, {args.against} against this tree:")
            runs = interleaved(root, args.against, args.reps)
            best, mb = floor(label, candidates)
            for side in ("against", "this tree"):
                walls = sorted(report["wall"] for name, report, _ in runs if name == side)
                peaks = sorted(rss for name, _, rss in runs if name == side)
                cpus = sorted(report["cpu"] for name, report, _ in runs if name == side)
                print(
                    f"{side:9}: wall min/median/max {walls[0]:.2f} / {walls[len(walls) // 2]:.2f} / {walls[-1]:.2f} s"
                    f" ({walls[len(walls) // 2] / best:.2f}x the floor), CPU {cpus[0]:.2f} / {cpus[len(cpus) // 2]:.2f}"
                    f" / {cpus[-1]:.2f} s, peak RSS {peaks[0]:.0f}-{peaks[-1]:.0f} MB"
                )
            return
        report, rss = product_sync(root)
        best, mb = floor(label, candidates)
        print(
            f"product cold sync, same files (child process): {report['wall']:.2f} s = "
            f"{mb / report['wall']:.1f} MB/s, {report['wall'] / best:.2f}x the floor; CPU {report['cpu']:.2f} s; "
            f"peak RSS {rss:.0f} MB"
        )
        print(f"  {'phase':40} {'wall':>8} {'share':>7} {'main thread CPU':>16}")
        for phase, spent in report["phases"].items():
            phase_cpu = report["phase_cpu"].get(phase)
            shown = f"{phase_cpu:14.2f} s" if phase_cpu is not None else ""
            print(f"  {phase:40} {spent:6.2f} s {100 * spent / report['wall']:5.1f} % {shown}")
        print(f"  {'main thread, in all':40} {'':17} {report['phase_cpu']['main thread']:14.2f} s")
        print(cpu_bound(report, best))
        noop = noop_syncs(root)
        print(
            f"no-op resync of the same tree, in process ({len(noop)} runs): min / median / max "
            f"{noop[0]:.3f} / {noop[len(noop) // 2]:.3f} / {noop[-1]:.3f} s"
        )


def cpu_bound(report: dict, best: float) -> str:
    """The CPU the sync spent (the pool's and the writing process's) and the wall time it allows
    at best on this machine's cores: everything before the pool's last file spread over every
    core, then the writer's serial tail (its CPU from there: resolving the references, the
    last commit) alone."""
    cores = os.cpu_count() or 1
    if report.get("tail") is None or not report["pool_cpu"]:  # a small tree, parsed without a pool
        return f"CPU {report['cpu']:.2f} s in one process"
    tail = report["tail"]
    bound = (report["cpu"] - tail) / cores + tail
    return (
        f"CPU: pool {report['pool_cpu']:.2f} s, writing process {report['cpu'] - report['pool_cpu']:.2f} s, of which "
        f"{tail:.2f} s alone after the pool's last file; at this CPU {cores} cores allow no less than "
        f"{bound:.2f} s = {bound / best:.2f}x the floor"
    )


def floor(label: str, candidates: list) -> tuple[float, float]:
    """Time each floor on the candidates' text and print them; the best wall time and MB."""
    texts: dict[str, str] = {}
    read = seconds(
        lambda: texts.update((c.path, c.abs_path.read_bytes().decode("utf-8", errors="replace")) for c in candidates)
    )
    size = sum(len(t.encode()) for t in texts.values())
    by_kind: dict[str, list[str]] = {}
    for c in candidates:
        by_kind.setdefault(c.parser, []).append(c.path)

    rows: list[tuple[int, str, str, str, str]] = []
    parse_times: dict[str, float] = {}
    for kind, group in sorted(by_kind.items()):
        parse = load_relations(kind)
        start = time.perf_counter()
        for path in group:
            try:
                chunks, _ = parse(texts[path], path)
            except (RecursionError, ValueError, UnicodeError, MemoryError):
                continue  # skipped by the product too
            rows.extend((len(rows) + 1, c.title, c.keywords, path, c.body) for c in chunks)
        parse_times[kind] = time.perf_counter() - start

    python_sources = [texts[p] for kind, group in by_kind.items() if kind.startswith("python/") for p in group]
    markdown_sources = [texts[p] for kind, group in by_kind.items() if kind.startswith("markdown/") for p in group]
    floors = {
        "ast.parse": seconds(each(ast.parse, python_sources)),
        "tree-sitter python": tree_sitter_seconds([s.encode() for s in python_sources]),
        "markdown-it-pyrs blocks": seconds(each(_MD.tree, markdown_sources)),
    }
    words, grams = index_seconds(rows)

    mb = size / 1e6
    cores = os.cpu_count() or 1
    parse_total = sum(parse_times.values())
    indexing = words + grams
    best = max((read + parse_total + indexing) / cores, indexing)
    print(
        f"corpus: {label}, {len(texts)} files, {mb:.1f} MB, {len(rows)} excerpts; "
        f"{cores} cores; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"  {'read the files':40} {read:6.2f} s  {mb / read:7.1f} MB/s")
    for kind, spent in parse_times.items():
        kind_mb = sum(len(texts[p].encode()) for p in by_kind[kind]) / 1e6
        print(f"  {'product parser ' + kind:40} {spent:6.2f} s  {kind_mb / spent:7.1f} MB/s  ({kind_mb:.1f} MB)")
    python_mb = sum(len(s.encode()) for s in python_sources) / 1e6
    markdown_mb = sum(len(s.encode()) for s in markdown_sources) / 1e6
    for name, spent in floors.items():
        if spent is None:
            print(f"  {name + ' alone':40}      -   (not installed)")
            continue
        share = markdown_mb if name.startswith("markdown") else python_mb
        print(f"  {name + ' alone':40} {spent:6.2f} s  {share / max(spent, 1e-9):7.1f} MB/s")
    print(f"  {'FTS5 word index (porter), in memory':40} {words:6.2f} s  {mb / words:7.1f} MB/s")
    print(f"  {'FTS5 trigram index, in memory':40} {grams:6.2f} s")
    print(f"indexing alone (SQLite has one writer): {indexing:.2f} s = {mb / indexing:.1f} MB/s")
    print(
        f"best wall time these floors allow on {cores} cores: {best:.2f} s = {mb / best:.1f} MB/s "
        f"(target {TARGET_MB_PER_S:g} MB/s = {mb / TARGET_MB_PER_S:.2f} s); without excerpt rows, "
        "graph, dedup or commit"
    )
    return best, mb


if __name__ == "__main__":
    main()
