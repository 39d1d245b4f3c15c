"""How fast a cold sync could be on this machine (not a test): the floors behind the "Cold
sync" paragraph of docs/benchmarks.md.

On the generated corpus of bench/speed.py (or a smaller one), each piece of work a cold sync
cannot skip, timed alone in one thread:
- reading the files;
- the product's parsers (``python/3``, ``markdown/2``), serially, and beside them the
  libraries they stand on alone (``ast.parse``, tree-sitter's Python parser, markdown-it-pyrs's
  block parser);
- SQLite FTS5 indexing the excerpts those parsers produce (word index with the product's
  tokenizer, trigram index), in memory, one transaction, nothing else in the database, with
  the fastest FTS5 setting tried (``FTS_HASHSIZE``).

Then the best wall time those floors allow on this many cores, if the parsing spread
perfectly over every core and the indexing (one writer) overlapped it entirely, and the
throughput it would give; and, in the same run on the same files, the product's cold sync
(a child process: wall time, peak RSS, each phase's wall time, its ratio to that floor).

    .venv/bin/python bench/sync_floor.py [--markdown 2000 --python 2000]
    .venv/bin/python bench/sync_floor.py --dir PATH      # a copy of a real tree
    .venv/bin/python bench/sync_floor.py --django        # Django 5.0.6's source (pip download, cached)
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
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
    conn.execute("CREATE VIRTUAL TABLE grams USING fts5(title, keywords, path, tokenize = 'trigram')")
    for table in ("words", "grams"):  # the fastest settings tried (the product keeps 8 MB: memory)
        conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('hashsize', {FTS_HASHSIZE})")

    def insert(sql: str, values: list[tuple]) -> None:
        with conn:
            conn.executemany(sql, values)

    words = seconds(
        lambda: insert("INSERT INTO words (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)", rows)
    )
    grams = seconds(
        lambda: insert(
            "INSERT INTO grams (rowid, title, keywords, path) VALUES (?, ?, ?, ?)", [row[:4] for row in rows]
        )
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
    """One cold sync in this process; prints its wall time and each phase's, as JSON."""
    from datetime import UTC, datetime

    from kenning.config import load_project
    from kenning.sync.run import sync

    marks: dict[str, float] = {}

    def progress(phase: str, done: int, total: int) -> None:
        marks.setdefault(phase, time.perf_counter())

    start = time.perf_counter()
    sync(load_project(root), now=datetime.now(UTC), progress=progress)
    end = time.perf_counter()
    order = sorted(marks.items(), key=lambda item: item[1])
    phases = {"discover, manifest, first file read": (order[0][1] if order else end) - start}
    for i, (phase, at) in enumerate(order):
        phases[phase] = (order[i + 1][1] if i + 1 < len(order) else end) - at
    print(json.dumps({"wall": end - start, "phases": phases}))


def product_sync(root: Path) -> tuple[dict, float]:
    """The product's cold sync of ``root`` in a child process, and the child's peak RSS (MB)."""
    proc = subprocess.Popen([sys.executable, __file__, "--sync-child", str(root)], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the product's sync failed")
    return json.loads(out), usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--dir", type=Path, help="a copy of this directory instead of the generated corpus")
    parser.add_argument("--django", action="store_true", help=f"{DJANGO}'s source tree instead")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench")
    parser.add_argument("--sync-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sync_child:
        sync_child(args.sync_child)
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
        report, rss = product_sync(root)
        best, mb = floor(label, candidates)
        print(
            f"product cold sync, same files (child process): {report['wall']:.2f} s = "
            f"{mb / report['wall']:.1f} MB/s, {report['wall'] / best:.2f}x the floor; peak RSS {rss:.0f} MB"
        )
        for phase, spent in report["phases"].items():
            print(f"  {phase:40} {spent:6.2f} s  {100 * spent / report['wall']:5.1f} %")


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

    python_sources = [texts[p] for p in by_kind.get("python/3", [])]
    markdown_sources = [texts[p] for p in by_kind.get("markdown/2", [])]
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
