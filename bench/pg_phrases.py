"""PostgreSQL's phrases on a real tree (not a test): what scoring a phrase as one term costs
(``store/postgres/fts_phrases.py``; docs/postgresql.md, docs/benchmarks.md, forty-second session of
issue 19).

Django 5.0.6's source (``pip download``, cached) is synced at level 0 into a new project of the
database, once: ``--name`` keeps the project for the next run, which only queries it. Then each
expression of ``EXPRESSIONS`` (phrases alone, beside a word, among words: the shapes ``search/``
builds) is asked of ``store.fts.words`` (limit 10, the search's first step) ``--reps`` times, in
turns; min and median in ms, and how many excerpts match it.

    KENNING_DATABASE_URL=postgresql://… .venv/bin/python bench/pg_phrases.py [--reps 7] [--name NAME]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from _common import DJANGO, SDIST_CACHE, fetch_sdist
from kenning.config import init_project, load_project
from kenning.store import fts
from kenning.store.db import open_store
from kenning.store.postgres.fts_syntax import tsquery
from kenning.sync.run import sync

EXPRESSIONS = (
    '"def test"',
    '"self assertEqual"',
    '"return self"',
    '"get queryset"',
    '"admin site urls"',
    'form AND "cleaned data"',
    '"model admin" OR changelist',
)
WEIGHTS = (2.0, 1.5, 1.2, 1.0)


def synced(url: str, name: str) -> object:
    """The PostgreSQL project ``name`` holding Django's source: synced now unless a run kept it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "django"
        shutil.copytree(fetch_sdist(*DJANGO, SDIST_CACHE), root, symlinks=True)
        init_project(root, name)
        made = load_project(root, {})
        project = replace(made, config=replace(made.config, store=url))
        conn = open_store(project, create=True)
        try:
            held = conn.execute("SELECT count(*) FROM facts WHERE project = %s", (name,)).fetchone()[0]
        finally:
            conn.close()
        if not held:
            start = time.perf_counter()
            sync(project, now=datetime.now(UTC), embed=False)
            print(f"synced Django into {name} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        return open_store(project)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--name", help="the project's name in the database (kept: a second run only queries it)")
    args = parser.parse_args()
    url = os.environ.get("KENNING_DATABASE_URL")
    if not url:
        sys.exit("set KENNING_DATABASE_URL to a PostgreSQL database (`.ci/postgres.sh DIR` starts one)")
    name = args.name or f"phrases-{uuid.uuid4().hex[:8]}"
    conn = synced(url, name)
    try:
        times: dict[str, list[float]] = {e: [] for e in EXPRESSIONS}
        for _ in range(args.reps):
            for expression in EXPRESSIONS:
                start = time.perf_counter()
                fts.words(conn, expression, fts.Filters(), 10, WEIGHTS)
                times[expression].append((time.perf_counter() - start) * 1000)
        print(f"project {name}; {args.reps} turns; load average {os.getloadavg()[0]:.2f}")
        print(f"{'expression':32} {'matches':>8} {'min ms':>8} {'median ms':>10}")
        for expression, spent in times.items():
            sql = "SELECT count(*) FROM facts WHERE project = %s AND words @@ to_tsquery('kenning_simple', %s)"
            matches = conn.execute(sql, (name, tsquery(expression))).fetchone()[0]
            print(f"{expression:32} {matches:8} {min(spent):8.1f} {statistics.median(spent):10.1f}")
    finally:
        conn.close()


if __name__ == "__main__":
    main()
