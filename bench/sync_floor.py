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
throughput it would give.

    .venv/bin/python bench/sync_floor.py [--markdown 2000 --python 2000]
"""

from __future__ import annotations

import argparse
import ast
import gc
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from speed import generate

from kenning.ingest.markdown import _MD
from kenning.ingest.parsers import load_relations, parser_for

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
    """Parse every source, keeping no result (as a sync does, file by file)."""
    def work() -> None:
        for source in sources:
            parse(source)
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
    conn.execute("CREATE VIRTUAL TABLE words USING fts5(title, keywords, path, body, "
                 "tokenize = 'porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE grams USING fts5(title, keywords, path, tokenize = 'trigram')")
    for table in ("words", "grams"):  # the fastest settings tried (the product keeps 8 MB: memory)
        conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('hashsize', {FTS_HASHSIZE})")

    def insert(sql: str, values: list[tuple]) -> None:
        with conn:
            conn.executemany(sql, values)

    words = seconds(lambda: insert("INSERT INTO words (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)",
                                   rows))
    grams = seconds(lambda: insert("INSERT INTO grams (rowid, title, keywords, path) VALUES (?, ?, ?, ?)",
                                   [row[:4] for row in rows]))
    conn.close()
    return words, grams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    args = parser.parse_args()
    gc.disable()  # as during a sync (sync/run.py): parsing makes no cyclic garbage
    with tempfile.TemporaryDirectory(prefix="kenning-sync-floor-") as tmp:
        root = Path(tmp)
        size = generate(root, args.markdown, args.python)
        paths = sorted(p for p in root.rglob("*") if p.is_file())
        texts: dict[str, str] = {}
        read = seconds(lambda: texts.update((p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"))
                                            for p in paths))
    by_kind: dict[str, list[str]] = {}
    for path in texts:
        by_kind.setdefault(parser_for(path) or "", []).append(path)

    rows: list[tuple[int, str, str, str, str]] = []
    parse_times: dict[str, float] = {}
    for kind, group in sorted(by_kind.items()):
        parse = load_relations(kind)
        start = time.perf_counter()
        for path in group:
            chunks, _ = parse(texts[path], path)
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
    print(f"corpus: {args.markdown} Markdown + {args.python} Python files, {mb:.1f} MB, {len(rows)} excerpts; "
          f"{cores} cores; load average {os.getloadavg()[0]:.2f}")
    print(f"  {'read the files':40} {read:6.2f} s  {mb / read:7.1f} MB/s")
    for kind, spent in parse_times.items():
        kind_mb = sum(len(texts[p].encode()) for p in by_kind[kind]) / 1e6
        print(f"  {'product parser ' + kind:40} {spent:6.2f} s  {kind_mb / spent:7.1f} MB/s  ({kind_mb:.1f} MB)")
    python_mb = sum(len(s.encode()) for s in python_sources) / 1e6
    for name, spent in floors.items():
        if spent is None:
            print(f"  {name + ' alone':40}      -   (not installed)")
            continue
        share = python_mb if "python" in name or name == "ast.parse" else mb - python_mb
        print(f"  {name + ' alone':40} {spent:6.2f} s  {share / spent:7.1f} MB/s")
    print(f"  {'FTS5 word index (porter), in memory':40} {words:6.2f} s  {mb / words:7.1f} MB/s")
    print(f"  {'FTS5 trigram index, in memory':40} {grams:6.2f} s")
    print(f"indexing alone (SQLite has one writer): {indexing:.2f} s = {mb / indexing:.1f} MB/s")
    print(f"best wall time these floors allow on {cores} cores: {best:.2f} s = {mb / best:.1f} MB/s "
          f"(target {TARGET_MB_PER_S:g} MB/s = {mb / TARGET_MB_PER_S:.2f} s); without excerpt rows, "
          "graph, dedup or commit")


if __name__ == "__main__":
    main()
