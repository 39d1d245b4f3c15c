"""SQLite stores neither a file's ``defines`` edges nor the ``tested_by`` a test's call gives
(migration 0025): the graph serves them from the symbol nodes and from the calls, and counts
them. Both engines serve the same edges; the sync reports the same sizes and deltas."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import NOW, bump_mtime, resync
from kenning.store import graph as graph_store
from kenning.store.db import open_store
from kenning.store.postgres.connection import is_pg
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/__init__.py": "",
    # `total` is defined twice: one node (Python's parser keeps the definition that runs), one `defines`
    "app/cart.py": "def total(items):\n    return sum(items)\n\n\ndef total(items):\n    return 0\n\n\n"
    "class Cart:\n    def add(self, item):\n        return total([item])\n",
    "tests/__init__.py": "",
    "tests/test_cart.py": "from app.cart import Cart, total\n\n\ndef test_total():\n    assert total([1]) == 1\n"
    "\n\ndef test_add():\n    assert Cart().add(2) == 2\n",
}


def served(project) -> list[tuple]:
    """Every node's edges as the store serves them (``edges_of``), by the nodes' keys, ids left out."""
    conn = open_store(project)
    try:
        if is_pg(conn):
            rows = conn.execute("SELECT key FROM graph_nodes WHERE project = %s", (conn.project,)).fetchall()
        else:
            rows = conn.execute("SELECT key FROM graph_nodes").fetchall()
        keys = sorted(row[0] for row in rows)
        out = []
        for key in keys:
            (node,) = graph_store.nodes_by(conn, "key", key, limit=1)
            for edge, forward in graph_store.edges_of(conn, node):
                out.append((key, forward, edge.type, edge.link, edge.src.key, edge.dst.key, edge.source_uri, edge.line))
        return out
    finally:
        conn.close()


def test_sqlite_derives_defines_and_a_tests_tested_by_and_serves_and_counts_them(make_project):
    project = make_project(FILES, name="derived")
    report = resync(project)
    conn = sqlite3.connect(project.db_path)
    stored = conn.execute(
        "SELECT count(*) FROM graph_edges e LEFT JOIN graph_refs r ON r.id = e.ref_id "
        "WHERE e.type = 'defines' OR (e.type = 'tested_by' AND r.tested = 1)"
    ).fetchone()[0]
    total_served = conn.execute("SELECT count(*) FROM graph_edges_sourced").fetchone()[0]
    conn.close()
    assert stored == 0  # a test's import of a symbol (a reference of its own) still is
    edges = served(project)
    defines = {(e[4], e[5], e[6]) for e in edges if e[2] == "defines"}
    assert ("file:app/cart.py", "symbol:app/cart.py:total", "app/cart.py:5-6") in defines  # the node's lines
    assert ("file:app/cart.py", "symbol:app/cart.py:Cart.add", "app/cart.py:10-11") in defines
    assert len([d for d in defines if d[1] == "symbol:app/cart.py:total"]) == 1
    tested = {(e[4], e[5], e[3], e[6]) for e in edges if e[2] == "tested_by" and e[1]}
    assert (
        "symbol:app/cart.py:total",
        "symbol:tests/test_cart.py:test_total",
        "extracted",
        "tests/test_cart.py:5-5",
    ) in tested
    assert (
        "symbol:app/cart.py:Cart.add",
        "symbol:tests/test_cart.py:test_add",
        "extracted",  # ``Cart().add(2)``: a call on an object made in place, of its class (``python/21``)
        "tests/test_cart.py:9-9",
    ) in tested
    assert (
        "symbol:app/cart.py:total",
        "file:tests/test_cart.py",
        "extracted",
        "tests/test_cart.py:1-1",
    ) in tested  # stored
    conn = open_store(project)
    try:
        assert graph_store.counts(conn)[1] == total_served == report.graph["edges"] == report.graph["edges_delta"]
    finally:
        conn.close()

    (project.root / "app" / "cart.py").write_text(FILES["app/cart.py"] + "\n\ndef empty():\n    return total([])\n")
    bump_mtime(project.root / "app" / "cart.py")
    again = resync(project)
    conn = open_store(project)
    try:
        after = graph_store.counts(conn)
    finally:
        conn.close()
    assert again.graph["edges"] == after[1] and again.graph["edges_delta"] == after[1] - report.graph["edges"] == 2
    assert again.graph["nodes_delta"] == 1  # `empty`: its `defines` and its call of `total`


@pytest.mark.parametrize("engine", [ENGINE])
def test_both_engines_serve_the_same_edges(make_project, engine):
    lite = make_project(FILES, name="lite")
    resync(lite)
    server = make_project(FILES, name="server", config=engine_config(engine, "server"))
    resync(server, NOW)
    assert served(server) == served(lite)


def test_a_sync_with_nothing_to_write_reports_the_sizes_the_last_sync_recorded(make_project, monkeypatch):
    """Counting the derived edges costs a no-op sync most of its graph work: a sync that can change
    nothing takes the sizes the last recorded run left, unless a migration upgraded the store since.
    A compiled stylesheet among the candidates is read again at every sync (it is skipped, never
    indexed, and not remembered as a binary file is: tests/ingest/test_skipped_memory.py), so these
    syncs go as far as writing nothing (a sync with nothing to read stops before)."""
    compiled = {
        "styles/site.scss": "body { color: blue; }\n",
        "dist/site.css": "body { color: blue; }\n/*# sourceMappingURL=site.css.map */\n",
        "dist/site.css.map": json.dumps({"version": 3, "sources": ["../styles/site.scss"]}),
    }
    project = make_project({**FILES, **compiled}, name="noop")
    first = resync(project)
    counted: list[int] = []
    real_counts = graph_store.counts

    def counting(conn):
        counted.append(1)
        return real_counts(conn)

    monkeypatch.setattr(graph_store, "counts", counting)
    still = resync(project)
    assert counted == [] and still.writes == 0
    assert (still.graph["nodes"], still.graph["edges"]) == (first.graph["nodes"], first.graph["edges"])
    assert still.graph["nodes_delta"] == still.graph["edges_delta"] == 0

    conn = sqlite3.connect(project.db_path)  # the last migration applied by an upgrade, after that run
    conn.execute("UPDATE schema_migrations SET applied_at = '2999-01-01T00:00:00Z' WHERE version = 25")
    conn.commit()
    conn.close()
    upgraded = resync(project)
    assert counted == [1] and upgraded.graph == still.graph
