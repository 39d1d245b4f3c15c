"""A core-mode answer shows each fact's own text under that fact's citation, never another's.

The pack's context is the README's opening, which spans several sections (several facts):
the answer cites each of them with its own text, not the whole opening under the first one.
"""

from __future__ import annotations

import json
import re

import pytest
from engine_projects import memory_ask

from conftest import NOW, commit_all, resync
from kenning.clock import iso
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

README = """# Billing service

The billing service computes invoices for customers. Prices are stored in cents.

## Conventions

- Always store money as integer cents, never floats.
- Use `compute_total` to sum invoice lines.

## Deployment

We deploy on Tuesdays after the weekly review.
"""

ADR = """# ADR-0001: Use PostgreSQL for invoices

* Status: accepted
* Date: 2026-10-01

## Context

We need transactional storage for invoices.

## Decision

We chose PostgreSQL because it supports transactions and row-level locking.
"""

QUESTION = "what should I know before working here"


@pytest.fixture(params=["sqlite", ENGINE])
def billing(request, make_project, cli, monkeypatch):
    """The tree on SQLite, and served by PostgreSQL (the same answers from either store)."""
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    files = {"README.md": README, "docs/adr/0001-use-postgres.md": ADR}
    project = make_project(files, name="billing", config=engine_config(request.param, "billing"))
    commit_all(project.root)
    assert cli("sync", "--project", str(project.root)).code == 0
    return project


def drawn_from(snippet: str, body: str) -> bool:
    """Every word of the snippet is in the body, in order (headings, markup and punctuation
    may be left out of a snippet, nothing added)."""
    words = iter(re.findall(r"\w+", body.lower()))
    return all(word in words for word in re.findall(r"\w+", snippet.lower()))


def ask_json(cli, project) -> dict:
    result = cli("ask", QUESTION, "--project", str(project.root), "--json")
    assert result.code == 0, result.err
    answer = result.json()
    assert answer["mode"] == "core"
    return answer


def body_of(cli, project, citation: str) -> str:
    result = cli("get", citation, "--project", str(project.root), "--json")
    assert result.code == 0, result.err
    return result.json()["facts"][0]["body"]


def assert_each_snippet_is_its_facts_text(cli, project, excerpts: list[dict]) -> None:
    assert excerpts
    for excerpt in excerpts:
        body = body_of(cli, project, excerpt["citation"])
        assert drawn_from(excerpt["snippet"], body), (excerpt["citation"], excerpt["snippet"], body)


def test_every_core_snippet_is_the_text_of_the_fact_it_cites(billing, cli):
    assert cli("pack", "build", "--project", str(billing.root)).code == 0
    answer = ask_json(cli, billing)
    assert_each_snippet_is_its_facts_text(cli, billing, answer["excerpts"])
    shown = " ".join(e["snippet"] for e in answer["excerpts"])
    for line in ("Prices are stored in cents", "never floats", "We deploy on Tuesdays", "We chose PostgreSQL"):
        assert line in shown  # the pack shows them: the answer cites the facts that hold them
    titles = [e["title"] for e in answer["excerpts"]]
    assert titles[:3] == ["Billing service", "Billing service > Conventions", "Billing service > Deployment"]


def test_memory_ask_cites_the_same_facts_with_their_own_text(billing, cli):
    assert cli("pack", "build", "--project", str(billing.root)).code == 0
    from_mcp = memory_ask(billing, QUESTION, NOW)
    assert from_mcp["mode"] == "core"
    assert_each_snippet_is_its_facts_text(cli, billing, from_mcp["excerpts"])
    from_cli = ask_json(cli, billing)
    assert [(e["citation"], e["snippet"]) for e in from_mcp["excerpts"]] == [
        (e["citation"], e["snippet"]) for e in from_cli["excerpts"]
    ]


def test_a_pack_built_against_another_store_never_lends_its_text_to_a_fact(billing, cli):
    """A store rebuilt from scratch numbers its facts anew: the old manifest's ids then name
    other facts. Each excerpt still shows the text of the fact it cites."""
    if billing.config.store:
        pytest.skip("a SQLite store rebuilt from its file; a server's store is not deleted by hand")
    assert cli("pack", "build", "--project", str(billing.root)).code == 0
    manifest_path = billing.state_dir / "cache" / "pack.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for leftover in billing.state_dir.glob("kenning.db*"):
        leftover.unlink()
    # a file read first: the same ids now hold other facts
    (billing.root / "AAA.md").write_text("# Aardvark\n\nAn unrelated note about aardvarks.\n", encoding="utf-8")
    resync(billing)
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")  # the old pack, kept
    answer = ask_json(cli, billing)
    assert_each_snippet_is_its_facts_text(cli, billing, answer["excerpts"])
    assert "AAA.md" not in {e["source"]["uri"].split("#")[0] for e in answer["excerpts"]}  # not a pack source
    assert any("run `kenning pack build`" in note for note in answer["notes"]), answer["notes"]
    decisions = [e["title"] for e in answer["excerpts"] if e["type"] == "decision"]
    assert all(title.endswith("> Decision") for title in decisions)  # never another section of the ADR


def test_a_decision_whose_section_holds_markup_is_still_cited_with_its_own_text(make_project, cli, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    adr = ADR.replace(
        "We chose PostgreSQL",
        "<!-- why: the options are in the wiki -->\nWe chose <b>PostgreSQL</b>",
    )
    project = make_project({"README.md": README, "docs/adr/0001-use-postgres.md": adr}, name="markup")
    commit_all(project.root)
    resync(project)
    assert cli("pack", "build", "--project", str(project.root)).code == 0
    answer = ask_json(cli, project)
    assert_each_snippet_is_its_facts_text(cli, project, answer["excerpts"])
    decisions = [e for e in answer["excerpts"] if e["type"] == "decision"]
    assert [e["title"] for e in decisions] == ["ADR-0001: Use PostgreSQL for invoices > Decision"]
    assert "PostgreSQL because it supports transactions" in decisions[0]["snippet"]
    assert not any("no longer in the store" in note for note in answer["notes"]), answer["notes"]
