"""Finding 4: a query that would read too much of the index is refused before it runs, and
one that runs past the per-query time budget is stopped, with a typed ``QueryTooCostly``
in the CLI and through a real MCP client."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "memory"))

from memory_helpers import Clock, call, make_server, text  # noqa: E402

from conftest import NOW, resync  # noqa: E402
from kenning.store import fts_guard  # noqa: E402

WORDS = ["session", "search", "store", "sync", "schema", "section", "symbol", "source", "stale", "snippet"]


@pytest.fixture
def project(make_project):
    files = {
        f"docs/n{i:03d}.md": f"# Note {i}\n\n" + " ".join(WORDS[(i + j) % len(WORDS)] for j in range(40)) + "\n"
        for i in range(120)
    }
    made = make_project(files, name="demo")
    resync(made)
    return made


def test_the_expansion_estimate_counts_every_occurrence_of_every_term(project):
    from kenning.store.db import connect

    conn = connect(project.db_path)
    one = fts_guard.estimated_postings(conn, "s*")
    assert one >= 120  # every note holds s-words
    assert fts_guard.estimated_postings(conn, " ".join(["s*"] * 166)) == 166 * one
    assert fts_guard.estimated_postings(conn, 'title:"store sync" OR NEAR(schema s*, 5)') > 0
    assert fts_guard.terms_of('title:"Store sync"* AND NOT x') == {
        ("store", False): 1,
        ("sync", True): 1,
        ("x", False): 1,
    }


def test_a_prefix_query_repeated_past_the_limit_is_refused_cheaply_in_cli_and_mcp(project, cli, monkeypatch):
    monkeypatch.setattr(fts_guard, "MAX_POSTINGS", 1_000)
    query = " ".join(["s*"] * 166)
    result = cli("search", "--syntax", "fts", query, "--project", str(project.root))
    assert result.code == 2 and "index entries" in result.err and "Traceback" not in result.err
    assert cli("search", "--syntax", "fts", "sync", "--project", str(project.root)).code == 0
    reply = call(make_server(project, Clock(NOW)), "memory_search", query=query)
    assert reply.isError and reply.structuredContent["error"]["type"] == "QueryTooCostly"
    assert not call(make_server(project, Clock(NOW)), "memory_search", query="sync").isError


def test_a_query_past_its_time_budget_is_stopped_with_a_typed_error(project, cli, monkeypatch):
    monkeypatch.setattr(fts_guard, "QUERY_BUDGET_SECONDS", 0.0)
    monkeypatch.setattr(fts_guard, "PROGRESS_STEPS", 1)
    result = cli("search", "session store", "--project", str(project.root))
    assert result.code == 2 and "budget" in result.err
    reply = call(make_server(project, Clock(NOW)), "memory_index", query="session store")
    assert reply.isError and reply.structuredContent["error"]["type"] == "QueryTooCostly", text(reply)
    monkeypatch.setattr(fts_guard, "QUERY_BUDGET_SECONDS", 5.0)
    assert cli("search", "session store", "--project", str(project.root)).code == 0
