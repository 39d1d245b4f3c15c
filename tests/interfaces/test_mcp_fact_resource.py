"""The fact resource `kn://{project}/{fact}` reads what `memory_get` reads for the same
citation, and refuses what it refuses: another registered project's fact (`kn://beta/3`) when
the server may read that project (stdio: `--cross-project`; HTTP: the token's projects), a
typed `ScopeDenied` when it may not. It refused every other project, and over HTTP it did not
follow the token at all. The SDK's clients: stdio against the real command in a subprocess,
streamable HTTP against a real uvicorn server."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from mcp_http_helpers import Refused, running, with_session

from conftest import NOW, resync
from kenning import registry
from kenning.auth import tokens
from kenning.interfaces.mcp.http import create_app

KENNING = str(Path(sys.executable).with_name("kenning"))


@pytest.fixture()
def machine(make_project, isolated_home):
    alpha = make_project({"README.md": "# Alpha\n\nThe signing keys rotate nightly.\n"}, name="alpha")
    beta = make_project({"README.md": "# Beta\n\nBeta keys are kept elsewhere.\n"}, name="beta")
    for each in (alpha, beta):
        resync(each)
        registry.register(isolated_home, each.name, each.root)
    return alpha, isolated_home


def over_stdio(alpha, home, *flags: str) -> tuple[str, str | None, str]:
    """(beta's citation from a cross-project search, the resource's text or None, the error)."""
    params = StdioServerParameters(
        command=KENNING,
        args=["mcp", "--project", str(alpha.root), *flags],
        env={**os.environ, "KENNING_HOME": str(home)},
    )

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            found = await session.call_tool("memory_search", {"query": "beta keys", "project": "*"})
            assert not found.isError or "--cross-project" not in flags, found.content[0].text
            cited = "kn://beta/1"
            if not found.isError:
                cited = next(e["citation"] for e in found.structuredContent["excerpts"] if e["project"] == "beta")
            got = await session.call_tool("memory_get", {"ids": [cited]})
            try:
                content = await session.read_resource(cited)
            except McpError as exc:
                return cited, None, str(exc), got
            return cited, content.contents[0].text, "", got

    cited, text, error, got = anyio.run(main)
    if text is None:  # refused exactly where memory_get is refused
        assert got.isError and got.structuredContent["error"]["type"] in error
    else:
        assert not got.isError and text.endswith(got.content[0].text.split("\n", 1)[1])
    return cited, text, error


def test_over_stdio_with_cross_project_the_resource_reads_another_registered_projects_fact(machine):
    alpha, home = machine
    cited, text, error = over_stdio(alpha, home, "--cross-project")
    assert error == ""
    assert cited.startswith("kn://beta/") and "Beta keys are kept elsewhere." in (text or "")


def test_over_stdio_without_cross_project_another_projects_fact_is_scope_denied(machine):
    alpha, home = machine
    _, text, error = over_stdio(alpha, home)
    assert text is None
    assert error.startswith("error (ScopeDenied): ") and "Beta keys" not in error


def read(url: str, secret: str, uri: str) -> str:
    """The resource's text, or the typed error it was refused with."""

    async def body(session):
        try:
            content = await session.read_resource(uri)
        except McpError as exc:
            return str(exc)
        return content.contents[0].text

    return with_session(url, secret, body)


def test_over_http_the_resource_follows_the_tokens_projects_and_paths(machine):
    alpha, home = machine
    token = {"scopes": [tokens.READ], "paths": [], "name": None, "expires": "30d", "now": NOW}
    _, both = tokens.create(home, projects=["alpha", "beta"], **token)
    _, only_alpha = tokens.create(home, projects=["alpha"], **token)
    _, docs_only = tokens.create(home, projects=["alpha", "beta"], **{**token, "paths": ["docs/"]})
    _, writer = tokens.create(home, projects=["alpha", "beta"], **{**token, "scopes": [tokens.WRITE]})
    with running(create_app(alpha, home=home, tools="all", clock=lambda: NOW)) as url:
        found = with_session(url, both, lambda s: s.call_tool("memory_search", {"query": "beta", "project": "beta"}))
        cited = found.structuredContent["excerpts"][0]["citation"]
        own = with_session(url, both, lambda s: s.call_tool("memory_search", {"query": "signing keys"}))
        own_cited = own.structuredContent["excerpts"][0]["citation"]
        beta_read = read(url, both, cited)
        refused = read(url, only_alpha, cited)
        alpha_read = read(url, only_alpha, own_cited)
        global_read = read(url, both, "kn://global/1")
        path_bound = read(url, docs_only, own_cited)
        with pytest.raises(Refused) as no_read_scope:
            read(url, writer, own_cited)
    assert cited.startswith("kn://beta/") and "Beta keys are kept elsewhere." in beta_read
    assert refused.startswith("error (ScopeDenied): project 'beta' is not readable from this server: outside")
    assert "Beta keys" not in refused
    assert "The signing keys rotate nightly." in alpha_read
    assert global_read.startswith("error (ScopeDenied): ") and "outside this token's projects" in global_read
    assert path_bound.startswith("error (ScopeDenied): scope divergence") and "bound to path(s) docs/" in path_bound
    assert no_read_scope.value.status == 403
    assert "lacks scope memory:read" in no_read_scope.value.body["error"]["message"]
