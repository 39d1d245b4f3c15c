from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kenning.errors import StoreOutdated
from kenning.store.db import connect
from kenning.store.migrations_runner import AFTER, available, migrate

SCHEMA_DOC = Path(__file__).resolve().parents[2] / "docs" / "schema.md"
HEADER = """# Database schema

Generated from the migrations in `src/kenning/store/migrations/` by
`KENNING_UPDATE_GOLDEN=1 make test` (the test `tests/store/test_migrations.py` fails when
this file and the migrations disagree). Do not edit by hand.

"""


def dump_schema(conn: sqlite3.Connection) -> str:
    rows = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
        "AND name NOT GLOB '*_fts_*' AND name NOT GLOB '*_trigram_*' ORDER BY type, name"
    ).fetchall()
    versions = [f"{m.version:04d}_{m.name}" for m in available()]
    parts = [HEADER, "Migrations: " + ", ".join(f"`{v}`" for v in versions) + "\n"]
    for kind, name, sql in rows:
        parts.append(f"\n## {kind} `{name}`\n\n```sql\n{sql.strip()};\n```\n")
    return "".join(parts)


def test_a_blank_database_migrates_to_the_documented_schema(tmp_path):
    conn = connect(tmp_path / "blank.db", create=True)
    actual = dump_schema(conn)
    conn.close()
    if os.environ.get("KENNING_UPDATE_GOLDEN"):
        SCHEMA_DOC.write_text(actual, encoding="utf-8")
    assert SCHEMA_DOC.read_text(encoding="utf-8") == actual


def test_migrating_twice_applies_nothing_the_second_time(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    assert migrate(conn) == []
    versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    assert versions == [m.version for m in available()]
    conn.close()


def test_each_earlier_version_upgrades_cleanly_to_the_latest(tmp_path):
    migrations = available()
    for stop in range(1, len(migrations)):
        path = tmp_path / f"v{stop}.db"
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        for m in migrations[:stop]:  # as the kenning that stopped there left it: Python steps included
            conn.executescript(f"BEGIN;\n{m.sql}\n;")
            if m.version in AFTER:
                AFTER[m.version](conn)
            conn.execute("COMMIT")
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00Z')", (m.version, m.name))
        conn.close()
        upgraded = connect(path, migrate_schema=True)
        assert dump_schema(upgraded) == dump_schema(connect(tmp_path / f"fresh{stop}.db", create=True))
        upgraded.close()


def test_a_database_from_a_newer_kenning_is_refused(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    conn.execute("INSERT INTO schema_migrations VALUES (9999, 'future', '2030-01-01T00:00:00Z')")
    conn.close()
    with pytest.raises(StoreOutdated):
        connect(tmp_path / "k.db")


def test_a_new_store_takes_8_kib_pages_and_an_existing_one_keeps_its_own(tmp_path):
    conn = connect(tmp_path / "new.db", create=True)
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
    conn.close()
    old = sqlite3.connect(tmp_path / "old.db")
    old.execute("CREATE TABLE t (x)")
    old.commit()
    old.close()
    conn = connect(tmp_path / "old.db", create=True)
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 4096
    conn.close()


def test_the_migrations_of_one_run_carry_one_stamp(tmp_path, monkeypatch):
    """They commit together; stamped one by one, a store's creation that straddled a second read as
    an upgrade after the store's first sync (``sources.last_graph_sizes``), and every sync with
    nothing to write counted the graph again (seen once, under a full suite's load)."""
    from datetime import UTC, datetime, timedelta

    from kenning.store import migrations_runner

    class Clock:
        """A clock a second later at every reading."""

        calls = 0

        @classmethod
        def now(cls, tz=None):  # noqa: ANN001, ANN206
            cls.calls += 1
            return datetime(2026, 12, 5, 12, 0, tzinfo=UTC) + timedelta(seconds=cls.calls)

    monkeypatch.setattr(migrations_runner, "datetime", Clock)
    conn = sqlite3.connect(tmp_path / "k.db")
    try:
        migrate(conn)
        stamps = {row[0] for row in conn.execute("SELECT applied_at FROM schema_migrations")}
    finally:
        conn.close()
    assert len(stamps) == 1 and len(available()) > 1
