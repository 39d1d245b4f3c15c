"""Tool profiles: the default list is small, named profiles hold the seeds' contracts, an
unknown profile is a typed usage error (CLI exit 2, nothing started)."""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session
from mcp.types import ListToolsResult

from kenning.errors import ValidationError
from kenning.interfaces.mcp.profiles import PROFILES, resolve
from kenning.interfaces.mcp.server import build_server


def names_and_cost(project, tools):
    async def main():
        async with create_connected_server_and_client_session(build_server(project, tools=tools)._mcp_server) as c:
            return (await c.list_tools()).tools

    listed = anyio.run(main)
    wire = ListToolsResult(tools=listed).model_dump_json(by_alias=True, exclude_none=True)
    return sorted(t.name for t in listed), len(wire) / 4


def test_default_profile_is_seven_tools_within_1500_tokens(make_project):
    names, tokens = names_and_cost(make_project({"a.md": "# A\n"}), "default")
    assert names == sorted(
        ["memory_ask", "memory_index", "memory_search", "memory_get", "save_memory", "core_pack", "graph_impact"]
    )
    assert tokens <= 1500, tokens


@pytest.mark.parametrize(
    "profile, expected",
    [
        ("xmemo", {"search_memory", "recall", "recall_context", "forget"}),
        ("guided", {"mem_search"}),
        ("graph", {"graph_neighbours", "graph_path", "graph_impact", "graph_touches"}),
        ("write", {"save_memory", "supersede", "confirm", "forget"}),
        ("guided,graph", {"mem_search", "graph_neighbours", "graph_path", "graph_impact", "graph_touches"}),
    ],
)
def test_named_profiles(make_project, profile, expected):
    names, _ = names_and_cost(make_project({"a.md": "# A\n"}), profile)
    assert set(names) == expected


def test_all_is_every_tool_and_costs_more_than_three_defaults(make_project):
    project = make_project({"a.md": "# A\n"})
    names, tokens = names_and_cost(project, "all")
    _, default = names_and_cost(project, "default")
    assert len(names) == 19 and tokens > 3 * default


def test_unknown_profile_is_a_typed_error():
    with pytest.raises(ValidationError) as caught:
        resolve("default,everything")
    assert "everything" in caught.value.message and "xmemo" in caught.value.hint
    assert resolve("all") is None and resolve(["xmemo", "guided"]) == frozenset(PROFILES["xmemo"] + PROFILES["guided"])


def test_cli_refuses_an_unknown_profile_before_serving(cli, make_project):
    project = make_project({"a.md": "# A\n"})
    result = cli("mcp", "--project", str(project.root), "--tools", "nope")
    assert result.code == 2 and "unknown tool profile(s): nope" in result.err
