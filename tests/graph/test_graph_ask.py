from __future__ import annotations

import graph_repo

from conftest import NOW, resync
from kenning.answer.relations import relation_answer
from kenning.graph.walk import GraphState, graph_state
from kenning.store.db import connect


def test_relation_answer_finds_the_node_named_in_the_question_and_picks_the_walk(make_project):
    project = graph_repo.build(make_project)
    conn = connect(project.db_path, create=True)
    try:
        assert graph_state(conn) is GraphState.NOT_BUILT
    finally:
        conn.close()
    resync(project)
    conn = connect(project.db_path)
    try:
        assert graph_state(conn) is GraphState.BUILT
        walked = relation_answer(conn, project, "where is `rrf_fuse` defined and what calls it", now=NOW)
        assert not walked.guessed  # typed in backticks: a name, not a guess
        calls = walked.answer
        assert calls.mode == "graph" and calls.rule == "graph.callers"
        names = [ex.explain["node"]["name"] for ex in calls.excerpts]
        assert "demo.fusion.rrf_fuse" not in names  # the node itself is not its own caller
        assert {"demo.search.hybrid", "demo.search.Engine.run"} <= set(names[:3]), names
        assert all(
            ex.explain["relation"] == "callers" and ex.explain["direction"] == "incoming" for ex in calls.excerpts
        )
        assert calls.excerpts[0].path[-1]["type"] == "calls"
        touched = relation_answer(conn, project, "quelles tâches touchent src/demo/fusion.py ?", now=NOW).answer
        assert touched.rule == "graph.touches" and "task" in {ex.fact.type for ex in touched.excerpts}
        assert relation_answer(conn, project, "how is the weather today", now=NOW) is None
    finally:
        conn.close()


def test_an_excerpt_citation_names_the_graph_nodes_it_stands_for(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    root = ("--project", str(project.root))
    first = cli("graph", "neighbours", "rrf_fuse", "--json", *root).json()["excerpts"][0]
    again = cli("graph", "neighbours", first["citation"], "--json", *root).json()["excerpts"][0]
    assert again["citation"] == first["citation"] and again["explain"]["node"]["name"] == "demo.fusion.rrf_fuse"
