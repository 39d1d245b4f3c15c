"""What a table's indexes cost a cold sync's batches, kept row by row against built once after
(not a test): the figures behind "dropping the graph's indexes during the batches" in
docs/benchmarks.md (issue 19, forty-fifth session).

The rows are a synced store's own (``--store``, e.g. a Django store of ``bench/sync_floor.py
--django``, or any ``.kenning/kenning.db``): each table of ``--tables`` is created in a new store
file as the source store declares it, then its rows inserted in the order a scan of the table gives
(its ids, or its key), ``--batch`` rows a transaction (as the sync's batches commit), first with
the table's indexes in place, then without them and each index created once after the last
batch. CPU seconds of this process (``time.process_time``), per table set, ``--reps`` times each,
alternated.

    .venv/bin/python bench/index_after.py --store PATH/.kenning/kenning.db
    .venv/bin/python bench/index_after.py --store PATH --tables facts,locations --reps 5
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path


def insert(source: sqlite3.Connection, tables: list[str], target: Path, *, after: bool, batch: int) -> float:
    """CPU seconds to insert ``tables``' rows of ``source`` into a new store at ``target``, their
    indexes kept row by row or (``after``) built once after the last batch."""
    target.unlink(missing_ok=True)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    spent = 0.0
    try:
        for table in tables:
            (create,) = source.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
            ).fetchone()
            conn.execute(create)
            indexes = [
                sql
                for (sql,) in source.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", (table,)
                )
            ]
            if not after:
                for sql in indexes:
                    conn.execute(sql)
            rows = source.execute(f'SELECT * FROM "{table}"').fetchall()
            statement = f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(rows[0]))})' if rows else ""
            began = time.process_time()
            for start in range(0, len(rows), batch):
                conn.execute("BEGIN")
                conn.executemany(statement, rows[start : start + batch])
                conn.execute("COMMIT")
            if after:
                conn.execute("BEGIN")
                for sql in indexes:
                    conn.execute(sql)
                conn.execute("COMMIT")
            spent += time.process_time() - began
    finally:
        conn.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a synced store (kenning.db)")
    parser.add_argument("--tables", default="graph_refs,graph_nodes", help="comma-separated tables")
    parser.add_argument("--batch", type=int, default=4000, help="rows a transaction")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    tables = [t for t in args.tables.split(",") if t]
    source = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    counts = {t: source.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    print(
        f"{args.store}: "
        + ", ".join(f"{t} {n:,} rows" for t, n in counts.items())
        + f"; {args.batch} rows a transaction"
    )
    with tempfile.TemporaryDirectory() as work:
        target = Path(work) / "copy.db"
        for rep in range(1, args.reps + 1):
            kept = insert(source, tables, target, after=False, batch=args.batch)
            built = insert(source, tables, target, after=True, batch=args.batch)
            print(f"round {rep}: indexes kept row by row {kept:.3f} s, built once after {built:.3f} s of CPU")


if __name__ == "__main__":
    main()
