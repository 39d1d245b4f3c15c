"""`kenning get` and `kenning memory get` read the citations other stores gave (`kn://global/N`
from `kenning remember --global`, `kn://beta/N` from a search across projects), through the
core that MCP `memory_get` shares (`across.cited`); an unknown project or id, and a project
that cannot be read, are typed errors."""

from __future__ import annotations

import pytest
from across_corpus import SECRET, build

from conftest import NOW
from kenning.clock import iso


@pytest.fixture
def machine(make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    return build(make_project)


def remember_global(cli, machine, text: str) -> str:
    saved = cli("remember", text, "--global", "--no-embed", "--project", str(machine.alpha.root), "--json")
    assert saved.code == 0, saved.err
    return saved.json()["citation"]


def test_get_reads_a_global_note_by_the_citation_remember_gave(machine, cli):
    citation = remember_global(cli, machine, "I prefer small commits, one idea each.")
    assert citation.startswith("kn://global/")
    for command in (("get",), ("memory", "get")):
        result = cli(*command, citation, "--project", str(machine.alpha.root), "--json")
        assert result.code == 0, result.err
        [fact] = result.json()["facts"]
        assert fact["citation"] == citation and fact["body"] == "I prefer small commits, one idea each."
    text = cli("get", citation, "--project", str(machine.alpha.root)).out
    assert text.startswith(citation) and "I prefer small commits" in text


def test_get_reads_a_global_note_from_outside_any_project(machine, cli, tmp_path, monkeypatch):
    citation = remember_global(cli, machine, "Tabs are for Makefiles only.")
    elsewhere = tmp_path / "not-a-project"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = cli("get", citation, "--json")
    assert result.code == 0, result.err
    assert result.json()["facts"][0]["body"] == "Tabs are for Makefiles only."


def test_get_reads_another_registered_projects_citation_and_lists_its_missing_ids(machine, cli):
    found = cli("search", "memory", "--project", str(machine.beta.root), "--json").json()
    citation = found["excerpts"][0]["citation"]
    assert citation.startswith("kn://beta/")
    result = cli("get", citation, "kn://beta/999", "--project", str(machine.alpha.root), "--json")
    assert result.code == 0, result.err
    answer = result.json()
    assert [f["citation"] for f in answer["facts"]] == [citation] and answer["missing"] == [999]
    text = cli("get", citation, "kn://beta/999", "--project", str(machine.alpha.root)).out
    assert "not found: kn://beta/999" in text


def test_an_unknown_project_or_id_is_a_typed_error(machine, cli):
    nobody = cli("get", "kn://nobody/1", "--project", str(machine.alpha.root), "--json")
    assert nobody.code == 1 and nobody.json()["error"]["type"] == "NotFound"
    assert "no project 'nobody' is registered on this machine" in nobody.err
    missing = cli("get", "kn://beta/999", "--project", str(machine.alpha.root), "--json")
    assert missing.code == 1 and missing.json()["error"]["type"] == "NotFound"
    assert "no fact #999 in project 'beta'" in missing.err
    unsaved = cli("get", "kn://global/1", "--project", str(machine.alpha.root), "--json")
    assert unsaved.code == 1 and unsaved.json()["error"]["type"] == "NotFound"


def test_a_confidential_or_unreadable_project_is_refused_with_its_reason(machine, cli):
    secret = cli("get", "kn://secret/1", "--project", str(machine.alpha.root), "--json")
    assert secret.code == 1 and secret.json()["error"]["type"] == "ScopeDenied"
    assert "confidential" in secret.err and SECRET not in secret.out + secret.err
    broken = cli("get", "kn://broken/1", "--project", str(machine.alpha.root), "--json")
    assert broken.code == 1 and broken.json()["error"]["type"] == "ScopeDenied"
    assert "unreadable" in broken.err


def test_an_unknown_id_of_a_readable_project_stays_not_found_through_mcp(machine):
    """The MCP tools read another project's store through the same core; an id that store
    lacks is its NotFound, never turned into the project's ScopeDenied."""
    import anyio
    from mcp.shared.memory import create_connected_server_and_client_session

    from kenning.interfaces.mcp.server import build_server

    server = build_server(machine.alpha, clock=lambda: NOW, tools="all", cross_project=True)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            timeline = await client.call_tool("memory_timeline", {"anchor": "kn://beta/99999"})
            got = await client.call_tool("memory_get", {"ids": ["kn://beta/99999"]})
            return timeline, got

    for result in anyio.run(run):
        assert result.isError and result.structuredContent["error"]["type"] == "NotFound", result.content[0].text
