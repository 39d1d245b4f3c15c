"""Another project's citation, from a cross-project search, in the tools that take one:
`memory_get` read it (foreign.py) while `memory_timeline` and the graph tools refused it with
`ScopeDenied`. Now each answers from that project's store, with that store's freshness, when
the caller may read it, and refuses it exactly as `memory_get` does when it may not.

Real stores, the official MCP client over an in-memory session; HTTP: test_mcp_http.py."""

from __future__ import annotations

import anyio
import pytest
from across_corpus import SECRET, build
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.clock import iso


@pytest.fixture
def machine(make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    return build(make_project)


def mcp(project, calls: list[tuple[str, dict]], *, cross_project: bool = True) -> list[tuple[dict, str, bool]]:
    """Each (tool, arguments) called in one session: (structured content, text, is error)."""
    from kenning.interfaces.mcp.server import build_server

    server = build_server(project, clock=lambda: NOW, tools="all", cross_project=cross_project)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            out = []
            for tool, arguments in calls:
                result = await client.call_tool(tool, arguments)
                out.append((result.structuredContent, result.content[0].text, result.isError))
            return out

    return anyio.run(run)


def beta_citation(machine, query: str, title_end: str = "") -> str:
    [(found, _, _)] = mcp(machine.alpha, [("memory_search", {"query": query, "project": "beta"})])
    titles = {e["title"]: e["citation"] for e in found["excerpts"] if e["project"] == "beta"}
    return next((c for t, c in titles.items() if t.endswith(title_end)), str(titles))


def test_memory_timeline_of_another_projects_citation_reads_that_store_with_its_freshness(machine):
    cited = beta_citation(machine, "retention", "> Decision")
    adr = machine.beta.root / "docs/decisions/0003-memory-retention.md"  # its decision changed since the sync
    adr.write_text(adr.read_text(encoding="utf-8").replace("becomes a", "turns into a"), encoding="utf-8")
    [(timeline, text, error)] = mcp(machine.alpha, [("memory_timeline", {"anchor": cited})])
    assert not error, text
    assert timeline["project"] == "beta" and f"around {cited}" in text
    rows = timeline["timeline"]
    assert rows and all(r["citation"].startswith("kn://beta/") for r in rows)
    anchor = next(r for r in rows if r["offset"] == 0)
    assert anchor["citation"] == cited and anchor["id"] == timeline["anchor"]
    assert anchor["freshness"]["state"] == "stale"  # judged against beta's file, not alpha's tree


def test_memory_timeline_of_a_transverse_memory_citation_reads_the_users_notes(machine):
    from kenning.across.transverse import remember_global

    _, first = remember_global(machine.home, "Memory notes stay short, one idea each.", now=NOW)
    _, second = remember_global(machine.home, "Answer in English.", now=NOW)
    cited = f"kn://global/{first.fact_id}"
    [(timeline, text, error)] = mcp(machine.alpha, [("memory_timeline", {"anchor": cited})])
    assert not error, text
    assert timeline["project"] == "global"
    assert [r["citation"] for r in timeline["timeline"]] == [cited, f"kn://global/{second.fact_id}"]


def test_graph_tools_answer_another_projects_citation_from_that_store(machine):
    code = '"""Retention."""\n\n\ndef expire_unconfirmed(notes):\n    return notes\n'
    (machine.beta.root / "src").mkdir()
    (machine.beta.root / "src/retention.py").write_text(code, encoding="utf-8")
    resync(machine.beta)  # beta's graph: a file that defines a symbol
    cited = beta_citation(machine, "expire_unconfirmed", "expire_unconfirmed(notes)")
    calls = [
        ("graph_neighbours", {"node": cited}),
        ("graph_touches", {"node": f"`{cited}`"}),
        ("graph_impact", {"node": cited}),
    ]
    for (answer, text, error), (tool, _) in zip(mcp(machine.alpha, calls), calls, strict=True):
        assert not error, (tool, text)
        assert answer["scope"]["projects"] == ["beta"], tool
        assert all(e["citation"].startswith("kn://beta/") for e in answer["excerpts"]), tool
    neighbours = mcp(machine.alpha, calls[:1])[0][0]
    assert cited in [e["citation"] for e in neighbours["excerpts"]]  # the node itself, found in beta's graph
    [(here, _, error)] = mcp(machine.alpha, [("graph_neighbours", {"node": "src/fusion.py"})])
    assert not error and here["scope"]["projects"] == ["alpha"]  # a plain name: this server's own graph


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("memory_timeline", lambda ref: {"anchor": ref}),
        ("graph_neighbours", lambda ref: {"node": ref}),
        ("graph_path", lambda ref: {"node": ref, "other": "src/fusion.py"}),
    ],
)
def test_a_citation_the_server_may_not_read_is_refused_as_memory_get_refuses_it(machine, tool, arguments):
    cited = beta_citation(machine, "retention")
    for ref, switch in (("kn://secret/1", True), ("kn://nobody/1", True), (cited, False)):
        (got, got_text, got_error), (other, text, error) = mcp(
            machine.alpha, [("memory_get", {"ids": [ref]}), (tool, arguments(ref))], cross_project=switch
        )
        assert got_error and error, (ref, text)
        assert other["error"] == got["error"] and other["error"]["type"] == "ScopeDenied", (ref, text)
        assert SECRET not in text
