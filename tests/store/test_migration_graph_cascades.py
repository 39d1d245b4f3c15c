"""Migration 0024: graph references and edges lose their foreign keys (a cost per row written)
and keep every row; a deleted node still takes its references and every edge from or to it, a
deleted reference its edges, by triggers."""

from __future__ import annotations

import sqlite3

import pytest
from migration_support import graph_store_before, migrated_graph_store

from kenning.store import schema_checks
from kenning.store.migrations_runner import available, statements


def _ids(conn: sqlite3.Connection, table: str) -> list[int]:
    return [row[0] for row in conn.execute(f"SELECT id FROM {table} ORDER BY id")]


def test_rows_survive_and_deletes_still_cascade(tmp_path):
    conn = migrated_graph_store(tmp_path / "k.db", 24)
    try:
        assert conn.execute("PRAGMA foreign_key_list('graph_refs')").fetchall() == []
        assert conn.execute("PRAGMA foreign_key_list('graph_edges')").fetchall() == []
        assert [r[2] for r in conn.execute("PRAGMA foreign_key_list('graph_nodes')")] == ["facts"]  # kept
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

        # Stored: the call (5) and the ledger's edge (8); the `defines` and the test's `tested_by`
        # are derived where the graph is read (0025).
        assert _ids(conn, "graph_edges") == [5, 8]
        conn.execute("DELETE FROM graph_refs WHERE id = 9")  # the ledger's reference: its edge goes
        assert _ids(conn, "graph_edges") == [5]
        conn.execute("DELETE FROM graph_nodes WHERE id = 3")  # the call's target (5)
        assert _ids(conn, "graph_edges") == [] and _ids(conn, "graph_refs") == [7]
        conn.execute("DELETE FROM graph_nodes WHERE id = 2")  # its reference
        assert _ids(conn, "graph_refs") == [] and _ids(conn, "graph_edges") == []
        assert _ids(conn, "graph_nodes") == [1, 4]
    finally:
        conn.close()


def test_only_the_graph_foreign_keys_are_removed():
    sql = (
        "CREATE TABLE graph_edges (\n    src INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,\n"
        "    ref_id INTEGER REFERENCES graph_refs(id) ON DELETE CASCADE,\n"
        "    fact_id INTEGER REFERENCES facts(id) ON DELETE SET NULL\n)"
    )
    assert schema_checks.without_graph_references(sql) == (
        "CREATE TABLE graph_edges (\n    src INTEGER NOT NULL,\n    ref_id INTEGER,\n"
        "    fact_id INTEGER REFERENCES facts(id) ON DELETE SET NULL\n)"
    )


@pytest.mark.skipif(not hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"), reason="Python < 3.12: no setconfig")
def test_a_sqlite_that_refuses_schema_edits_keeps_the_foreign_keys_and_the_cascades(tmp_path):
    path = tmp_path / "k.db"
    graph_store_before(path, 24)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("BEGIN IMMEDIATE")
    (migration,) = [m for m in available() if m.version == 24]
    for statement in statements(migration.sql):  # its triggers
        conn.execute(statement)
    schema_checks.graph_without_foreign_keys(conn)
    conn.execute("COMMIT")
    assert len(conn.execute("PRAGMA foreign_key_list('graph_edges')").fetchall()) == 3
    conn.execute("DELETE FROM graph_nodes WHERE id = 2")
    assert _ids(conn, "graph_refs") == [9] and _ids(conn, "graph_edges") == [4, 8]  # 4: the other symbol's `defines`
    conn.close()
