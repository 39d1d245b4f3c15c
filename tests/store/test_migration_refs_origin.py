"""Migrations 0017 and 0018: a reference stores its origin as '' when it is its source node's, a
node when it is its path; the graph serves the same origins, URIs and edges, and a source's
nodes and references still go with it."""

from __future__ import annotations

import sqlite3

from migration_support import served_content, store_before

from kenning.store import graph, graph_refs, graph_write
from kenning.store.db import connect

FP_A = "a" * 64
SERVED = (
    "SELECT id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id FROM {} ORDER BY id"
)


def old_store(path) -> None:
    """A store at the schema before 0017, its references holding their origin."""
    conn = store_before(path, 17)
    conn.execute("INSERT INTO manifest VALUES ('a.py', 10, 1, ?, 'python/3', '2026-01-01T00:00:00Z', 2)", (FP_A,))
    conn.executemany(
        "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, origin, line_start, line_end) "
        "VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (1, "file", "file:a.py", "a.py", "a", "a.py", "a.py", None, None),
            (2, "symbol", "symbol:a.py:go", "go", "a.go", "a.py", "a.py", 4, 6),
            (3, "symbol", "symbol:a.py:save", "save", "a.save", "a.py", "a.py", 8, 9),
            (4, "task", "task:T-1", "T-1", "", None, "ledger", None, None),
        ],
    )
    conn.executemany(
        "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, link, line, source_kind, source_uri, "
        "fingerprint) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (1, "a.py", 2, "calls", "symbol", "save", "extracted", 5, "file", None, None),
            (2, "ledger", 4, "evidence_of", "file", "a.py", "declared", 3, "file", "ledger.jsonl#T-1", "c" * 64),
            (3, "docs/x.md", 1, "links_to", "file", "a.py", "extracted", 7, "file", None, None),  # another source's
        ],
    )
    conn.executemany(
        "INSERT INTO graph_edges (id, src, dst, type, link, ref_id) VALUES (?,?,?,?,?,?)",
        [
            (1, 2, 3, "calls", "heuristic", 1),
            (2, 4, 1, "evidence_of", "declared", 2),
            (3, 1, 1, "links_to", "extracted", 3),
        ],
    )
    conn.executemany(  # the file's declarations of its symbols
        "INSERT INTO graph_edges (id, src, dst, type, link, source_kind, source_uri, line, origin) "
        "VALUES (?,?,?,'defines','declared','file',?,?,'a.py')",
        [(4, 1, 2, "a.py:4-6", 4), (5, 1, 3, "a.py:8-9", 8)],
    )
    conn.close()


def test_references_lose_the_origin_their_node_holds_and_serve_it_unchanged(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    before_edges = sqlite3.connect(path).execute(SERVED.format("graph_edges_sourced")).fetchall()
    conn = connect(path, create=True)  # a writer migrates
    try:
        stored = conn.execute("SELECT id, origin FROM graph_refs ORDER BY id").fetchall()
        assert [tuple(r) for r in stored] == [(1, ""), (2, ""), (3, "docs/x.md")]
        nodes = conn.execute("SELECT id, origin FROM graph_nodes ORDER BY id").fetchall()
        assert [tuple(r) for r in nodes] == [(1, ""), (2, ""), (3, ""), (4, "ledger")]
        assert sorted(r[1] for r in graph.nodes_of_origin(conn, "a.py")) == ["a.py", "go", "save"]
        assert [r[1] for r in graph.nodes_of_origin(conn, "ledger")] == ["T-1"]
        served = conn.execute(SERVED.format("graph_edges_sourced")).fetchall()
        assert served_content(served) == served_content(before_edges)  # 0025: `defines` derived, ids of their own
        assert before_edges[0][6] == "a.py:5-5" and before_edges[0][7] == FP_A
        rows = {r.id: r for r in graph_refs.ref_rows(conn, [1, 2, 3])}
        assert (rows[1].origin, rows[1].source_uri, rows[1].fingerprint) == ("a.py", "a.py:5-5", FP_A)
        assert (rows[2].origin, rows[3].origin) == ("ledger", "docs/x.md")
        assert graph.origins_present(conn, ["a.py", "docs/x.md", "ledger", "b.py"]) == {"a.py", "docs/x.md", "ledger"}
        graph_write.delete_origin(conn, "docs/x.md", nodes=False)  # an origin with no node of its own
        assert [r[0] for r in conn.execute("SELECT id FROM graph_refs ORDER BY id")] == [1, 2]
        graph_write.delete_origin(conn, "a.py")  # its nodes go, and with them the references they start
        assert [r[0] for r in conn.execute("SELECT id FROM graph_refs ORDER BY id")] == [2]
        assert [r[0] for r in conn.execute("SELECT id FROM graph_edges ORDER BY id")] == []
    finally:
        conn.close()


def test_the_origin_index_serves_a_query_for_an_origin(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    try:
        plan = " ".join(
            str(r[3])
            for r in conn.execute(
                "EXPLAIN QUERY PLAN DELETE FROM graph_refs WHERE origin = ? AND origin <> ''", ("a.py",)
            )
        )
        assert "graph_refs_origin" in plan
        for query, index in (
            ("SELECT id FROM graph_nodes WHERE origin = ? AND origin <> ''", "graph_nodes_origin"),
            ("SELECT id FROM graph_nodes WHERE path = ? AND origin = ''", "graph_nodes_path"),
        ):
            plan = " ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {query}", ("a.py",)))
            assert index in plan
    finally:
        conn.close()
