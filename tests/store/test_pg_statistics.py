"""PostgreSQL: a sync that wrote many excerpts refreshes the planner's statistics (``ANALYZE``):
until autovacuum came round, a new project's first phrase query ran past its timeout
(``store.db.after_sync``, ``store.postgres.connection.refresh_statistics``)."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime

import psycopg
import pytest
from pg_engine import server_url

from kenning.store import db
from kenning.sync.run import sync

pytestmark = pytest.mark.postgres
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _analyzed() -> object:
    """When ``facts`` was last analysed by hand (the server's cumulative statistics, read afresh)."""
    with psycopg.connect(server_url(), autocommit=True) as conn:
        return conn.execute("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'facts'").fetchone()[0]


def _changed(before: object) -> bool:
    for _ in range(50):  # the statistics reach other sessions within a second or so
        if _analyzed() != before:
            return True
        time.sleep(0.1)
    return False


def test_a_sync_that_wrote_many_excerpts_analyses_the_tables(make_project, monkeypatch):
    monkeypatch.setattr(db, "STATISTICS_FROM", 3)
    files = {f"docs/p{i}.md": f"# Page {i}\n\nWords of page {i}.\n" for i in range(3)}
    made = make_project(files, name=f"pg-stats-{uuid.uuid4().hex[:10]}", config="[dense]\nenabled = false\n")
    project = replace(made, config=replace(made.config, store=server_url()))
    before = _analyzed()
    report = sync(project, now=NOW)
    assert report.added >= 3
    assert _changed(before)

    (project.root / "docs" / "p0.md").write_text("# Page 0\n\nOther words.\n", encoding="utf-8")
    after_one = _analyzed()
    sync(project, now=NOW)  # one excerpt replaced: below the line, nothing analysed
    time.sleep(1.5)
    assert _analyzed() == after_one
