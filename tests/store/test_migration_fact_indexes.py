"""Migration 0026: ``facts_superseded_by`` and ``facts_session`` hold only the rows with a value
(every excerpt of a file has neither). The lookups that name a value still use them, a deleted fact
still clears ``superseded_by`` where it was named (its foreign key), and no row changes."""

from __future__ import annotations

import sqlite3

from migration_support import store_before

from kenning.store.db import connect

FACT = (
    "INSERT INTO facts (id, type, title, body, source_kind, source_uri, content_hash, date_indexed, producer, "
    "lifecycle, superseded_by, session_id) VALUES (?, 'note', ?, 'text', 'manual', 'manual:cli', ?, "
    "'2026-01-01T00:00:00Z', 'user', ?, ?, ?)"
)


def _plan(conn: sqlite3.Connection, sql: str, *args: object) -> str:
    return " ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args))


def test_indexes_hold_the_rows_with_a_value_and_serve_their_lookups(tmp_path):
    path = tmp_path / "k.db"
    conn = store_before(path, 26)
    conn.execute("INSERT INTO sessions (id, project, started) VALUES ('s1', 'p', '2026-01-01T00:00:00Z')")
    conn.execute(FACT, (1, "new plan", "a" * 64, "active", None, "s1"))
    conn.execute(FACT, (2, "old plan", "b" * 64, "superseded", 1, "s1"))
    conn.execute(FACT, (3, "an excerpt", "c" * 64, "active", None, None))
    before = conn.execute("SELECT * FROM facts ORDER BY id").fetchall()
    conn.close()

    conn = connect(path, create=True)  # a writer migrates
    try:
        assert 26 in {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
        assert [tuple(r) for r in conn.execute("SELECT * FROM facts ORDER BY id")] == before
        for name, column in (("facts_superseded_by", "superseded_by"), ("facts_session", "session_id")):
            sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
            assert sql.endswith(f"WHERE {column} IS NOT NULL")
        assert "INDEX facts_superseded_by" in _plan(conn, "SELECT id FROM facts WHERE superseded_by = ?", 1)
        joined = "SELECT g.id FROM facts g, facts f WHERE f.id = ? AND g.session_id = f.session_id AND g.id < f.id"
        assert "INDEX facts_session" in _plan(conn, joined, 2)
        assert [r[0] for r in conn.execute(joined, (2,))] == [1]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_deleted_fact_is_still_cleared_where_it_superseded_another(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    try:
        conn.execute(FACT, (1, "new plan", "a" * 64, "active", None, None))
        conn.execute(FACT, (2, "old plan", "b" * 64, "superseded", 1, None))
        conn.execute("INSERT INTO facts_trigram (rowid, title, path) SELECT id, title, path FROM facts")
        conn.execute(  # the word index, kept by a trigger on the store's connections (``store.bodies``)
            "INSERT INTO facts_fts (rowid, title, keywords, path, body) "
            "SELECT id, title, keywords, path, body FROM facts"
        )
        conn.execute("DELETE FROM facts WHERE id = 1")  # the superseding fact: its foreign key clears the name
        assert conn.execute("SELECT superseded_by FROM facts WHERE id = 2").fetchone()[0] is None
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
