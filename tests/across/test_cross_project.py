"""All projects (issue 15): boundaries, labels, dates, the transverse memory and promotion.

Real stores, the real CLI entry point, the official MCP client over an in-memory session
and the cockpit's Starlette app: nothing is mocked.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import anyio
import pytest
from across_corpus import SECRET, build
from mcp.shared.memory import create_connected_server_and_client_session
from starlette.testclient import TestClient

from conftest import NOW
from kenning.clock import iso
from kenning.store import facts as fact_store
from kenning.store.readonly import open_readonly


@pytest.fixture
def machine(make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    return build(make_project)


def mcp(project, tool: str, arguments: dict, *, cross_project: bool = True) -> tuple[dict, str, bool]:
    from kenning.interfaces.mcp.server import build_server

    server = build_server(project, clock=lambda: NOW, cross_project=cross_project)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            result = await client.call_tool(tool, arguments)
            return result.structuredContent, result.content[0].text, result.isError

    return anyio.run(run)


def head(title: str) -> str:
    """An ADR's title without its section (``ADR-0001: X > Decision`` → ``ADR-0001: X``)."""
    return title.split(" > ")[0]


def cli_json(cli, *args: str) -> dict:
    result = cli(*args, "--json")
    assert result.code == 0, result.err
    return result.json()


def every_cross_project_output(machine, cli) -> dict[str, tuple[dict, str]]:
    """Every cross-project answer, as (JSON, text), by the surface that gave it."""
    out: dict[str, tuple[dict, str]] = {}
    for name, args in {
        "cli ask": ("ask", "memory", "--all-projects"),
        "cli ask identifier": ("ask", "where is rrf_fuse", "--all-projects"),
        "cli ask dated": ("ask", "what did I decide about memory since September", "--all-projects"),
        "cli search": ("search", "memory", "--all-projects"),
        "cli stale": ("stale", "--all-projects"),
    }.items():
        out[name] = (cli_json(cli, *args), cli(*args).out)
    for name, (tool, arguments) in {
        "mcp memory_ask": ("memory_ask", {"question": "memory", "scope": "all"}),
        "mcp memory_ask dated": (
            "memory_ask",
            {"question": "what did I decide about memory since 2026-09-01", "scope": "all"},
        ),
        "mcp memory_search": ("memory_search", {"query": "memory", "project": "*"}),
        "mcp memory_search list": ("memory_search", {"query": "memory", "project": "beta,secret,nobody"}),
    }.items():
        structured, text, error = mcp(machine.alpha, tool, arguments)
        assert not error, text
        out[name] = (structured, text)
    from kenning.interfaces.web.app import create_app

    with TestClient(
        create_app(machine.alpha, home=machine.home, clock=lambda: NOW), base_url="http://127.0.0.1"
    ) as client:
        api = client.get("/api/ask", params={"q": "memory", "scope": "all"})
        page = client.get("/ask", params={"q": "memory", "scope": "all"})
        stale = client.get("/stale", params={"scope": "all"})
    assert api.status_code == page.status_code == stale.status_code == 200
    out["web api"] = (api.json(), page.text + stale.text)
    return out


def test_a_cross_project_question_labels_readable_projects_and_lists_the_excluded_with_their_reason(machine, cli):
    answer = cli_json(cli, "ask", "memory", "--all-projects")
    assert answer["scope"]["projects"] == ["alpha", "beta"]
    excluded = {e["project"]: e["reason"] for e in answer["scope"]["excluded"]}
    assert set(excluded) == {"secret", "broken"}
    assert excluded["secret"].startswith("confidential")
    assert excluded["broken"].startswith("unreadable") and "cannot be read" in excluded["broken"]
    assert "not a database" not in excluded["broken"]  # the engine's wording stays inside
    assert {e["project"] for e in answer["excerpts"]} == {"alpha", "beta"}
    text = cli("ask", "memory", "--all-projects").out
    assert "excluded: secret (confidential" in text and "excluded: broken (unreadable" in text
    assert "── alpha ──" in text and "── beta ──" in text


def test_no_excerpt_of_the_confidential_project_appears_in_any_cross_project_output(machine, cli):
    outputs = every_cross_project_output(machine, cli)
    for surface, (data, text) in outputs.items():
        blob = json.dumps(data) + text
        assert SECRET not in blob, surface
        assert "kn://secret/" not in blob, surface
    # the pack of another project never reads it either
    assert cli("pack", "build", "--project", str(machine.alpha.root)).code == 0
    pack = (machine.alpha.state_dir / "cache" / "pack.md").read_text(encoding="utf-8")
    assert SECRET not in pack
    # …and a confidential project still answers questions scoped to itself
    own = cli_json(cli, "search", SECRET, "--project", str(machine.secret.root))
    assert own["excerpts"] and all(e["project"] == "secret" for e in own["excerpts"])


def test_no_excerpt_cites_a_project_other_than_its_own(machine, cli):
    cli("remember", "I prefer memory notes short", "--global")
    stores = {p.name: p for p in (machine.alpha, machine.beta)}
    from kenning.across.stores import global_project

    stores["global"] = global_project(machine.home)
    checked = 0
    for surface, (data, _) in every_cross_project_output(machine, cli).items():
        excerpts = [*data.get("excerpts", []), *data.get("rollups", [])]
        assert excerpts, surface
        for ex in excerpts:
            assert ex["citation"] == f"kn://{ex['project']}/{ex['id']}", surface
            conn = open_readonly(stores[ex["project"]].db_path)
            try:
                fact = fact_store.get(conn, ex["project"], ex["id"])
            finally:
                conn.close()
            assert (fact.title, fact.source.uri) == (ex["title"], ex["source"]["uri"]), surface
            checked += 1
    assert checked > 20


def test_what_did_i_decide_since_a_date_returns_dated_decisions_labelled_by_project(machine, cli):
    answer = cli_json(
        cli, "ask", "What did I decide about memory in all my projects since September?", "--all-projects"
    )
    got = {(e["project"], head(e["title"])) for e in answer["excerpts"]}
    assert got == {("alpha", "ADR-0001: Memory lives in SQLite"), ("beta", "ADR-0003: Memory retention of 270 days")}
    assert all(e["type"] == "decision" and e["dates"]["source"] >= "2026-09-01" for e in answer["excerpts"])
    assert answer["rule"] == "window" and "decisions only, dated from 2026-09-01" in answer["notes"][0]
    # the June decision is outside the window; with an explicit --since before it, it comes back
    earlier = cli_json(cli, "ask", "what did I decide about memory", "--all-projects", "--since", "2026-05-01")
    assert ("alpha", "ADR-0002: Memory cache in process") in {
        (e["project"], head(e["title"])) for e in earlier["excerpts"]
    }
    # without topic words: every decision in the window, newest first
    newest = cli_json(cli, "ask", "what did I decide since 2026-09-01", "--all-projects")
    assert list(dict.fromkeys(head(e["title"]) for e in newest["excerpts"])) == [
        "ADR-0001: Memory lives in SQLite",
        "ADR-0003: Memory retention of 270 days",
    ]
    # French, and through MCP with since / until
    french = cli_json(cli, "ask", "qu'ai-je décidé sur SQLite depuis septembre", "--all-projects")
    assert {(e["project"], head(e["title"])) for e in french["excerpts"]} == {
        ("alpha", "ADR-0001: Memory lives in SQLite")
    }
    structured, _, error = mcp(
        machine.alpha,
        "memory_ask",
        {"question": "what did I decide about memory since 2026-09-01 until 2026-09-30", "scope": "all"},
    )
    assert not error and {(e["project"], e["type"]) for e in structured["excerpts"]} == {("beta", "decision")}


def test_date_and_type_filters_work_for_search_across_projects_and_bad_dates_are_usage_errors(machine, cli):
    found = cli_json(cli, "search", "memory", "--all-projects", "--type", "decision", "--since", "2026-09-01")
    assert {e["project"] for e in found["excerpts"]} == {"alpha", "beta"}
    assert all(e["type"] == "decision" and e["dates"]["source"] >= "2026-09-01" for e in found["excerpts"])
    until = cli_json(cli, "search", "memory", "--project", str(machine.alpha.root), "--until", "2026-07-01")
    assert {head(e["title"]) for e in until["excerpts"]} == {"ADR-0002: Memory cache in process"}
    bad = cli("search", "memory", "--all-projects", "--since", "September")
    assert bad.code == 2 and "--since must be a date YYYY-MM-DD" in bad.err
    empty = cli_json(cli, "search", "memory", "--project", str(machine.alpha.root), "--since", "2027-01-01")
    assert empty["empty_reason"] == "all_filtered" and empty["filtered"]["date"] >= 1


def test_cross_project_reads_never_write_to_another_store(machine, cli):
    def digest(project):
        return hashlib.sha256(project.db_path.read_bytes()).hexdigest()

    before = {p.name: digest(p) for p in (machine.alpha, machine.beta, machine.secret)}
    every_cross_project_output(machine, cli)
    assert {p.name: digest(p) for p in (machine.alpha, machine.beta, machine.secret)} == before


def test_mcp_scope_all_is_refused_without_the_switch_and_allowed_by_the_user_config(machine):
    for tool, arguments in (
        ("memory_ask", {"question": "memory", "scope": "all"}),
        ("memory_search", {"query": "memory", "project": "*"}),
        ("memory_search", {"query": "memory", "project": "alpha,beta"}),
    ):
        structured, text, error = mcp(machine.alpha, tool, arguments, cross_project=False)
        assert error and structured["error"]["type"] == "CrossProjectOff", tool
        assert "--cross-project" in text and "cross_project = true" in text
    # its own project stays served without the switch
    structured, _, error = mcp(
        machine.alpha, "memory_search", {"query": "memory", "project": "alpha"}, cross_project=False
    )
    assert not error and {e["project"] for e in structured["excerpts"]} == {"alpha"}
    (machine.home / "config.toml").write_text("cross_project = true\n", encoding="utf-8")
    structured, _, error = mcp(machine.alpha, "memory_ask", {"question": "memory", "scope": "all"}, cross_project=False)
    assert not error and structured["scope"]["projects"] == ["alpha", "beta"]
    (machine.home / "config.toml").write_text("cross_projects = true\n", encoding="utf-8")
    structured, text, error = mcp(
        machine.alpha, "memory_ask", {"question": "memory", "scope": "all"}, cross_project=False
    )
    assert error and "unknown key" in text


def test_promotion_from_a_confidential_project_is_refused_and_a_promoted_fact_keeps_its_provenance(machine, cli):
    secret_hit = cli_json(cli, "search", SECRET, "--project", str(machine.secret.root))["excerpts"][0]
    refused = cli("promote", str(secret_hit["id"]), "--project", str(machine.secret.root))
    assert refused.code == 1 and "confidential" in refused.err and "never promoted" in refused.err
    assert not (machine.home / "global" / ".kenning" / "kenning.db").exists()  # nothing written

    adr = cli_json(cli, "search", "SQLite", "--project", str(machine.alpha.root), "--type", "decision")["excerpts"][0]
    promoted = cli_json(cli, "promote", adr["citation"], "--project", str(machine.alpha.root))
    assert promoted["created"] is True and promoted["citation"].startswith("kn://global/")
    origin = promoted["promoted_from"]
    assert (origin["project"], origin["id"], origin["citation"]) == ("alpha", adr["id"], adr["citation"])
    assert origin["source"]["uri"] == adr["source"]["uri"] and origin["locations"]
    again = cli_json(cli, "promote", str(adr["id"]), "--project", str(machine.alpha.root))
    assert (again["created"], again["id"]) == (False, promoted["id"])

    answer = cli_json(cli, "ask", "SQLite memory", "--all-projects")
    served = next(e for e in answer["excerpts"] if e["project"] == "global")
    assert served["citation"] == promoted["citation"] and "global" in answer["scope"]["projects"]
    assert served["meta"]["promoted_from"]["citation"] == adr["citation"]
    assert served["freshness"]["state"] == "unverified"


def test_the_transverse_memory_ages_in_tiers_and_is_saved_from_mcp(machine, cli, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", "2025-12-01T12:00:00Z")
    assert cli("remember", "Prefer tabs over spaces in every project", "--global").code == 0
    monkeypatch.setenv("KENNING_NOW", "2026-04-01T12:00:00Z")
    assert cli("remember", "Prefer short commit messages in every project", "--global").code == 0
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    found = cli_json(cli, "search", "prefer project", "--all-projects")["excerpts"]
    states = {e["title"]: (e["freshness"]["state"], e["project"]) for e in found}
    assert states["Prefer tabs over spaces in every project"] == ("hypothesis", "global")  # > 270 days
    assert states["Prefer short commit messages in every project"] == ("unverified", "global")  # 242 days
    mine = [e["title"] for e in found if e["project"] == "global"]
    assert mine == [
        "Prefer short commit messages in every project",  # demoted less than the hypothesis
        "Prefer tabs over spaces in every project",
    ]
    structured, text, error = mcp(
        machine.alpha, "save_memory", {"text": "Answer in English", "scope": "global"}, cross_project=False
    )
    assert not error and structured["citation"].startswith("kn://global/") and structured["created"]
    again, _, error = mcp(machine.alpha, "save_memory", {"text": "Answer in English", "project": "global"})
    assert not error and again["citation"] == structured["citation"] and not again["created"]  # the older spelling
    here, _, error = mcp(machine.alpha, "save_memory", {"text": "Answer in French", "scope": "project"})
    assert not error and here["citation"].startswith("kn://alpha/")
    _, text, error = mcp(machine.alpha, "save_memory", {"text": "x", "scope": "everywhere"})
    assert error and "ValidationError" in text and "scope" in text
    found = cli_json(cli, "search", "answer in English", "--all-projects")["excerpts"]
    assert [e["project"] for e in found if e["title"] == "Answer in English"] == ["global"]


def test_projects_list_shows_each_store_state_and_rename_follows_into_the_config(machine, cli):
    conn = __import__("sqlite3").connect(machine.beta.db_path)
    conn.execute("DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)")
    conn.commit()
    conn.close()
    rows = {r["name"]: r for r in cli_json(cli, "projects", "list")["projects"]}
    assert rows["alpha"]["state"] == "ok" and rows["alpha"]["facts"] > 0 and rows["alpha"]["size_bytes"] > 0
    assert rows["alpha"]["last_sync"] and rows["alpha"]["confidential"] is False
    assert rows["secret"]["confidential"] is True and rows["secret"]["state"] == "ok"
    assert rows["broken"]["state"] == "unreadable" and "cannot be read" in rows["broken"]["reason"]
    assert rows["beta"]["state"] == "outdated" and "kenning sync" in rows["beta"]["reason"]
    answer = cli_json(cli, "ask", "memory", "--all-projects")
    assert any(
        e["project"] == "beta" and e["reason"].startswith("outdated schema") for e in answer["scope"]["excluded"]
    )
    renamed = cli_json(cli, "projects", "rename", "alpha", "alpha2")
    assert renamed["name"] == "alpha2"
    assert 'name = "alpha2"' in (machine.alpha.state_dir / "config.toml").read_text(encoding="utf-8")
    assert cli("projects", "rename", "alpha2", "global").code == 2
    assert cli("projects", "rename", "alpha2", "--", "-x").code == 2  # a name a command line would read as an option
    assert cli("projects", "rename", "nobody", "x").code == 1


def test_asking_each_store_for_its_share_gives_the_list_asking_for_the_whole_limit_gives(machine):
    """``_across`` asks each store first for the ranks that can enter the merged top ``limit``
    (``rank.shares``, by the stores' beliefs; ``coverage.DEPTH`` at least), then again once their
    answers weighed them (``answered_weights``); the merged list must be exactly the weighed RRF
    over every store asked for ``limit``, each weighed by its belief and its first excerpts."""
    from kenning.across.answers import answered_weights, search_all, store_weights
    from kenning.across.coverage import DEPTH
    from kenning.across.rank import fuse
    from kenning.across.stores import OneShot
    from kenning.answer.search import SearchOptions, search_project
    from kenning.config import load_project
    from kenning.registry import list_entries
    from kenning.search.query import parse
    from kenning.store.db import open_store

    stores = [(p, open_store(p, read_only=True)) for p in (machine.alpha, machine.beta)]
    unequal = 0  # questions whose stores weigh apart: the shares are not plain RRF's
    try:
        for query in ("memory", "rrf_fuse", "sqlite retention", "decision status", "nothing-matches-this"):
            terms = parse(query).terms
            beliefs = store_weights(stores, terms)
            for limit in (1, 2, 3, 5, 10):
                options = SearchOptions(limit=limit, count_hidden=False)
                merged = search_all(list_entries(machine.home), query, options, now=NOW, stores=OneShot(load_project))
                answers = [search_project(p, query, options, now=NOW) for p, _ in stores]
                deep = replace(options, limit=max(limit, DEPTH))
                firsts = [(p.name, search_project(p, query, deep, now=NOW)) for p, _ in stores]
                weighed = answered_weights(beliefs, terms, firsts)
                unequal += len(set(weighed.values())) > 1
                whole = fuse(answers, limit, weighed)
                assert [e.fact.citation for e in merged.excerpts] == [e.fact.citation for e in whole], (query, limit)
    finally:
        for _, conn in stores:
            conn.close()
    assert unequal


def test_memory_search_over_named_projects_lists_confidential_and_unknown_names_as_excluded(machine):
    structured, text, error = mcp(machine.alpha, "memory_search", {"query": "memory", "project": "beta,secret,nobody"})
    assert not error and {e["project"] for e in structured["excerpts"]} == {"beta"}
    excluded = {e["project"]: e["reason"] for e in structured["scope"]["excluded"]}
    assert excluded["secret"].startswith("confidential") and excluded["nobody"] == "not registered on this machine"
    _, text, error = mcp(machine.alpha, "memory_search", {"query": "memory", "project": "beta,../x"})
    assert error and "ValidationError" in text


def test_memory_search_text_names_the_excluded_projects_and_never_says_none_is_registered(machine):
    """The text the model reads says which projects were left out and why, as the structured
    content does; a search of only unknown names is not "no project registered on this machine"."""
    _, text, error = mcp(machine.alpha, "memory_search", {"query": "memory", "project": "beta,secret,nobody"})
    assert not error
    assert "excluded: nobody (not registered on this machine)" in text
    assert "excluded: secret (confidential" in text
    structured, text, error = mcp(machine.alpha, "memory_search", {"query": "memory", "project": "nobody"})
    assert not error and structured["excerpts"] == []
    assert "no project registered on this machine" not in text
    assert "excluded: nobody (not registered on this machine)" in text
    assert "note: no registered project could be searched" in text


def test_memory_get_reads_the_records_a_cross_project_search_cited(machine):
    """Layer 3 across projects: memory_search(project="*") cited kn://beta/N and kn://global/N,
    but memory_get refused every one of them, so full records were out of reach."""
    from kenning.across.transverse import remember_global

    remember_global(machine.home, "Memory notes stay short, one idea each.", now=NOW)
    found, _, _ = mcp(machine.alpha, "memory_search", {"query": "memory", "project": "*"})
    cited = {e["project"]: e["citation"] for e in found["excerpts"]}
    assert {"beta", "global"} <= set(cited)
    for name in ("beta", "global"):
        got, text, error = mcp(machine.alpha, "memory_get", {"ids": [cited[name]]})
        assert not error, text
        assert [f["citation"] for f in got["facts"]] == [cited[name]] and got["facts"][0]["body"]
    got, text, error = mcp(machine.alpha, "memory_get", {"ids": [cited["beta"], "kn://beta/999"]})
    assert not error and got["missing"] == [999] and "not found: kn://beta/999" in text
    secret, text, error = mcp(machine.alpha, "memory_get", {"ids": ["kn://secret/1"]})
    assert error and secret["error"]["type"] == "ScopeDenied" and "confidential" in text and SECRET not in text
    _, text, error = mcp(machine.alpha, "memory_get", {"ids": ["kn://nobody/1"]})
    assert error and "not registered on this machine" in text
    _, text, error = mcp(machine.alpha, "memory_get", {"ids": [cited["beta"]]}, cross_project=False)
    assert error and "ScopeDenied" in text  # the switch off: refused as before
    _, text, error = mcp(machine.alpha, "memory_get", {"ids": [cited["beta"], 1]})
    assert error and "ScopeDenied" in text  # one project per call
