"""A "why did we choose X" answer reaches the decision's reasons, in English and in French."""

from __future__ import annotations

import pytest

from conftest import NOW, commit_all
from kenning.clock import iso
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

NYGARD = """# ADR-0001: Use PostgreSQL for invoices

* Status: accepted
* Date: 2026-10-01

## Context

We need transactional storage for invoices.

## Decision

We chose PostgreSQL because it supports transactions and row-level locking.

## Consequences

Operations must run backups nightly.
"""

MADR = """# Queue invoices with Redis streams

## Context and Problem Statement

Invoices are sent in bursts at the end of the month.

## Decision Outcome

Chosen option: Redis streams, because the team already runs Redis and streams keep order.
"""


@pytest.fixture(params=["sqlite", ENGINE])
def billing(request, make_project, cli, monkeypatch):
    """The tree on SQLite, and served by PostgreSQL (the same answers from either store)."""
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    project = make_project(
        {
            "README.md": "# Billing\n\nThe billing service computes invoices.\n",
            "docs/adr/0001-use-postgres.md": NYGARD,
            "docs/adr/0002-queue-with-redis.md": MADR,
        },
        name="billing",
        config=engine_config(request.param, "billing"),
    )
    commit_all(project.root)
    assert cli("sync", "--project", str(project.root)).code == 0
    return project


def ask(cli, project, question: str) -> dict:
    result = cli("ask", question, "--project", str(project.root), "--json")
    assert result.code == 0, result.err
    return result.json()


@pytest.mark.parametrize(
    ("question", "reason", "heading"),
    [
        ("why did we choose PostgreSQL", "supports transactions and row-level locking", "Decision"),
        ("pourquoi avons-nous choisi PostgreSQL ?", "supports transactions and row-level locking", "Decision"),
        ("why did we choose Redis streams", "the team already runs Redis", "Decision Outcome"),
    ],
)
def test_a_why_question_shows_the_decision_section_right_after_its_decision(billing, cli, question, reason, heading):
    answer = ask(cli, billing, question)
    assert (answer["mode"], answer["rule"]) == ("graph", "relation")
    titles = [e["title"] for e in answer["excerpts"]]
    first = next(i for i, e in enumerate(answer["excerpts"]) if e["type"] == "decision")
    section = answer["excerpts"][first + 1]
    assert section["title"].endswith(f"> {heading}"), titles
    assert reason in section["snippet"]
    assert section["explain"]["section"] == heading
    assert section["explain"]["node"] == answer["excerpts"][first]["explain"]["node"]  # the decision it explains
    assert [e["rank"] for e in answer["excerpts"]] == list(range(1, len(titles) + 1))
    assert len(set(titles)) == len(titles)  # each fact once
