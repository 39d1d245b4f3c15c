"""How fast a cold sync could be on this machine (not a test): the floors behind the "Cold
sync" paragraph of docs/benchmarks.md.

On the generated corpus of bench/speed.py (or a smaller one), each piece of work a cold sync
cannot skip, timed alone in one thread:
- reading the files;
- the product's parsers (``python/5``, ``markdown/3``, …), serially, and beside them the
  libraries they stand on alone (``ast.parse``, tree-sitter's Python parser, the Markdown block
  parser: markdown-it-pyrs's, or markdown-it-py's where it is not installed);
- SQLite FTS5 indexing the excerpts those parsers produce (word index with the product's
  tokenizer, trigram index), in memory, one transaction, nothing else in the database, with
  the fastest FTS5 setting tried (``FTS_HASHSIZE``).

Then the best wall time those floors allow on this many cores, if the parsing spread
perfectly over every core and the indexing (one writer) overlapped it entirely, and the
throughput it would give. Beside it, the same parsers run on that many processes at once
(``parallel_parse_seconds``): how many times one process's speed the cores gave in that round
(a shared VM's second core may run well under full speed). That figure only helps read a
round's ratio; the floor stays the one above. And, in the same run on the same files, the product's cold sync
(a child process, ``bench/_product_sync.py``: wall time, peak RSS, each phase's wall time,
its ratio to that floor), with its CPU split between the parsing pool and the writing process,
the writer's CPU after the pool's last file (the serial tail, broken down by phase: a cold
sync's resolution and the edges' indexes apart), and the wall time that CPU allows at best on
this many cores (``cpu_bound``): how far scheduling alone could take it.

    .venv/bin/python bench/sync_floor.py [--markdown 2000 --python 2000]
    .venv/bin/python bench/sync_floor.py --dir PATH      # a copy of a real tree
    .venv/bin/python bench/sync_floor.py --django        # Django 5.0.6's source (pip download, cached)
        # (each run also times no-op resyncs of the synced tree: issue 19's must-show 4)
    .venv/bin/python bench/sync_floor.py --django --reps 5
        # five rounds of the product's sync and the floor in turn: the ratios' median (a shared,
        # noisy machine moves one round's ratio by a tenth or more)
    .venv/bin/python bench/sync_floor.py --django --against /tmp/before/src
        # interleaved cold syncs: a src/ exported from another commit (git archive) against this tree,
        # 6 pairs by default (single runs of one tree spread over 6.4-9.1 s here, and four pairs of
        # identical code once differed by 0.9 s: a sub-second claim wants a copy of this tree against
        # itself beside it; docs/benchmarks.md, tenth session of issue 19)
    .venv/bin/python bench/sync_floor.py --django --against /tmp/before/src --pinned
        # the same, each sync on one core (its pool too): wall times mean little then, but the
        # writing process's CPU per pool CPU (``writer/pool``, the pool's work being the same on
        # both sides) resolves a change on the writing side to a few hundredths where the wall
        # times of unpinned pairs spread by a second (thirty-fourth session of issue 19)
"""

from __future__ import annotations

import argparse
import ast
import gc
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from _common import DJANGO, SDIST_CACHE, fetch_sdist
from _product_sync import bound_seconds, cpu_bound, describe, noop_syncs, product_sync
from kenning.ingest import markdown_blocks
from kenning.ingest.discover import discover
from kenning.ingest.parsers import load_relations
from speed import generate

TARGET_MB_PER_S = 10.0
AGAINST_PAIRS = 6  # --against's default: fewer pairs do not resolve a second on a shared 2-core VM
# FTS5 terms kept in memory before a segment is written: 64 MB indexed this corpus about a
# fifth faster than the default 1 MB, and faster than 8 MB (the product's) or than
# automerge/crisismerge changes.
FTS_HASHSIZE = 64 * 1024 * 1024


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


# The sources ``parallel_parse_seconds`` hands its forked workers (they inherit them, unpickled).
_SOURCES: list[tuple[str, str, str]] = []


def _parse_share(indexes: range) -> None:
    for index in indexes:
        kind, path, text = _SOURCES[index]
        try:  # noqa: SIM105 (a timed loop)
            load_relations(kind)(text, path)
        except (RecursionError, ValueError, UnicodeError, MemoryError):
            pass


def parallel_parse_seconds(sources: list[tuple[str, str, str]], cores: int) -> float:
    """The product's parsers over ``sources`` ((parser, path, text)) on ``cores`` processes at
    once, each taking every ``cores``-th file: the wall time. Beside the same parsing in one
    process it says how much of two cores this machine gave during the round (a shared VM's
    second core may run its work well under full speed; the floor assumes it does not)."""
    _SOURCES[:] = sources
    try:
        with ProcessPoolExecutor(cores, mp_context=get_context("fork"), initializer=gc.disable) as pool:
            list(pool.map(_parse_share, [range(0)] * cores))  # started, the parsers imported
            start = time.perf_counter()
            list(pool.map(_parse_share, [range(k, len(sources), cores) for k in range(cores)]))
            return time.perf_counter() - start
    finally:
        _SOURCES.clear()


def tree_sitter_seconds(sources: list[bytes]) -> float | None:
    try:
        import tree_sitter_python
        from tree_sitter import Language, Parser
    except ImportError:
        return None
    parser = Parser(Language(tree_sitter_python.language()))
    return seconds(each(parser.parse, sources))


def _markdown_blocks_alone() -> Callable[[str], object]:
    """The Markdown block parser the product uses, called alone: markdown-it-pyrs' tree, or
    markdown-it-py's tokens where it is not installed (``ingest.markdown_blocks``)."""
    native = markdown_blocks.NATIVE
    return native.tree if native is not None else markdown_blocks.python_blocks


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


def interleaved(root: Path, against: Path, reps: int, *, pinned: bool = False) -> list[tuple[str, dict, float]]:
    """Cold syncs of fresh copies of ``root``, alternating ``against`` (a ``src/`` exported from
    another commit: ``git archive``) and this tree, the order swapped every repetition; each
    run printed as it ends, with the load average. ``pinned``: each on one core
    (``_product_sync.pin_to_one_core``)."""
    from kenning.config import init_project

    runs: list[tuple[str, dict, float]] = []
    for rep in range(reps):
        order: list[tuple[str, Path | None]] = [("against", against), ("this tree", None)]
        for label, pythonpath in order if rep % 2 == 0 else order[::-1]:
            copy = root.parent / f"run-{rep}-{label.replace(' ', '-')}"
            shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".kenning"))
            init_project(copy, "floor")
            report, rss = product_sync(copy, pythonpath, pinned=pinned)
            shutil.rmtree(copy)
            runs.append((label, report, rss))
            print(
                f"  {rep + 1} {label:9}: {report['wall']:6.2f} s, CPU {report['cpu']:6.2f} s "
                f"(writer/pool {writer_per_pool(report):.3f}), peak RSS {rss:4.0f} MB, "
                f"{report['batches']} batches (load {os.getloadavg()[0]:.1f}; {describe(report)})",
                flush=True,
            )
    return runs


def writer_per_pool(report: dict) -> float:
    """The writing process's CPU per CPU second of the parsing pool (its workers, the helper's
    share of the resolution included): for two trees whose pools do the same work, which
    writes at less CPU, the machine's speed of the moment mostly cancelled out."""
    return (report["cpu"] - report["pool_cpu"]) / report["pool_cpu"] if report["pool_cpu"] else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--dir", type=Path, help="a copy of this directory instead of the generated corpus")
    parser.add_argument("--django", action="store_true", help=f"{DJANGO}'s source tree instead")
    parser.add_argument("--cache", type=Path, default=SDIST_CACHE)
    parser.add_argument("--against", type=Path, help="a src/ exported from another commit: interleaved cold syncs")
    parser.add_argument(
        "--pinned", action="store_true", help="with --against: each sync on one core, compared by writer/pool CPU"
    )
    parser.add_argument(
        "--reps",
        type=int,
        help="repetitions: of each side with --against (default 6); else rounds of the product's sync and "
        "the floor, each in turn, and their ratios' median (default 1)",
    )
    args = parser.parse_args()
    if args.pinned and not args.against:
        parser.error("--pinned compares two trees: give --against too")
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-floor-home-"))
    gc.disable()  # as during a sync (sync/run.py): parsing makes no cyclic garbage
    with tempfile.TemporaryDirectory(prefix="kenning-sync-floor-") as tmp:
        root = Path(tmp) / "corpus"
        if args.django:
            shutil.copytree(fetch_sdist(*DJANGO, args.cache), root, symlinks=True)
            label = f"{DJANGO[0]} source distribution"
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
            runs = interleaved(root, args.against, args.reps or AGAINST_PAIRS, pinned=args.pinned)
            best, mb, _ = floor(label, candidates)
            for side in ("against", "this tree"):
                walls = sorted(report["wall"] for name, report, _ in runs if name == side)
                peaks = sorted(rss for name, _, rss in runs if name == side)
                cpus = sorted(report["cpu"] for name, report, _ in runs if name == side)
                shares = sorted(writer_per_pool(report) for name, report, _ in runs if name == side)
                print(
                    f"{side:9}: wall min/median/max {walls[0]:.2f} / {walls[len(walls) // 2]:.2f} / {walls[-1]:.2f} s"
                    f" ({walls[len(walls) // 2] / best:.2f}x the floor{', pinned to one core' if args.pinned else ''}),"
                    f" CPU {cpus[0]:.2f} / {cpus[len(cpus) // 2]:.2f} / {cpus[-1]:.2f} s, writer/pool {shares[0]:.3f} /"
                    f" {statistics.median(shares):.3f} / {shares[-1]:.3f}, peak RSS {peaks[0]:.0f}-{peaks[-1]:.0f} MB"
                )
            return
        rounds = []
        for rep in range(args.reps or 1):
            tree = root
            if rep:  # a fresh copy for each later round; the first round's tree is resynced below
                tree = root.parent / f"round-{rep}"
                shutil.copytree(root, tree, symlinks=True, ignore=shutil.ignore_patterns(".kenning"))
                init_project(tree, "floor")
            report, rss = product_sync(tree)
            best, mb, gave = floor(label, candidates, verbose=not rep)
            if rep:
                shutil.rmtree(tree)
            else:
                detail(report, rss, best, mb)
            rounds.append((report["wall"] / best, bound_seconds(report) / best))
            print(
                f"round {rep + 1}: product {report['wall']:.2f} s, floor {best:.2f} s: {rounds[-1][0]:.2f}x the floor, "
                f"{rounds[-1][1]:.2f}x at best at its CPU ({report['cpu']:.2f} s; load {os.getloadavg()[0]:.1f}; "
                f"parsing on {os.cpu_count() or 1} processes {gave:.2f}x one's)",
                flush=True,
            )
        if len(rounds) > 1:
            ratios, bounds = sorted(r for r, _ in rounds), sorted(b for _, b in rounds)
            print(
                f"over {len(rounds)} rounds: product / floor min / median / max {ratios[0]:.2f} / "
                f"{statistics.median(ratios):.2f} / {ratios[-1]:.2f}x; at best at its CPU {bounds[0]:.2f} / "
                f"{statistics.median(bounds):.2f} / {bounds[-1]:.2f}x"
            )
        noop = noop_syncs(root)
        print(
            f"no-op resync of the same tree, in process ({len(noop)} runs): min / median / max "
            f"{noop[0]:.3f} / {noop[len(noop) // 2]:.3f} / {noop[-1]:.3f} s"
        )


def detail(report: dict, rss: float, best: float, mb: float) -> None:
    """The product's cold sync beside the floor: its phases and its CPU."""
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


def floor(label: str, candidates: list, *, verbose: bool = True) -> tuple[float, float, float]:
    """Time each floor on the candidates' text (and, ``verbose``, print them); the best wall time,
    the MB, and how many times one process's parsing this machine's cores gave at once
    (``parallel_parse_seconds``)."""
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
        f"{markdown_blocks.PARSER} blocks": seconds(each(_markdown_blocks_alone(), markdown_sources)),
    }
    words, grams = index_seconds(rows)

    mb = size / 1e6
    cores = os.cpu_count() or 1
    parse_total = sum(parse_times.values())
    indexing = words + grams
    best = max((read + parse_total + indexing) / cores, indexing)
    sources = [(c.parser, c.path, texts[c.path]) for c in candidates]
    gave = parse_total / parallel_parse_seconds(sources, cores) if cores > 1 else 1.0
    if not verbose:
        return best, mb, gave
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
    if cores > 1:
        at_speed = max((read + parse_total + indexing) / gave, indexing)
        print(
            f"the same parsers on {cores} processes at once: {gave:.2f}x one process's speed ({cores}x: every core at "
            f"full speed, as the floor assumes); at that speed the floors allow {at_speed:.2f} s "
            "(not the issue's floor: said to read a round's ratio)"
        )
    return best, mb, gave


if __name__ == "__main__":
    main()
