from __future__ import annotations

import anyio
import graph_repo
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.interfaces.mcp.server import build_server


def test_graph_touches_over_mcp_returns_the_answer_contract_with_typed_paths(make_project):
    project = graph_repo.build(make_project)
    resync(project)
    server = build_server(project, clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"graph_neighbours", "graph_path", "graph_impact", "graph_touches"} <= tools
            touched = await client.call_tool("graph_touches", {"node": "src/demo/fusion.py"})
            missing = await client.call_tool("graph_neighbours", {"node": "no_such_thing"})
            return touched, missing

    touched, missing = anyio.run(main)
    assert not touched.isError
    answer = touched.structuredContent
    assert answer["mode"] == "graph" and {"task", "evidence", "verdict", "commit"} <= {
        ex["type"] for ex in answer["excerpts"]
    }
    assert "touches(declared)" in touched.content[0].text
    assert missing.structuredContent["empty_reason"] == "no_match"


def test_an_unknown_edge_type_is_a_typed_error_result_not_an_empty_answer(make_project):
    project = graph_repo.build(make_project)
    resync(project)
    server = build_server(project, clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("graph_neighbours", {"node": "rrf_fuse", "edge_types": ["eats"]})

    result = anyio.run(main)
    assert result.isError and result.structuredContent["error"]["type"] == "ValidationError"
    assert "eats" in result.content[0].text
