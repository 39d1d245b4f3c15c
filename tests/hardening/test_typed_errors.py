"""Findings 8 and 9: ids, citations, node names and text that are not what they should be get
typed errors in the CLI and through a real MCP client, never a traceback, nothing written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "memory"))

from memory_helpers import Clock, call, make_server, save_direct, session_run  # noqa: E402

from conftest import NOW, resync  # noqa: E402

FILES = {
    "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "docs/guide.md": "# Guide\n\nThe handler calls the helper.\n",
}


@pytest.fixture
def project(make_project):
    made = make_project(FILES, name="demo")
    resync(made)
    save_direct(made, Clock(NOW), "the handler is stable")
    return made


def error_kind(result) -> str:
    """The typed error of an error result. The SDK's own argument validation (the schema: a
    lone surrogate is not a valid string to pydantic) answers before kenning's code, naming
    the field; that counts as ``ValidationError`` until schema errors carry a type."""
    if result.structuredContent and "error" in result.structuredContent:
        return result.structuredContent["error"]["type"]
    text = result.content[0].text
    return "ValidationError" if "validation error for" in text else f"untyped: {text[:200]}"


@pytest.mark.parametrize(
    "args",
    [
        ("get", "²"),
        ("get", "99999999999999999999999"),
        ("get", "9223372036854775808"),
        ("get", "٣"),
        ("get", "kn://elsewhere/1"),
        ("forget", "²", "--reason", "x"),
        ("search", "caf\udce9"),
        ("ask", "where is \ud800"),
        ("get", "\udcff"),
        ("graph", "neighbours", "x" * 60_000),
        ("graph", "impact", "kn://elsewhere/1"),
        ("graph", "path", "handler", "kn://elsewhere/2"),
        ("graph", "touches", "kn://demo/99999999999999999999"),
    ],
)
def test_bad_cli_input_is_a_typed_error_and_changes_nothing(project, cli, args):
    before = project.db_path.read_bytes()
    result = (
        cli(*args, "--project", str(project.root))
        if args[0] != "forget"
        else cli(args[0], args[1], "--project", str(project.root), *args[2:])
    )
    assert result.code == (1 if "kn://elsewhere" in " ".join(args) else 2), result  # ScopeDenied exits 1
    assert result.err.startswith("error: ") and "Traceback" not in result.err
    assert "delete" not in result.err and "pattern too complex" not in result.err
    assert project.db_path.read_bytes() == before


@pytest.mark.parametrize(
    ("tool", "arguments", "kind"),
    [
        ("memory_get", {"ids": ["²"]}, "ValidationError"),
        ("memory_get", {"ids": [10**30]}, "ValidationError"),
        ("memory_get", {"ids": ["99999999999999999999999"]}, "ValidationError"),
        ("memory_get", {"ids": ["kn://elsewhere/1"]}, "ScopeDenied"),
        ("memory_timeline", {"anchor": 10**25}, "ValidationError"),
        ("confirm", {"id": "²"}, "ValidationError"),
        ("forget", {"target": 2**63, "reason": "x"}, "ValidationError"),
        ("supersede", {"old": "kn://elsewhere/1", "new": 1, "reason": "x"}, "ScopeDenied"),
        ("memory_search", {"query": "caf\ud800"}, "ValidationError"),
        ("save_memory", {"text": "lone \udc80 surrogate"}, "ValidationError"),
        ("graph_neighbours", {"node": "kn://elsewhere/1"}, "ScopeDenied"),
        ("graph_impact", {"node": "kn://elsewhere/1"}, "ScopeDenied"),
    ],
)
def test_bad_mcp_input_is_a_typed_error_result_and_changes_nothing(project, tool, arguments, kind):
    before = project.db_path.read_bytes()
    result = call(make_server(project, Clock(NOW)), tool, **arguments)
    assert result.isError
    assert error_kind(result) == kind, result.content
    assert project.db_path.read_bytes() == before


def test_get_tool_uses_with_odd_digits_answers_missing(project):
    result = call(make_server(project, Clock(NOW)), "get_tool_uses", ids=["²", "٣", "99999999999999999999"])
    assert not result.isError
    assert len(result.structuredContent["missing"]) == 3


def test_guided_search_refuses_another_projects_citation_in_selected_ids(project):
    server = make_server(project, Clock(NOW))

    async def body(client):
        first = await client.call_tool("mem_search", {"query": "handler", "mode": "guided"})
        cursor = first.structuredContent["continuation"]
        return (
            first,
            cursor,
            None,
            await client.call_tool("mem_search", {"continuation": cursor, "selectedIds": ["kn://elsewhere/1"]}),
        )

    first, _, _, result = session_run(server, body)
    assert not first.isError
    assert result.isError and result.structuredContent["error"]["type"] == "ScopeDenied"
