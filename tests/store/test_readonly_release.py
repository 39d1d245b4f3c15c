"""A read-only (``mode=ro``) connection needs a store's ``-wal``/``-shm`` files and cannot remove
them when it closes: every `kenning projects list` or `--all-projects` question left them beside
each registered store. ``open_readonly``'s connections release them as they close (unless
another connection still holds the store); ``readonly.release`` does it for any other."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kenning.store.db import connect
from kenning.store.readonly import open_readonly, release


def leftovers(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.glob(path.name + "-*"))


def a_store(tmp_path: Path) -> Path:
    path = tmp_path / "kenning.db"
    connect(path, create=True).close()
    assert leftovers(path) == []
    return path


def read(conn: sqlite3.Connection) -> None:
    conn.execute("SELECT count(*) FROM facts").fetchone()


def test_closing_the_last_read_only_connection_leaves_no_wal(tmp_path):
    path = a_store(tmp_path)
    reader = open_readonly(path)
    read(reader)
    assert leftovers(path) == ["kenning.db-shm", "kenning.db-wal"]  # needed while it reads
    reader.close()
    assert leftovers(path) == []
    reader.close()  # twice: nothing more


def test_a_plain_mode_ro_connection_leaves_the_wal_and_release_removes_it(tmp_path):
    path = a_store(tmp_path)
    reader = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    read(reader)
    reader.close()
    assert leftovers(path) == ["kenning.db-shm", "kenning.db-wal"]  # why release exists
    release(path)
    assert leftovers(path) == []


def test_release_leaves_the_files_of_a_store_another_connection_still_holds(tmp_path):
    path = a_store(tmp_path)
    writer = connect(path)
    try:
        reader = open_readonly(path)
        read(reader)
        reader.close()
        assert leftovers(path) == ["kenning.db-shm", "kenning.db-wal"]
        assert writer.execute("SELECT count(*) FROM facts").fetchone()[0] == 0  # still usable
    finally:
        writer.close()
    assert leftovers(path) == []  # the last connection that may write removed them


def test_release_of_a_store_that_is_not_there_does_nothing(tmp_path):
    release(tmp_path / "missing.db")
    assert list(tmp_path.iterdir()) == []
