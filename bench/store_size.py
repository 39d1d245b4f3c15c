"""Where a store's bytes go: pages per table and index (SQLite's ``dbstat``), grouped by part.

Usage:
    .venv/bin/python bench/store_size.py PROJECT/.kenning/kenning.db
    .venv/bin/python bench/store_size.py DB --tables     # every table and index, not only the parts

Read-only (the database is opened with ``mode=ro``). The parts: facts (the excerpts' text and
metadata, with their indexes), the FTS5 word index, the FTS5 trigram index, locations, the
manifest, graph nodes / references / edges (each with its indexes), dense vectors (level 1:
present only when a sync embedded) and the rest. ``level 0`` is the total without the vectors.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

PARTS = (  # part: table name prefixes (an index belongs to its table's part)
    ("facts", ("facts", "fact_id_floor")),
    ("fts words", ("facts_fts",)),
    ("fts trigram", ("facts_trigram",)),
    ("locations", ("locations",)),
    ("manifest", ("manifest",)),
    ("graph nodes", ("graph_nodes",)),
    ("graph refs", ("graph_refs",)),
    ("graph edges", ("graph_edges",)),
    ("dense vectors", ("dense_",)),
)


def part_of(table: str) -> str:
    """The part a table belongs to: the longest matching prefix wins (``facts_fts_data`` is
    the word index, not ``facts``)."""
    matches = [
        (len(prefix), part)
        for part, prefixes in PARTS
        for prefix in prefixes
        if table == prefix or table.startswith(prefix if prefix.endswith("_") else prefix + "_")
    ]
    return max(matches)[1] if matches else "other"


def tables(db: Path) -> dict[str, int]:
    """``{table or index: bytes of its pages}``."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        names = dict(conn.execute("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'").fetchall())
        sizes: dict[str, int] = {}
        for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            sizes[name] = sizes.get(name, 0) + int(size)
        free = conn.execute("PRAGMA freelist_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    owned = {name: names.get(name, name) for name in sizes}
    result = {f"{name} ({owned[name]})" if owned[name] != name else name: size for name, size in sizes.items()}
    if free:
        result["(free pages)"] = free
    return result


def breakdown(db: Path) -> dict[str, int]:
    """``{part: bytes}`` in the order of ``PARTS``, then ``other``."""
    parts = {part: 0 for part, _ in PARTS} | {"other": 0}
    for name, size in tables(db).items():
        table = name.split(" (")[-1].rstrip(")") if " (" in name else name
        parts[part_of(table)] += size
    return parts


def level0_bytes(parts: dict[str, int]) -> int:
    return sum(size for part, size in parts.items() if part != "dense vectors")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--tables", action="store_true", help="every table and index")
    args = parser.parse_args()
    if not args.db.is_file():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    parts = breakdown(args.db)
    total = sum(parts.values())
    for part, size in parts.items():
        print(f"{part:16} {size / 1e6:8.1f} MB  {size / total:6.1%}")
    print(f"{'total':16} {total / 1e6:8.1f} MB  (level 0, without dense vectors: {level0_bytes(parts) / 1e6:.1f} MB)")
    if args.tables:
        for name, size in sorted(tables(args.db).items(), key=lambda kv: -kv[1]):
            print(f"  {name:56} {size / 1e6:8.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
