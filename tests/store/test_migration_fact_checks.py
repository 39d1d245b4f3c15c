"""Migration 0023: the CHECK constraints of ``facts`` spelled without IN lists, edited in place.
Every row, excerpt and search answer stays; the same values are accepted and refused; a
connection opened before the migration reads the new definition; the rest of the schema is whole."""

from __future__ import annotations

import sqlite3

import pytest
from migration_support import store_before

from kenning.store import schema_checks
from kenning.store.db import connect

FACT = (
    "INSERT INTO facts (id, type, title, body, source_kind, source_uri, content_hash, date_indexed, producer, "
    "lifecycle, memory_type, date_source_kind) VALUES (?, 'note', ?, ?, 'manual', 'manual:cli', ?, "
    "'2026-01-01T00:00:00Z', 'user', ?, ?, ?)"
)


def old_store(path) -> None:
    """A store at the schema before 0023, holding two excerpts and a location."""
    conn = store_before(path, 23)
    conn.execute(FACT, (1, "Freshness", "how freshness is computed at read", "a" * 64, "active", None, "saved"))
    conn.execute(FACT, (2, "Old plan", "the plan before", "b" * 64, "retired", "durable", None))
    conn.execute(
        "INSERT INTO facts_fts (rowid, title, keywords, path, body) SELECT id, title, keywords, path, body FROM facts"
    )
    conn.execute("INSERT INTO locations VALUES (1, 'manual:cli', '', NULL, NULL, ?)", ("c" * 64,))
    conn.close()


def definition(conn) -> str:
    return conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'facts'").fetchone()[0]


def test_an_old_store_keeps_its_rows_and_refuses_the_same_values(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    reader = sqlite3.connect(path, isolation_level=None)  # open before the migration, schema read
    before = reader.execute("SELECT * FROM facts ORDER BY id").fetchall()
    assert " IN (" in definition(reader)
    conn = connect(path, create=True)  # a writer migrates
    try:
        assert 23 in {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
        assert " IN (" not in definition(conn)
        assert [tuple(r) for r in conn.execute("SELECT * FROM facts ORDER BY id")] == before
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        hits = conn.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'freshness'").fetchall()
        assert [r[0] for r in hits] == [1]
        for lifecycle, memory_type, kind in (
            ("superseded", "working", "commit"),
            ("retired", None, "mtime"),
            ("active", "durable", "declared"),
            ("active", None, None),
        ):
            conn.execute(FACT, (None, "ok", "accepted", "d" * 64, lifecycle, memory_type, kind))
        for lifecycle, memory_type, kind in (
            ("bogus", None, None),
            ("Active", None, None),
            ("active", "forever", None),
            ("active", None, "guessed"),
            ("active", "", "mtime"),
        ):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(FACT, (None, "no", "refused", "e" * 64, lifecycle, memory_type, kind))
        with pytest.raises(sqlite3.IntegrityError):  # NOT NULL still holds
            conn.execute(FACT, (None, "no", "refused", "e" * 64, None, None, None))
        # the connection opened before reads the new definition, and refuses as before
        assert " IN (" not in definition(reader)
        with pytest.raises(sqlite3.IntegrityError):
            reader.execute(FACT, (None, "no", "refused", "f" * 64, "bogus", None, None))
        assert reader.execute("SELECT count(*) FROM facts").fetchone()[0] == 6
    finally:
        reader.close()
        conn.close()


def test_a_new_store_is_created_with_the_spelled_out_checks(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    try:
        sql = definition(conn)
        assert "lifecycle = 'active' OR lifecycle = 'superseded' OR lifecycle = 'retired'" in sql
        assert "memory_type = 'durable' OR memory_type = 'working'" in sql
        assert " IN (" not in sql
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_only_check_in_lists_of_quoted_values_are_spelled_out():
    sql = "CREATE TABLE t (a TEXT CHECK (a IN ('x', 'y')), b INTEGER CHECK (b IN (1, 2)), c TEXT DEFAULT 'IN (')"
    assert schema_checks.spelled_out(sql) == (
        "CREATE TABLE t (a TEXT CHECK (a = 'x' OR a = 'y'), b INTEGER CHECK (b IN (1, 2)), c TEXT DEFAULT 'IN (')"
    )


@pytest.mark.skipif(not hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"), reason="Python < 3.12: no setconfig")
def test_a_sqlite_that_refuses_schema_edits_keeps_the_old_checks(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)
    before = definition(conn)
    conn.execute("BEGIN IMMEDIATE")
    schema_checks.facts_without_in_lists(conn)
    conn.execute("COMMIT")
    assert definition(conn) == before
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(FACT, (None, "no", "refused", "f" * 64, "bogus", None, None))
    conn.close()
