"""What a cold sync's bulk inserts cost in SQLite, and two ways of writing them measured beside
the product's (not a test): the figures of "Issue 19, sixth session" in docs/benchmarks.md.

The rows of a synced store (``graph_refs``, ``facts``) copied, per repetition, into a fresh WAL
database holding that table alone with the schema's own definition (foreign keys left out), in
one transaction, CPU seconds (``time.process_time``):
- ``executemany`` with the table's indexes in place (what a sync does), and the same with the
  indexes built after the rows (one sort per index);
- for ``graph_refs``, one ``INSERT … SELECT value->>0, … FROM json_each(?)`` per 5,000 rows (the
  JSON text made beforehand, as a pool worker could; its ``json.dumps`` timed apart).

    .venv/bin/python bench/bulk_insert.py --store /path/to/django/.kenning/kenning.db [--reps 3]
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

CHUNK = 5000


def table_schema(src: sqlite3.Connection, table: str) -> tuple[str, list[str]]:
    """``table``'s CREATE TABLE (its REFERENCES clauses cut: the other tables are not copied)
    and its CREATE INDEX statements, as the store holds them."""
    rows = src.execute(
        "SELECT type, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC", (table,)
    ).fetchall()
    create = next(sql for kind, sql in rows if kind == "table")
    create = re.sub(r"REFERENCES \w+\(\w+\)( ON DELETE (CASCADE|SET NULL))?", "", create)
    return create, [sql for kind, sql in rows if kind == "index"]


def fresh(folder: Path, create: str) -> sqlite3.Connection:
    path = folder / f"copy-{time.monotonic_ns()}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute(create)
    return conn


def timed(
    folder: Path, create: str, indexes: list[str], write: Callable[[sqlite3.Connection], None], after: bool
) -> float:
    conn = fresh(folder, create)
    if not after:
        for sql in indexes:
            conn.execute(sql)
    start = time.process_time()
    conn.execute("BEGIN")
    write(conn)
    if after:
        for sql in indexes:
            conn.execute(sql)
    conn.execute("COMMIT")
    spent = time.process_time() - start
    conn.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a synced store (.kenning/kenning.db)")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    src = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    with tempfile.TemporaryDirectory(prefix="kenning-bulk-") as tmp:
        folder = Path(tmp)
        for table in ("graph_refs", "facts"):
            create, indexes = table_schema(src, table)
            rows = src.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()  # noqa: S608 (two fixed names)
            marks = ",".join("?" * len(rows[0]))
            chunks = [rows[i : i + CHUNK] for i in range(0, len(rows), CHUNK)]

            def many(conn: sqlite3.Connection, table: str = table, marks: str = marks, chunks: list = chunks) -> None:
                for chunk in chunks:
                    conn.executemany(f"INSERT INTO {table} VALUES ({marks})", chunk)  # noqa: S608

            print(f"{table}: {len(rows):,} rows, {len(indexes)} indexes")
            for rep in range(args.reps):
                there = timed(folder, create, indexes, many, after=False)
                built_after = timed(folder, create, indexes, many, after=True)
                line = f"  rep {rep + 1}: executemany, indexes there {there:.3f} s, built after {built_after:.3f} s"
                if table == "graph_refs":
                    start = time.process_time()
                    texts = [json.dumps(chunk) for chunk in chunks]
                    dumps = time.process_time() - start
                    values = ", ".join(f"value->>{i}" for i in range(len(rows[0])))

                    def each(conn: sqlite3.Connection, texts: list[str] = texts, values: str = values) -> None:
                        for text in texts:
                            conn.execute(f"INSERT INTO graph_refs SELECT {values} FROM json_each(?)", (text,))  # noqa: S608

                    line += (
                        f"; json_each {timed(folder, create, indexes, each, after=False):.3f} s (+ dumps {dumps:.3f} s)"
                    )
                print(line)


if __name__ == "__main__":
    main()
