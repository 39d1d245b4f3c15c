"""`kenning ask` and `memory_ask`: routed, answered in the contract, degraded honestly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, commit_all, resync
from kenning import registry
from kenning.answer import ask as ask_module
from kenning.answer import relations as relations_module
from kenning.answer.relations import Walked
from kenning.clock import iso
from kenning.config import kenning_home
from kenning.graph.walk import NO_RELATIONS, GraphState
from kenning.records import Answer
from kenning.store.db import connect

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "core_corpus"


def corpus_files() -> dict[str, str]:
    return {str(p.relative_to(CORPUS)): p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*")) if p.is_file()}


@pytest.fixture
def corpus(make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    project = make_project(corpus_files())
    commit_all(project.root)  # a project under git: its history is read, so no degradation for it
    resync(project)
    return project


def ask(cli, project, question: str, *extra: str) -> dict:
    result = cli("ask", question, "--project", str(project.root), "--json", *extra)
    assert result.code == 0, result.err
    return result.json()


def test_an_identifier_question_is_answered_lexically_and_names_its_rule(corpus, cli):
    answer = ask(cli, corpus, "where is rrf_fuse")
    assert (answer["mode"], answer["rule"], answer["level"]) == ("lexical", "identifier", 0)
    assert answer["degradations"] == []
    assert answer["excerpts"][0]["title"].startswith("def rrf_fuse(rankings")
    assert any("rrf_fuse" in note for note in answer["notes"])


def test_what_is_stale_answers_from_the_freshness_report_without_searching(corpus, cli, monkeypatch):
    from kenning.search import lexical

    def no_search(*args, **kwargs):
        raise AssertionError("the freshness mode must not search")

    monkeypatch.setattr(lexical, "search", no_search)
    monkeypatch.setattr(lexical, "bm25", no_search)
    guide = corpus.root / "docs" / "guide.md"
    guide.write_text(guide.read_text(encoding="utf-8") + "\nA new line.\n", encoding="utf-8")
    answer = ask(cli, corpus, "what is stale")
    assert (answer["mode"], answer["rule"]) == ("freshness", "freshness")
    assert answer["excerpts"] and {e["freshness"]["state"] for e in answer["excerpts"]} == {"stale"}
    assert {e["source"]["uri"].split("#")[0] for e in answer["excerpts"]} == {"docs/guide.md"}


def test_what_should_i_know_answers_from_the_core_pack_in_pack_order(corpus, cli):
    assert cli("pack", "build", "--project", str(corpus.root)).code == 0
    result = cli("ask", "what should I know before working here", "--project", str(corpus.root))
    assert result.code == 0 and "mode core, rule project-frame" in result.out
    answer = ask(cli, corpus, "what should I know before working here")
    manifest = json.loads((corpus.state_dir / "cache" / "pack.json").read_text(encoding="utf-8"))
    opening = [e for e in answer["excerpts"] if e["source"]["uri"].startswith("README.md")]
    assert [e["id"] for e in opening] == manifest["context"]["fact_ids"][: len(opening)]  # its facts, in file order
    assert [e["id"] for e in answer["excerpts"]][len(opening) :] == manifest["order"]
    assert opening and answer["excerpts"][0]["source"]["uri"].startswith("README.md")
    assert answer["excerpts"][len(opening)]["snippet"].startswith("Run `make test` before every commit")
    assert answer["degradations"] == []


def test_without_a_pack_the_core_question_falls_back_to_lexical_and_says_so(corpus, cli):
    answer = ask(cli, corpus, "what are the conventions here")
    assert (answer["mode"], answer["rule"]) == ("lexical", "project-frame")
    assert answer["degradations"] == ["core pack not built"]
    # the rule's note says how to build one, never that a pack nobody built "fits its budget"
    assert answer["notes"][0] == (
        "rule project-frame: asks about the project frame ('conventions'); no core pack is built yet: "
        "run `kenning pack build`"
    )


def test_a_synced_project_with_no_edge_answers_relations_lexically_saying_it_has_no_relations(corpus, cli):
    conn = connect(corpus.db_path)
    conn.execute("DELETE FROM graph_nodes")  # synced, yet nothing declares a relation (its edges go too)
    conn.close()
    answer = ask(cli, corpus, "which evidence touches the search module")
    assert (answer["mode"], answer["rule"]) == ("lexical", "relation")
    assert answer["degradations"] == [NO_RELATIONS]
    assert "kenning sync" not in json.dumps(answer)
    assert answer["excerpts"]


def fake_graph(monkeypatch, *, built: bool, answer=None, error: Exception | None = None) -> None:
    def relation_answer(conn, project, question, *, now, limit):
        if error:
            raise error
        return None if answer is None else Walked(answer, guessed=False)

    state = GraphState.BUILT if built else GraphState.NOT_BUILT
    monkeypatch.setattr(ask_module, "graph_state", lambda conn: state)
    monkeypatch.setattr(relations_module, "relation_answer", relation_answer)  # imported by ask when it runs


def test_with_empty_graph_tables_a_relation_question_is_degraded_too(corpus, cli, monkeypatch):
    fake_graph(monkeypatch, built=False)
    answer = ask(cli, corpus, "what depends on the fusion module")
    assert answer["mode"] == "lexical" and answer["degradations"] == ["graph not built"]


def test_a_failing_graph_engine_is_a_degradation_not_an_empty_answer(corpus, cli, monkeypatch):
    fake_graph(monkeypatch, built=True, error=RuntimeError("boom"))
    answer = ask(cli, corpus, "what depends on the fusion module")
    assert answer["mode"] == "lexical" and answer["degradations"] == ["graph failed: RuntimeError: boom"]


def test_a_built_graph_answers_in_graph_mode_with_the_rule(corpus, cli, monkeypatch):
    fake_graph(monkeypatch, built=True, answer=Answer("q", "graph", None, 0, (corpus.name,)))
    answer = ask(cli, corpus, "what depends on the fusion module")
    assert (answer["mode"], answer["rule"], answer["query"]) == (
        "graph",
        "relation",
        "what depends on the fusion module",
    )


def test_a_plain_question_is_lexical_and_says_why_dense_did_not_serve(corpus, cli):
    answer = ask(cli, corpus, "how does cross-project memory work")  # dense is off in this suite (conftest)
    assert (answer["mode"], answer["rule"], answer["level"]) == ("lexical", "default", 0)
    assert answer["degradations"] == ["dense disabled ([dense] enabled = false in .kenning/config.toml)"]
    assert answer["excerpts"][0]["title"] == "Guide > Cross-project memory"


def test_an_unsynced_project_answers_index_missing_not_an_empty_result(make_project, cli):
    project = make_project(corpus_files())
    result = cli("ask", "where is rrf_fuse", "--project", str(project.root), "--json")
    assert result.code == 1 and result.err.startswith("error: no index to answer from")
    assert result.json()["empty_reason"] == "index_missing"


def test_an_empty_or_oversized_question_is_a_usage_error(corpus, cli):
    assert cli("ask", "   ", "--project", str(corpus.root)).code == 2
    assert cli("ask", "x" * 501, "--project", str(corpus.root)).code == 2


def test_all_projects_lists_each_project_separately_and_excludes_confidential_and_unreadable(
    make_project, cli, monkeypatch
):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    home = kenning_home()
    alpha = make_project(corpus_files(), name="alpha")
    beta = make_project(corpus_files(), name="beta")
    secret = make_project(corpus_files(), name="secret", config='name = "secret"\nconfidential = true\n')
    gone = make_project(corpus_files(), name="gone")
    fresh = make_project(corpus_files(), name="fresh")
    for project in (alpha, beta, secret, gone):
        resync(project)
    for project in (alpha, beta, secret, gone, fresh):
        registry.register(home, project.name, project.root)
    shutil.rmtree(gone.root)
    inner = alpha.root / "docs"  # registered, but its .kenning/ is gone: never read as alpha
    registry.register(home, "inner", inner)
    result = cli("ask", "where is rrf_fuse", "--all-projects", "--json")
    assert result.code == 0, result.err
    answer = result.json()
    assert answer["scope"]["projects"] == ["alpha", "beta"]
    excluded = {e["project"]: e["reason"] for e in answer["scope"]["excluded"]}
    assert set(excluded) == {"secret", "gone", "fresh", "inner"}
    assert excluded["inner"].startswith("unreadable: no .kenning/config.toml")
    assert excluded["secret"].startswith("confidential")
    assert excluded["gone"].startswith("unreadable")
    assert excluded["fresh"].startswith("index missing")
    projects = [e["project"] for e in answer["excerpts"]]
    assert set(projects) == {"alpha", "beta"}
    # one list ranked by RRF over per-project ranks: the two identical corpora alternate
    assert projects[:4] == ["alpha", "beta", "alpha", "beta"]
    assert [e["rank"] for e in answer["excerpts"]] == list(range(1, len(projects) + 1))
    assert all(e["citation"].startswith(f"kn://{e['project']}/") for e in answer["excerpts"])
    text = cli("ask", "where is rrf_fuse", "--all-projects").out
    assert "── alpha ──" in text and "── beta ──" in text and "excluded: secret (confidential" in text


def mcp_call(project, tool: str, arguments: dict, *, cross_project: bool = False) -> dict:
    from kenning.interfaces.mcp.server import build_server

    server = build_server(project, clock=lambda: NOW, cross_project=cross_project)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            result = await client.call_tool(tool, arguments)
            assert not result.isError, result.content
            return result.structuredContent, result.content[0].text

    return anyio.run(run)


@pytest.mark.parametrize(
    "question",
    [
        "where is rrf_fuse",
        "how does cross-project memory work",
        "which evidence touches the search module",
        "what should I know before working here",
        "qu'est-ce qui a changé",
    ],
)
def test_cli_and_mcp_give_the_same_excerpts_in_the_same_order(corpus, cli, question):
    assert cli("pack", "build", "--project", str(corpus.root)).code == 0
    from_cli = ask(cli, corpus, question)
    from_mcp, text = mcp_call(corpus, "memory_ask", {"question": question})
    assert "not instructions" in text
    for key in ("mode", "rule", "level", "degradations", "empty_reason"):
        assert from_mcp[key] == from_cli[key], key
    assert [(e["citation"], e["rank"], e["snippet"]) for e in from_mcp["excerpts"]] == [
        (e["citation"], e["rank"], e["snippet"]) for e in from_cli["excerpts"]
    ]


def test_the_core_pack_tool_and_resource_serve_the_pack_or_the_not_built_line(corpus, cli):
    from kenning.interfaces.mcp.server import build_server

    structured, text = mcp_call(corpus, "core_pack", {})
    assert structured["built"] is False and "project core not built — run `kenning pack build`" in text
    cli("pack", "build", "--project", str(corpus.root))
    structured, text = mcp_call(corpus, "core_pack", {})
    pack = (corpus.state_dir / "cache" / "pack.md").read_text(encoding="utf-8")
    assert structured["built"] is True and pack.rstrip() in text
    server = build_server(corpus, clock=lambda: NOW)

    async def read():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            listed = await client.list_resources()
            assert f"kn://{corpus.name}/core" in [str(r.uri) for r in listed.resources]
            return await client.read_resource(f"kn://{corpus.name}/core")

    contents = anyio.run(read).contents
    assert pack.rstrip() in contents[0].text


def test_memory_ask_rejects_an_unknown_scope(corpus):
    from kenning.interfaces.mcp.server import build_server

    server = build_server(corpus, clock=lambda: NOW)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("memory_ask", {"question": "where is rrf_fuse", "scope": "galaxy"})

    assert anyio.run(run).isError


def test_every_routing_example_runs_end_to_end_and_keeps_its_rule(corpus, cli):
    from kenning.answer.ask import ask_project
    from kenning.route.examples import EXAMPLES

    assert cli("pack", "build", "--project", str(corpus.root)).code == 0
    for question, mode, rule in EXAMPLES:
        answer = ask_project(corpus, question, now=NOW)
        assert answer.rule == rule, question
        served = "lexical" if answer.degradations else mode
        assert answer.mode == served, (question, answer.mode, answer.degradations)
        assert answer.level == 0 and answer.empty_reason != "index_missing"


def test_memory_ask_scope_all_gives_the_same_labelled_list_as_the_cli(make_project, cli, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    home = kenning_home()
    alpha = make_project(corpus_files(), name="alpha")
    secret = make_project(corpus_files(), name="secret", config='name = "secret"\nconfidential = true\n')
    for project in (alpha, secret):
        resync(project)
        registry.register(home, project.name, project.root)
    from_cli = cli("ask", "where is rrf_fuse", "--all-projects", "--json").json()
    from_mcp, text = mcp_call(
        alpha, "memory_ask", {"question": "where is rrf_fuse", "scope": "all"}, cross_project=True
    )
    assert from_mcp["scope"] == from_cli["scope"]
    assert from_mcp["scope"]["excluded"][0]["project"] == "secret"
    assert [e["citation"] for e in from_mcp["excerpts"]] == [e["citation"] for e in from_cli["excerpts"]]
    assert "excluded: secret (confidential" in text
