"""Whether two trees of kenning build the same store (not a test): the check behind "output
identical" in docs/benchmarks.md when a change only makes the sync faster.

One copy of a corpus (the generated one of ``bench/speed.py``, a directory, or Django 5.0.6) is
cold-synced at level 0 with a fixed clock by ``--against`` (a ``src/`` exported from another
commit: ``git archive <commit> src | tar -x -C /tmp/before``), then again, at the same path and
with the same file dates, by this tree. Every table's rows are compared, in any order. What
follows the batches rather than the files is set apart and not compared: the FTS5 segment
tables (``*_data``, ``*_idx``: their layout follows the batches, which a wall-clock bound cuts;
the indexed instances are compared instead, through ``fts5vocab``, and the indexes' content is
``facts``), the migrations' time stamps, ``store_version`` and the run record in ``sync_runs``.

    .venv/bin/python bench/same_store.py --against /tmp/before/src
    .venv/bin/python bench/same_store.py --against /tmp/before/src --django
    .venv/bin/python bench/same_store.py --against /tmp/before/src --dir PATH

Exit status 1 when a compared table differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

CLOCK = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# Tables whose rows follow the batches, the clock of the migrations or the run itself.
NOT_COMPARED = ("schema_migrations", "store_version", "sync_runs")
FTS = ("facts_fts", "facts_trigram")


def child(root: Path, out: Path) -> None:
    """A cold sync of ``root`` by the kenning on ``sys.path`` (``PYTHONPATH``); every table's rows
    (sorted ``repr``s) and each full-text index's instances (a digest) written to ``out`` as JSON."""
    from kenning.config import init_project
    from kenning.sync.run import sync

    shutil.rmtree(root / ".kenning", ignore_errors=True)
    project, _ = init_project(root, "same")
    sync(project, now=CLOCK, embed=False)
    conn = sqlite3.connect(project.db_path)
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    dump: dict[str, list[str]] = {}
    for table in tables:
        if table in FTS or (table.startswith(FTS) and table.endswith(("_data", "_idx"))):
            continue  # the indexes' content is ``facts``; their instances are compared below
        dump[table] = sorted(repr(row) for row in conn.execute(f'SELECT * FROM "{table}"'))
    for table in FTS:
        conn.execute(f"CREATE VIRTUAL TABLE temp.vocab_{table} USING fts5vocab(main, {table}, instance)")
        digest, count = hashlib.sha256(), 0
        for row in conn.execute(f"SELECT * FROM temp.vocab_{table}"):
            digest.update(repr(row).encode())
            count += 1
        dump[f"{table} instances"] = [f"{count} instances, sha256 {digest.hexdigest()}"]
    conn.close()
    out.write_text(json.dumps(dump))


def dumped(root: Path, out: Path, pythonpath: Path | None) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)} if pythonpath else None
    subprocess.run([sys.executable, __file__, "--child", str(root), str(out)], check=True, env=env)
    return json.loads(out.read_text())


def compare(before: dict[str, list[str]], after: dict[str, list[str]]) -> bool:
    """Print each table's verdict; True when every compared table is the same."""
    same = True
    for table in sorted(before.keys() | after.keys()):
        rows_before, rows_after = before.get(table), after.get(table)
        if table in NOT_COMPARED:
            print(f"  {table:32} not compared (follows the run, not the files)")
            continue
        if rows_before == rows_after:
            print(f"  {table:32} same ({len(rows_before or [])} rows)")
            continue
        same = False
        only_before = sorted(set(rows_before or []) - set(rows_after or []))
        only_after = sorted(set(rows_after or []) - set(rows_before or []))
        print(f"  {table:32} DIFFERS: {len(only_before)} rows only before, {len(only_after)} only after")
        for row in only_before[:2]:
            print(f"      before: {row[:200]}")
        for row in only_after[:2]:
            print(f"      after:  {row[:200]}")
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, help="a src/ exported from another commit")
    parser.add_argument("--dir", type=Path, help="a copy of this directory instead of the generated corpus")
    parser.add_argument("--django", action="store_true", help="Django 5.0.6's source tree instead")
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--cache", type=Path, help="where sdists are downloaded (default: _common.SDIST_CACHE)")
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.against is None:
        parser.error("--against SRC is required")
    from _common import DJANGO, SDIST_CACHE, fetch_sdist
    from speed import generate

    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-same-home-"))
    with tempfile.TemporaryDirectory(prefix="kenning-same-store-") as tmp:
        root = Path(tmp) / "corpus"
        if args.django:
            shutil.copytree(fetch_sdist(*DJANGO, args.cache or SDIST_CACHE), root, symlinks=True)
        elif args.dir:
            shutil.copytree(args.dir, root, symlinks=True, ignore=shutil.ignore_patterns(".kenning", ".venv", ".git"))
        else:
            root.mkdir()
            generate(root, args.markdown, args.python)
        before = dumped(root, Path(tmp) / "before.json", args.against)
        after = dumped(root, Path(tmp) / "after.json", None)
    print(f"stores built by {args.against} (before) and this tree (after):")
    if not compare(before, after):
        raise SystemExit(1)
    print("same store")


if __name__ == "__main__":
    main()
