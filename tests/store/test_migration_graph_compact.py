"""Migration 0013: graph rows stop repeating their reference, their URI and their file's
fingerprint, and the graph serves the same sources as before."""

from __future__ import annotations

import sqlite3

from migration_support import served_content, store_before

from kenning.store.db import connect

FP_A, FP_LEDGER = "a" * 64, "c" * 64
COLUMNS = "id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id"


def old_store(path) -> None:
    """A store at migration 0012 holding graph rows as 0012 wrote them."""
    conn = store_before(path, 13)
    conn.execute("INSERT INTO manifest VALUES ('a.py', 10, 1, ?, 'python/3', '2026-01-01T00:00:00Z', 2)", (FP_A,))
    nodes = [
        (1, "file", "file:a.py", "a.py", "a", "a.py", "a.py", None, None),
        (2, "symbol", "symbol:a.py:go", "go", "a.go", "a.py", "a.py", 4, 6),
        (3, "symbol", "symbol:a.py:save", "save", "a.save", "a.py", "a.py", 8, 9),
        (4, "task", "task:T-1", "T-1", "", None, "ledger", None, None),
    ]
    conn.executemany(
        "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, origin, line_start, line_end) "
        "VALUES (?,?,?,?,?,?,?,?,?)",
        nodes,
    )
    conn.executemany(
        "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, link, line, source_kind, source_uri, "
        "fingerprint) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (1, "a.py", 2, "calls", "symbol", "save", "extracted", 5, "file", "a.py:5-5", FP_A),
            (2, "ledger", 4, "evidence_of", "file", "a.py", "declared", 3, "file", "ledger.jsonl#T-1", FP_LEDGER),
        ],
    )
    conn.executemany(
        f"INSERT INTO graph_edges ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (1, 2, 3, "calls", "heuristic", "file", "a.py:5-5", FP_A, 5, "a.py", 1),
            (2, 1, 2, "defines", "declared", "file", "a.py:4-6", FP_A, 4, "a.py", None),
            (3, 4, 1, "evidence_of", "declared", "file", "ledger.jsonl#T-1", FP_LEDGER, 3, "ledger", 2),
            (4, 1, 3, "defines", "declared", "file", "a.py:8-9", FP_A, 8, "a.py", None),
        ],
    )
    conn.close()


SERVED = f"SELECT {COLUMNS} FROM {{}} ORDER BY id"


def test_graph_rows_lose_what_they_repeat_and_are_served_unchanged(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    before = sqlite3.connect(path).execute(SERVED.format("graph_edges")).fetchall()
    conn = connect(path, create=True)  # a writer migrates (to the latest schema)
    try:
        # the same edges served (0025 derives the `defines` edges from the nodes, under ids of their own)
        assert served_content(conn.execute(SERVED.format("graph_edges_sourced")).fetchall()) == served_content(before)
        stored = [tuple(r) for r in conn.execute(SERVED.format("graph_edges"))]
        assert [r[0] for r in stored] == [1, 3]
        assert stored[0][5:10] == (None, None, None, None, None)  # resolved from reference 1
        refs = conn.execute("SELECT id, source_uri, fingerprint FROM graph_refs ORDER BY id").fetchall()
        assert [tuple(r) for r in refs] == [(1, None, None), (2, "ledger.jsonl#T-1", FP_LEDGER)]
        conn.execute("DELETE FROM graph_refs WHERE id = 1")  # an edge still goes with its reference
        assert [r[0] for r in conn.execute("SELECT id FROM graph_edges ORDER BY id")] == [3]
    finally:
        conn.close()
