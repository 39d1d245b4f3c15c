"""`kenning get` and the cockpit's source page say a fact's source once, readably, for every
kind: a file's path, a commit's id, a session, a note saved via the CLI or MCP, a promotion —
not `manual manual:cli`, the kind and then a URI that repeats it (walkthrough of 2026-12-02,
cuts6). The JSON contract keeps `source.kind` and `source.uri` as stored."""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session
from starlette.testclient import TestClient

from conftest import NOW, commit_all, resync
from kenning.interfaces.mcp.server import build_server
from kenning.interfaces.render import line_range
from kenning.interfaces.web.app import create_app

FILES = {
    "app/__init__.py": "",
    "app/greet.py": '"""Greetings."""\n\n\ndef greet(name):\n    return f"Hello, {name}!"\n',
}


@pytest.fixture
def project(make_project):
    made = make_project(FILES, "hello")
    commit_all(made.root, "Greet people by name")
    resync(made)
    return made


def _get(cli, project, citation: str) -> tuple[str, dict]:
    text = cli("get", citation, "--project", str(project.root)).out
    (fact,) = cli("get", citation, "--project", str(project.root), "--json").json()["facts"]
    return next(line for line in text.splitlines() if line.startswith("source: ")), fact["source"]


def _citation(cli, project, *args: str) -> str:
    return cli(*args, "--project", str(project.root), "--json").json()["citation"]


def _found(cli, project, query: str, type_: str) -> str:
    answer = cli("search", query, "--type", type_, "--project", str(project.root), "--json").json()
    return answer["excerpts"][0]["citation"]


def _saved_over_mcp(project) -> str:
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("save_memory", {"text": "Agents greet in French."})

    return anyio.run(main).structuredContent["citation"]


def test_get_says_each_kind_of_source_once_and_the_json_keeps_it_as_stored(project, cli):
    note = _citation(cli, project, "remember", "We greet by first name")
    in_session = _citation(cli, project, "memory", "save", "Greeting tested by hand", "--session", "s-42")
    glob = _citation(cli, project, "remember", "--global", "Short commit messages")
    promoted = _citation(cli, project, "promote", note.rsplit("/", 1)[1])
    seen = {
        "file": _get(cli, project, _found(cli, project, "greet", "code")),
        "commit": _get(cli, project, _found(cli, project, "Greet people", "commit")),
        "cli": _get(cli, project, note),
        "mcp": _get(cli, project, _saved_over_mcp(project)),
        "session": _get(cli, project, in_session),
        "global": _get(cli, project, glob),
        "promoted": _get(cli, project, promoted),
    }
    text = {k: line for k, (line, _) in seen.items()}
    assert seen["file"][1]["uri"].startswith("app/greet.py:")
    assert text["file"].startswith(f"source: file {line_range(seen['file'][1]['uri'])} · "), text  # 1-1 as 1
    assert text["commit"].startswith(f"source: commit {seen['commit'][1]['uri']} · "), text
    assert text["cli"].startswith("source: note saved via the CLI · "), text
    assert text["global"].startswith("source: note saved via the CLI · "), text
    assert text["mcp"].startswith("source: note saved via MCP · "), text
    assert text["session"].startswith("source: session s-42 · "), text
    assert text["promoted"].startswith(f"source: promoted from {note} · "), text
    sources = {k: (source["kind"], source["uri"]) for k, (_, source) in seen.items()}
    assert sources["cli"] == sources["global"] == ("manual", "manual:cli")  # the contract is unchanged
    assert sources["mcp"] == ("manual", "manual:mcp")
    assert sources["session"] == ("session", "session:s-42")
    assert sources["promoted"] == ("manual", f"promoted:{note}")


def test_the_cockpit_source_page_says_a_notes_source_once(project, cli, isolated_home):
    note = _citation(cli, project, "remember", "We greet by first name")
    client = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    page = client.get(f"/source/hello/{note.rsplit('/', 1)[1]}").text
    assert "<dd>note saved via the CLI</dd>" in page and "manual manual:cli" not in page, page


def test_get_says_a_commits_id_once_and_the_json_keeps_its_fingerprint(project, cli, isolated_home):
    """Its fingerprint is its id: `source: commit <id> · fingerprint <the same id cut>` said it twice."""
    citation = _found(cli, project, "Greet people", "commit")
    line, source = _get(cli, project, citation)
    sha = source["uri"]
    assert source["fingerprint"] == sha  # the contract is unchanged
    assert line == f"source: commit {sha} · fingerprint: the commit id", line
    assert cli("get", citation, "--project", str(project.root)).out.count(sha[:12]) == 1
    client = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    page = client.get(f"/source/hello/{citation.rsplit('/', 1)[1]}").text
    assert "<dd>the commit id</dd>" in page and page.count(sha[:12]) == 1, page


def test_search_lines_say_a_notes_source_as_get_does(project, cli, isolated_home):
    """Excerpt lines of `search` ended a note with its URI (`— manual:cli`)."""
    _citation(cli, project, "remember", "We greet by first name")
    _citation(cli, project, "memory", "save", "Greeting in French tested by hand", "--session", "s-42")
    where = ("--project", str(project.root))
    out = cli("search", "greet", *where).out
    heads = [line for line in out.splitlines() if line[:1].isdigit()]
    assert any(line.endswith("fact · We greet by first name — note saved via the CLI") for line in heads), out
    assert any(line.endswith("— session s-42") for line in heads), out
    assert any(line.endswith("— app/greet.py:4-5") for line in heads), out  # a file: its path and lines
    assert "manual:cli" not in out and "session:s-42" not in out
    assert "manual:cli" not in cli("ask", "how do we greet", *where).out
    excerpts = cli("search", "greet", *where, "--json").json()["excerpts"]
    assert ("manual", "manual:cli") in {(e["source"]["kind"], e["source"]["uri"]) for e in excerpts}
    client = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    page = client.get("/ask", params={"q": "greet by first name"}).text
    assert ">note saved via the CLI</a>" in page and "manual:cli" not in page, page
