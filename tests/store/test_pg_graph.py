"""Level 2, the graph (issue 18): the same repository synced into the local SQLite store and
into PostgreSQL gives the same graph answers — `kenning graph *`, the MCP graph tools and
relation questions in `ask` — node for node, edge for edge (fact ids aside: each engine numbers
its own). Two projects with the same node names in one database never see each other's edges."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session
from pg_engine import server_url

from conftest import NOW, resync
from graph import graph_repo
from kenning.graph import paths, walk
from kenning.interfaces.mcp.server import build_server
from kenning.store import graph as graph_store
from kenning.store.db import open_store

pytestmark = pytest.mark.postgres

GRAPH_QUERIES = (
    ("neighbours", "rrf_fuse"),
    ("neighbours", "src/demo/fusion.py", "--hops", "2"),
    ("neighbours", "ADR-0003", "--include-superseded"),
    ("neighbours", "web/app.ts"),
    ("neighbours", "T-2", "--hops", "2", "--edge", "depends_on", "--edge", "touches"),
    ("impact", "rrf_fuse"),
    ("impact", "src/demo/fusion.py"),
    ("touches", "src/demo/fusion.py"),
    ("touches", "rrf_fuse"),
    ("path", "test_rrf_fuse_orders", "T-2"),
    ("path", "hybrid", "ADR-0007"),
    ("path", "V-1", "src/demo/search.py"),
    ("path", "Engine.run", "no_such_node"),
)
RELATION_QUESTIONS = (
    "what calls rrf_fuse",
    "where is rrf_fuse defined",
    "which task touched src/demo/fusion.py",
    "what depends on fusion.py",
    "what does hybrid call",
    "what is the impact of changing rrf_fuse",
    "which decision superseded ADR-0003",
)


def _shape(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what each engine numbers or times on its own."""
    return {
        "rule": answer["rule"],
        "mode": answer["mode"],
        "empty_reason": answer["empty_reason"],
        "filtered": answer["filtered"],
        "notes": answer["notes"],
        "degradations": sorted(answer["degradations"]),
        "excerpts": [
            (
                ex["type"],
                ex["title"],
                ex["source"]["uri"],
                ex["source"]["fingerprint"],
                ex["lifecycle"],
                ex["freshness"]["state"],
                ex["snippet"],
                ex.get("explain"),
                ex.get("path"),
            )
            for ex in answer["excerpts"]
        ],
    }


@pytest.fixture
def twin(make_project, monkeypatch):
    """The graph repository synced into the local store, and the same checkout served by
    PostgreSQL under a fresh name (tests share one database)."""
    monkeypatch.setenv("KENNING_NOW", "2026-11-30T00:00:00Z")
    project = graph_repo.build(make_project)
    resync(project)
    name = f"graph-{uuid.uuid4().hex[:10]}"
    (project.state_dir / "config.toml").write_text(f'name = "{name}"\n', encoding="utf-8")
    local = replace(project, config=replace(project.config, name=name))
    resync(local)
    remote = replace(local, config=replace(local.config, store=server_url()))
    report = resync(remote)
    assert report.graph["nodes"] > 0 and report.graph["edges"] > 0
    return local, remote


def test_graph_commands_answer_on_postgresql_as_on_sqlite(cli, twin, monkeypatch):
    local, remote = twin
    root = str(local.root)
    for query in GRAPH_QUERIES:
        on_sqlite = cli("graph", *query, "--project", root, "--json")
        monkeypatch.setenv("KENNING_DATABASE_URL", remote.config.store)
        on_pg = cli("graph", *query, "--project", root, "--json")
        monkeypatch.delenv("KENNING_DATABASE_URL")
        assert on_pg.code == on_sqlite.code == 0, (query, on_pg.err)
        assert on_pg.json()["level"] == 2
        assert _shape(on_pg.json()) == _shape(on_sqlite.json()), query
    found = [cli("graph", *q, "--project", root, "--json").json()["excerpts"] for q in GRAPH_QUERIES]
    assert sum(1 for f in found if f) >= len(GRAPH_QUERIES) - 1  # only the unknown end is empty
    path = cli("graph", "path", "test_rrf_fuse_orders", "T-2", "--project", root, "--json").json()
    assert len(path["excerpts"]) >= 3  # a real path: several hops, each with its sourced edge


def test_an_unreachable_server_answers_graph_commands_from_the_local_store_and_says_so(cli, twin, monkeypatch):
    local, _ = twin
    monkeypatch.setenv("KENNING_DATABASE_URL", "postgresql://kenning@127.0.0.1:1/nothing")
    answer = cli("graph", "neighbours", "rrf_fuse", "--project", str(local.root), "--json").json()
    assert answer["level"] == 0 and answer["excerpts"]
    assert any("answered from the local level-0 store" in d for d in answer["degradations"])


def test_relation_questions_answer_on_postgresql_from_the_graph(cli, twin, monkeypatch):
    local, remote = twin
    root = str(local.root)
    modes = []
    for question in RELATION_QUESTIONS:
        on_sqlite = cli("ask", question, "--project", root, "--json").json()
        monkeypatch.setenv("KENNING_DATABASE_URL", remote.config.store)
        on_pg = cli("ask", question, "--project", root, "--json").json()
        monkeypatch.delenv("KENNING_DATABASE_URL")
        assert not any("not implemented" in d for d in on_pg["degradations"]), question
        assert on_pg["level"] == 2 and on_pg["mode"] == on_sqlite["mode"], question
        assert _shape(on_pg) == _shape(on_sqlite), question
        modes.append(on_pg["mode"])
    assert modes.count("graph") >= 4, modes  # answered from the graph, not lexically


def test_graph_tools_over_mcp_answer_on_postgresql(twin):
    local, remote = twin

    async def main(project):
        server = build_server(project, clock=lambda: NOW)
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return [
                (await client.call_tool(tool, args)).structuredContent
                for tool, args in (
                    ("graph_touches", {"node": "src/demo/fusion.py"}),
                    ("graph_path", {"node": "hybrid", "other": "ADR-0007"}),
                    ("graph_impact", {"node": "rrf_fuse"}),
                )
            ]

    on_sqlite, on_pg = anyio.run(main, local), anyio.run(main, remote)
    assert [_shape(a) for a in on_pg] == [_shape(a) for a in on_sqlite]
    assert {"task", "evidence", "verdict", "commit"} <= {ex["type"] for ex in on_pg[0]["excerpts"]}


def test_status_on_postgresql_reports_the_graph(cli, twin, monkeypatch):
    local, remote = twin
    monkeypatch.setenv("KENNING_DATABASE_URL", remote.config.store)
    status = cli("status", "--project", str(local.root), "--json").json()
    assert status["level"] == 2 and status["engines"]["graph"]["available"] is True
    assert not any(d.startswith("postgresql: graph") for d in status["degradations"])


def test_two_projects_with_the_same_names_never_share_an_edge(make_project):
    """Same repository, two project names, one database: every answer stays in its project."""
    project = graph_repo.build(make_project)
    stores = []
    for _ in range(2):
        name = f"twin-{uuid.uuid4().hex[:10]}"
        served = replace(project, config=replace(project.config, name=name, store=server_url()))
        resync(served)
        stores.append(open_store(served))
    try:
        a, b = stores
        assert graph_store.counts(a) == graph_store.counts(b)
        a_ids = {n.id for n in walk.find_nodes(a, "rrf_fuse")}
        b_ids = {n.id for n in walk.find_nodes(b, "rrf_fuse")}
        assert a_ids and b_ids and not a_ids & b_ids
        for conn in (a, b):
            starts = walk.find_nodes(conn, "rrf_fuse")
            hits = walk.neighbours(conn, starts, hops=2) + walk.impact(conn, starts) + walk.touches(conn, starts)
            other = b if conn is a else a
            foreign = {n.id for n in walk.find_nodes(other, "src/demo/fusion.py")} | (b_ids if conn is a else a_ids)
            for hit in hits:
                assert hit.node.id not in foreign
                for step in hit.steps:
                    assert step.edge.src.id not in foreign and step.edge.dst.id not in foreign
            path = paths.path_between(conn, starts, walk.find_nodes(other, "T-2"))
            assert path == []  # the other project's task is not reachable from here
            ids = [h.node.id for h in hits]
            assert graph_store.nodes_by_id(conn, ids).keys() == set(ids)
            assert graph_store.nodes_by_id(other, ids) == {}
            assert graph_store.edges_near(other, starts, depth=2, limit=50) == {}  # not even read ahead
            assert graph_store.edges_of(other, starts[0]) == []
    finally:
        for conn in stores:
            conn.close()


def test_edges_near_reads_ahead_what_edges_of_reads_bounded_by_depth_and_limit(twin):
    _, remote = twin
    conn = open_store(remote)
    try:
        starts = walk.find_nodes(conn, "src/demo/fusion.py")
        assert [n.id for n in starts] and graph_store.edges_near(conn, starts, depth=0, limit=50).keys() == {
            n.id for n in starts
        }
        near = graph_store.edges_near(conn, starts, depth=3, limit=500)
        by_id = graph_store.nodes_by_id(conn, list(near))
        assert len(near) > 5  # the graph walked undirected has cycles: the recursion still ends
        for node_id, edges in near.items():
            assert edges == graph_store.edges_of(conn, by_id[node_id]), by_id[node_id].label
        reached = {h.node.id for h in walk.neighbours(conn, starts, hops=3, limit=500)} | {n.id for n in starts}
        assert set(near) == reached  # exactly the nodes within three edges, either direction
        assert len(graph_store.edges_near(conn, starts, depth=3, limit=3)) <= 3
    finally:
        conn.close()
