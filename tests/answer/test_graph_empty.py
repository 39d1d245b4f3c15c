"""A synced project with no code has an empty graph, and says so: "run kenning sync" is kept
for a project no sync has filled (graph commands, `kenning ask`, MCP graph tools, status)."""

from __future__ import annotations

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.graph.walk import NO_RELATIONS
from kenning.interfaces.mcp.server import build_server

MARKDOWN_ONLY = {
    "docs/ops.md": "# Operations\n\n## Deployment\n\nWe deploy on Wednesdays.\n",
    "README.md": "# Demo\n\nNotes about deploying the service.\n",
}


def test_graph_commands_on_a_synced_markdown_project_say_it_has_no_code_relations(make_project, cli):
    project = make_project(MARKDOWN_ONLY)
    resync(project)
    for args in (("neighbours", "deploy"), ("impact", "docs/ops.md"), ("path", "README.md", "docs/ops.md")):
        result = cli("graph", *args, "--project", str(project.root), "--json")
        assert result.code == 0, result.err
        answer = result.json()
        assert answer["empty_reason"] == "no_match"
        assert answer["notes"] == [NO_RELATIONS]
        assert "graph not built" not in answer["degradations"]
        assert "kenning sync" not in result.out
    text = cli("graph", "neighbours", "deploy", "--project", str(project.root)).out
    assert "no code relations in this project" in text and "kenning sync" not in text


def test_ask_a_relation_on_a_synced_markdown_project_names_no_sync_to_run(make_project, cli):
    project = make_project(MARKDOWN_ONLY)
    resync(project)
    answer = cli("ask", "who calls deploy", "--project", str(project.root), "--json").json()
    assert (answer["mode"], answer["rule"]) == ("lexical", "relation")
    assert NO_RELATIONS in answer["degradations"] and "graph not built" not in answer["degradations"]
    assert answer["excerpts"]


def test_status_of_a_synced_markdown_project_says_the_graph_has_no_relations(make_project, cli):
    project = make_project(MARKDOWN_ONLY)
    resync(project)
    status = cli("status", "--project", str(project.root), "--json").json()
    assert status["engines"]["graph"] == {"available": False, "reason": NO_RELATIONS}


def test_a_store_no_sync_has_filled_still_says_run_kenning_sync(make_project, cli):
    project = make_project(MARKDOWN_ONLY)
    assert cli("remember", "a note before any sync", "--no-embed", "--project", str(project.root)).code == 0
    answer = cli("graph", "neighbours", "deploy", "--project", str(project.root), "--json").json()
    assert answer["empty_reason"] == "index_missing" and "graph not built" in answer["degradations"]
    assert any("run `kenning sync`" in note for note in answer["notes"])


def test_mcp_graph_tools_on_a_synced_markdown_project_say_it_has_no_code_relations(make_project):
    project = make_project(MARKDOWN_ONLY)
    resync(project)
    server = build_server(project, clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("graph_neighbours", {"node": "deploy"})

    result = anyio.run(main)
    assert not result.isError
    assert result.structuredContent["empty_reason"] == "no_match"
    assert "no code relations in this project" in result.content[0].text
    assert "kenning sync" not in result.content[0].text
