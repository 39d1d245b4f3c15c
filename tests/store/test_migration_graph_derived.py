"""Migration 0025: a file's ``defines`` edges and the ``tested_by`` of a test's call are no longer
stored but derived where the graph is read; the graph serves the same edges (under ids of their
own), counts them, and reads a node's edges through indexes only."""

from __future__ import annotations

from migration_support import migrated_graph_store

from kenning.store import graph
from kenning.store.graph import DEFINES_IDS, MIRROR_IDS


def test_derived_edges_leave_the_table_and_are_served_and_counted(tmp_path):
    conn = migrated_graph_store(tmp_path / "k.db", 25)  # checks every served edge kept
    try:
        assert [r[0] for r in conn.execute("SELECT id FROM graph_edges ORDER BY id")] == [5, 8]
        served = conn.execute("SELECT id, src, dst, type, source_uri, line FROM graph_edges_sourced ORDER BY id")
        assert [tuple(r) for r in served] == [
            (5, 2, 3, "calls", "a.py:5-5", 5),
            (8, 4, 1, "touches", "ledger#T-1", 3),
            (MIRROR_IDS + 5, 3, 2, "tested_by", "a.py:5-5", 5),  # the call, reversed
            (DEFINES_IDS + 2, 1, 2, "defines", "a.py:1-9", 1),  # the symbol's lines
            (DEFINES_IDS + 3, 1, 3, "defines", "a.py:10-12", 10),
        ]
        assert graph.counts(conn) == (4, 5)
    finally:
        conn.close()


def test_a_nodes_edges_are_read_through_indexes(tmp_path):
    """``edges_of``'s query, each way: every part of the view searched by an index, none scanned."""
    conn = migrated_graph_store(tmp_path / "k.db", 25)
    try:
        for near, far in (("src", "dst"), ("dst", "src")):
            plan = [
                str(r[3])
                for r in conn.execute(
                    f"EXPLAIN QUERY PLAN SELECT e.id FROM graph_edges_sourced e JOIN graph_nodes n ON n.id = e.{far} "
                    f"WHERE e.{near} = ?",
                    (1,),
                )
            ]
            scans = [step for step in plan if step.startswith("SCAN") and step != "SCAN e"]  # `e`: the view's rows
            assert scans == [], plan
    finally:
        conn.close()
