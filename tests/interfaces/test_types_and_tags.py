"""Unknown `--type` values are refused everywhere with the known types in the hint (a type the
store holds counts as known); a note saved again with new tags gets them merged, and says so."""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning import registry
from kenning.config import kenning_home
from kenning.interfaces.mcp.server import build_server

FILES = {
    "docs/guide.md": "# Guide\n\nThe handler calls the helper.\n",
    "docs/deploy.md": "---\ntype: runbook\n---\n# Deploy\n\nRoll back with the handler switch.\n",
    "src/app.py": "def handler():\n    return 1\n",
}


@pytest.fixture
def project(make_project):
    made = make_project(FILES)
    resync(made)
    return made


def mcp_calls(project, *calls):
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return [await client.call_tool(tool, arguments) for tool, arguments in calls]

    return anyio.run(main)


@pytest.mark.parametrize(
    "args",
    [
        ("search", "handler", "--type", "runbok"),
        ("stale", "--type", "runbok"),
        ("remember", "a note", "--type", "runbok"),
        ("memory", "index", "--type", "runbok"),
        ("memory", "search", "handler", "--type", "code", "--type", "runbok"),
        ("memory", "save", "a note", "--type", "runbok"),
    ],
)
def test_an_unknown_type_is_refused_with_the_known_types_and_nothing_is_written(project, cli, args):
    before = cli("search", "note", "--json", "--project", str(project.root)).json()["excerpts"]
    result = cli(*args, "--project", str(project.root))
    assert result.code == 2
    message, hint = result.err.splitlines()
    assert message == "error: unknown type 'runbok'"
    assert hint.startswith("hint: use one of: ") and "runbook" in hint and "decision" in hint and "code" in hint
    assert cli("search", "note", "--json", "--project", str(project.root)).json()["excerpts"] == before


def test_an_unknown_type_across_projects_is_refused_unless_some_store_holds_it(project, cli):
    registry.register(kenning_home(), project.name, project.root)
    refused = cli("ask", "handler", "--all-projects", "--type", "runbok")
    assert refused.code == 2 and refused.err.startswith("error: unknown type 'runbok'")
    assert cli("search", "handler", "--all-projects", "--type", "runbook").code == 0


def test_a_type_declared_by_a_file_is_known_for_search_and_stale(project, cli):
    root = ("--project", str(project.root))
    hits = cli("search", "roll back handler", "--type", "runbook", "--json", *root).json()["excerpts"]
    assert [h["type"] for h in hits] == ["runbook"]
    (project.root / "docs" / "deploy.md").write_text("---\ntype: runbook\n---\n# Deploy\n\nChanged.\n")
    (project.root / "docs" / "guide.md").write_text("# Guide\n\nChanged too.\n")
    stale = cli("stale", "--type", "runbook", "--json", *root).json()["excerpts"]
    assert stale and {e["type"] for e in stale} == {"runbook"}
    assert len(cli("stale", "--json", *root).json()["excerpts"]) > len(stale)


def test_mcp_refuses_an_unknown_type_filter_and_save_type_with_the_same_words(project, cli):
    search, save = mcp_calls(
        project,
        ("memory_search", {"query": "handler", "type_filter": "runbok"}),
        ("save_memory", {"text": "a note", "type": "runbok"}),
    )
    cli_error = cli("search", "handler", "--type", "runbok", "--project", str(project.root)).err.splitlines()
    for result in (search, save):
        assert result.isError
        error = result.structuredContent["error"]
        assert error["type"] == "ValidationError"
        assert [f"error: {error['message']}", f"hint: {error['hint']}"] == cli_error


def test_remember_again_with_new_tags_merges_them_and_says_so(project, cli):
    root = ("--project", str(project.root))
    first = cli("remember", "Deploys happen on Tuesdays.", "--tags", "ops", "--json", *root).json()
    assert first["created"] is True and first["tags_added"] == []
    again = cli("remember", "Deploys happen on Tuesdays.", "--tags", "ops,release", *root)
    assert again.code == 0
    assert again.out.strip() == f"already saved as {first['citation']}: tags added (release); the text is unchanged"
    same = cli("remember", "Deploys happen on Tuesdays.", "--tags", "release", "--json", *root).json()
    assert same == {"id": first["id"], "citation": first["citation"], "created": False, "tags_added": []}
    fact = cli("get", str(first["id"]), "--json", *root).json()["facts"][0]
    assert fact["tags"] == ["ops", "release"]
    hits = cli("search", "release", "--json", *root).json()["excerpts"]
    assert [h["id"] for h in hits] == [first["id"]]  # the merged tag is searchable


def test_save_memory_again_with_new_tags_merges_them_and_says_so(project):
    first, again, read = mcp_calls(
        project,
        ("save_memory", {"text": "Rotate the keys monthly.", "tags": ["security"]}),
        ("save_memory", {"text": "Rotate the keys monthly.", "tags": ["security", "keys"]}),
        ("memory_search", {"query": "keys"}),
    )
    fact_id = first.structuredContent["id"]
    assert again.structuredContent == {**first.structuredContent, "created": False, "tags_added": ["keys"]}
    assert "tags added (keys)" in again.content[0].text
    (hit,) = [e for e in read.structuredContent["excerpts"] if e["id"] == fact_id]
    assert hit["tags"] == ["security", "keys"]
