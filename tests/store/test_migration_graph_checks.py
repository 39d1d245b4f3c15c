"""Migration 0022: graph edges and references keep every row, id and served value, accept and
refuse the same types and link strengths (the CHECK constraints spelled without IN lists, which
SQLite checks at a cost per row), and still go with their node or reference."""

from __future__ import annotations

import sqlite3

import pytest
from migration_support import migrated_graph_store

from kenning.graph.walk import EDGE_TYPES


def test_graph_rows_survive_and_the_same_values_are_accepted_and_refused(tmp_path):
    conn = migrated_graph_store(tmp_path / "k.db", 22)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for type_ in EDGE_TYPES:  # every edge type the graph serves
            for link in ("declared", "heuristic", "extracted"):
                conn.execute(
                    "INSERT INTO graph_edges (src, dst, type, link, ref_id) VALUES (1, 3, ?, ?, 9)", (type_, link)
                )
        for type_, link in (("bogus", "declared"), ("calls", "weak"), ("Calls", "declared"), ("calls", None)):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(
                    "INSERT INTO graph_edges (src, dst, type, link, ref_id) VALUES (1, 3, ?, ?, 9)", (type_, link)
                )
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO graph_refs (origin, src, type, target_kind, target, link, source_kind) "
                "VALUES ('', 1, 'calls', 'symbol', 'x', 'strong', 'file')"
            )
        with pytest.raises(sqlite3.IntegrityError):  # neither a reference nor a source
            conn.execute("INSERT INTO graph_edges (src, dst, type, link) VALUES (1, 3, 'calls', 'declared')")
        conn.execute("DELETE FROM graph_refs WHERE id = 7")  # its edges go with it
        # 8 stays; 3 (a `defines`) and 6 (a test's `tested_by`) are derived where read from 0025 on
        assert [r[0] for r in conn.execute("SELECT id FROM graph_edges WHERE id IN (3, 5, 6, 8) ORDER BY id")] == [8]
        conn.execute("DELETE FROM graph_nodes WHERE id = 4")  # its references, and their edges, go too
        assert conn.execute("SELECT count(*) FROM graph_refs").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM graph_edges WHERE ref_id IS NOT NULL").fetchone()[0] == 0
    finally:
        conn.close()
