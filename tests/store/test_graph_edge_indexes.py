"""``graph_write.edge_indexes_built_after``: a cold sync's resolution writes its edges without
maintaining the indexes of ``graph_edges`` row by row, then builds them again from the schema's
own definitions, inside the same transaction (issue 19). The indexes after are the migrations'
indexes, queries use them, and a transaction stopped meanwhile leaves them as they were."""

from __future__ import annotations

import sqlite3

import pytest

from kenning.store import graph_write
from kenning.store.db import connect, transaction

INDEXES = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'graph_edges' ORDER BY name"


def _store(tmp_path) -> sqlite3.Connection:
    conn = connect(tmp_path / "k.db", create=True)
    conn.executemany(
        "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, origin) VALUES (?,?,?,?,?,?,?)",
        [(i, "symbol", f"symbol:a.py:f{i}", f"f{i}", f"a.f{i}", "a.py", "") for i in range(1, 51)],
    )
    return conn


def _edges(n: int) -> list[tuple]:
    return [
        (i, (i * 7) % 50 + 1, "calls", "extracted", "file", f"a.py:{i}-{i}", "f" * 64, i, "a.py") for i in range(1, n)
    ]


def _write(conn: sqlite3.Connection, edges: list[tuple]) -> None:
    conn.executemany(
        "INSERT INTO graph_edges (src, dst, type, link, source_kind, source_uri, fingerprint, line, origin) "
        "VALUES (?,?,?,?,?,?,?,?,?)",
        edges,
    )


def test_the_edges_indexes_are_dropped_while_edges_are_written_then_built_again_as_the_schema_has_them(tmp_path):
    conn = _store(tmp_path)
    schema = [tuple(r) for r in conn.execute(INDEXES)]
    assert {name for name, _ in schema} >= {"graph_edges_src", "graph_edges_dst", "graph_edges_ref"}
    with transaction(conn), graph_write.edge_indexes_built_after(conn):
        assert conn.execute(INDEXES).fetchall() == []  # nothing maintained row by row
        _write(conn, _edges(50))
    assert [tuple(r) for r in conn.execute(INDEXES)] == schema
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"  # each index holds every row
    plan = " ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN SELECT id FROM graph_edges WHERE dst = 3"))
    assert "graph_edges_dst" in plan
    assert conn.execute("SELECT count(*) FROM graph_edges WHERE dst = 3").fetchone()[0] == sum(
        1 for e in _edges(50) if e[1] == 3
    )
    conn.close()


def test_a_transaction_stopped_while_edges_are_written_leaves_the_indexes_and_no_edge(tmp_path):
    conn = _store(tmp_path)
    schema = [tuple(r) for r in conn.execute(INDEXES)]
    with pytest.raises(KeyboardInterrupt), transaction(conn), graph_write.edge_indexes_built_after(conn):
        _write(conn, _edges(50))
        raise KeyboardInterrupt  # stopped as by Ctrl-C, before the indexes are built again
    assert [tuple(r) for r in conn.execute(INDEXES)] == schema
    assert conn.execute("SELECT count(*) FROM graph_edges").fetchone()[0] == 0
    other = sqlite3.connect(tmp_path / "k.db")  # as the next process finds the store
    assert other.execute(INDEXES).fetchall() == schema
    other.close()
    conn.close()


def test_outside_a_transaction_nothing_is_dropped(tmp_path):
    """Dropping outside a transaction would commit at once: a stop would leave no index."""
    conn = _store(tmp_path)
    schema = [tuple(r) for r in conn.execute(INDEXES)]
    with graph_write.edge_indexes_built_after(conn):
        assert [tuple(r) for r in conn.execute(INDEXES)] == schema
        _write(conn, _edges(10))
    assert [tuple(r) for r in conn.execute(INDEXES)] == schema
    conn.close()
