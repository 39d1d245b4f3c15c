"""A project's first sync fills its new SQLite store under the rollback journal (each page
written once) and leaves it in WAL mode; every later writer works under WAL. A switch to WAL
that other connections keep from happening waits a bounded time and loses nothing."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import write_files
from kenning.config import init_project
from kenning.store import db
from kenning.sync import changes
from kenning.sync.run import sync

NOW = datetime(2026, 12, 6, tzinfo=UTC)


def _mode(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        conn.close()


def _journal_while_applying(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    apply = changes.apply

    def noting(conn, *args, **kwargs):
        seen.append(conn.execute("PRAGMA journal_mode").fetchone()[0])
        return apply(conn, *args, **kwargs)

    monkeypatch.setattr(changes, "apply", noting)
    return seen


def test_a_first_sync_writes_under_the_rollback_journal_and_leaves_wal(tmp_path, monkeypatch):
    write_files(tmp_path, {f"docs/d{i}.md": f"# Doc {i}\n\nThe quorum rule {i}.\n" for i in range(5)})
    project, _ = init_project(tmp_path, "journal")
    seen = _journal_while_applying(monkeypatch)

    report = sync(project, now=NOW, embed=False)
    assert report.added == 5
    assert seen == ["delete"]
    assert _mode(project.db_path) == "wal"

    (tmp_path / "docs" / "d0.md").write_text("# Doc 0\n\nThe quorum rule changed.\n", encoding="utf-8")
    sync(project, now=NOW, embed=False)
    assert seen == ["delete", "wal"]  # a store that exists: written beside its readers
    assert _mode(project.db_path) == "wal"


def test_a_store_a_first_sync_left_on_the_journal_is_switched_by_the_next_writer(tmp_path):
    path = tmp_path / "kenning.db"
    db.connect(path, create=True, wal=False).close()  # a first sync stopped before its end
    assert _mode(path) == "delete"
    reader = db.connect(path)  # a reader switches nothing
    reader.close()
    assert _mode(path) == "delete"
    db.connect(path, create=True).close()
    assert _mode(path) == "wal"


def test_a_switch_kept_from_happening_waits_a_bounded_time_and_keeps_the_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(db, "WAL_SWITCH_WAIT_MS", 200)
    path = tmp_path / "kenning.db"
    conn = db.connect(path, create=True, wal=False)
    conn.execute("CREATE TABLE kept (x INTEGER)")
    conn.execute("INSERT INTO kept VALUES (1)")
    reading = sqlite3.connect(path, isolation_level=None)
    reading.execute("BEGIN")
    assert reading.execute("SELECT x FROM kept").fetchall() == [(1,)]  # a read transaction holds the file

    began = time.monotonic()
    assert db.use_wal(conn) is False
    assert time.monotonic() - began < 30  # bounded by WAL_SWITCH_WAIT_MS, not the writers' timeout
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"

    reading.execute("COMMIT")
    reading.close()
    assert db.use_wal(conn) is True
    assert [tuple(row) for row in conn.execute("SELECT x FROM kept")] == [(1,)]
    conn.close()
    assert _mode(path) == "wal"
