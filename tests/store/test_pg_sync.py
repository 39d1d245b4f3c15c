"""Level 2 end to end: `kenning sync` with ``KENNING_DATABASE_URL`` writes the project into
PostgreSQL, and `kenning search` / `kenning ask` then give the same excerpts as the local
SQLite store on the same corpus (ranking scores differ; the top-5 sets must match). Memory
is served from PostgreSQL too, never from the local file; an unreachable server falls back
to the local store, said (`bench --speed`: tests/store/test_pg_bench_speed.py)."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest
from pg_engine import server_url

from conftest import bump_mtime, commit_all

pytestmark = pytest.mark.postgres
FIXTURE = Path(__file__).parent.parent / "fixtures" / "core_corpus"
QUESTIONS = (
    "how do I run the tests",
    "sqlite",
    "fusion of rankings",
    "rrf_fuse",
    "what did we decide about search",
    "reciprocal rank",
    "install",
)
DEAD = "postgresql://kenning@127.0.0.1:1/nothing"


@pytest.fixture
def corpus(make_project, monkeypatch):
    """The fixture corpus as a project of a fresh name (tests share one database), synced
    into the local store; the clock pinned."""
    monkeypatch.setenv("KENNING_NOW", "2026-11-30T00:00:00Z")
    project = make_project({}, name=f"pg-e2e-{uuid.uuid4().hex[:10]}")
    shutil.copytree(FIXTURE, project.root, dirs_exist_ok=True)
    return project


def top5(cli, *args: str) -> list[str]:
    result = cli(*args, "--json")
    assert result.code == 0, result.err
    return [e["source"]["uri"] for e in result.json()["excerpts"]][:5]


def test_sync_into_postgresql_then_search_and_ask_as_sqlite_does(cli, corpus, monkeypatch):
    root = str(corpus.root)
    local = cli("sync", "--project", root, "--json").json()
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    remote = cli("sync", "--project", root, "--json").json()
    for key in ("coverage", "files", "excerpts", "retired_uris"):
        assert remote[key] == local[key], key
    assert remote["dense"] == local["dense"]  # off in this test (tests/store/test_pg_dense.py embeds)
    for question in QUESTIONS:
        on_pg = {"search": top5(cli, "search", question, "--project", root)}
        on_pg["ask"] = top5(cli, "ask", question, "--project", root)
        with monkeypatch.context() as m:
            m.delenv("KENNING_DATABASE_URL")
            on_sqlite = {"search": top5(cli, "search", question, "--project", root)}
            on_sqlite["ask"] = top5(cli, "ask", question, "--project", root)
        for command in ("search", "ask"):
            assert set(on_pg[command]) == set(on_sqlite[command]), (command, question)
    assert any(top5(cli, "search", q, "--project", root) for q in QUESTIONS)  # not all empty
    assert cli("search", "sqlite", "--project", root, "--json").json()["level"] == 2
    stale = cli("stale", "--project", root, "--json").json()
    assert stale["level"] == 2 and stale["excerpts"] == []
    again = cli("sync", "--project", root, "--json").json()
    assert again["writes"] == 0 and again["files"]["unchanged"] == local["coverage"]["indexed"]


def test_an_incremental_sync_changes_postgresql_as_it_changes_sqlite(cli, corpus, monkeypatch):
    root = str(corpus.root)
    cli("sync", "--project", root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    readme = corpus.root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\n## Upgrade\n\nRun the upgrader nightly.\n")
    bump_mtime(readme)
    (corpus.root / "CONTRIBUTING.md").unlink()
    remote = cli("sync", "--project", root, "--json").json()
    monkeypatch.delenv("KENNING_DATABASE_URL")
    local = cli("sync", "--project", root, "--json").json()
    for key in ("coverage", "files", "excerpts"):
        assert remote[key] == local[key], key
    assert sorted(remote["retired_uris"]) == sorted(local["retired_uris"]) != []
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    assert top5(cli, "search", "upgrader nightly", "--project", root)[0] == "README.md#upgrade"
    found = cli("search", "contributing", "--project", root, "--json").json()
    assert all(not e["source"]["uri"].startswith("CONTRIBUTING.md") for e in found["excerpts"])


def test_a_deleted_file_and_the_ledger_s_records_are_reported_alike_on_both_engines(cli, make_project, monkeypatch):
    """tests/interfaces/test_cli_sync_report.py, both engines at each step of one work tree."""
    project = make_project(
        {"README.md": "# Billing\n\nA service.\n", "docs/arch.md": "# Architecture\n\nThree layers.\n"},
        name=f"pg-report-{uuid.uuid4().hex[:10]}",
    )
    commit_all(project.root)
    root = str(project.root)

    def both() -> tuple[dict, dict]:
        local = cli("sync", "--no-embed", "--project", root, "--json").json()
        monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
        remote = cli("sync", "--no-embed", "--project", root, "--json").json()
        monkeypatch.delenv("KENNING_DATABASE_URL")
        for key in ("coverage", "files", "excerpts", "ledger", "retired_uris"):
            assert remote[key] == local[key], key
        return local, remote

    both()
    (project.root / "docs/arch.md").unlink()  # not staged: git still lists it
    removed, _ = both()
    assert removed["files"]["removed"] == 1 and removed["coverage"]["skipped"] == {}
    cli("ledger", "task", "T-1", "--title", "Add discounts", "--project", root)
    added, _ = both()
    assert added["ledger"] == {"added": 1, "changed": 0, "retired": 0, "kept": 0}
    cli("ledger", "task", "T-1", "--title", "Add coupons", "--project", root)
    changed, _ = both()
    assert changed["ledger"] == {"added": 0, "changed": 1, "retired": 0, "kept": 0}
    assert both()[0]["coverage"]["skipped"] == {}


def test_memory_is_saved_and_read_in_postgresql_only(cli, corpus, monkeypatch):
    root = str(corpus.root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    saved = cli("memory", "save", "The staging database rotates its keys every Monday", "--project", root, "--json")
    assert saved.code == 0, saved.err
    again = cli("memory", "save", "The staging database rotates its keys every Monday", "--project", root)
    assert "already saved" in again.out
    hits = cli("memory", "search", "staging keys", "--project", root, "--json")
    assert hits.code == 0 and "rotates its keys" in hits.out
    monkeypatch.delenv("KENNING_DATABASE_URL")  # the local file never saw the note
    local = cli("memory", "search", "staging keys", "--project", root, "--json")
    assert "rotates its keys" not in local.out


def test_a_relation_question_is_answered_by_the_server_graph(cli, corpus, monkeypatch):
    root = str(corpus.root)
    cli("sync", "--project", root)  # a local store exists: it must not answer
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    answer = cli("ask", "what calls rrf_fuse", "--project", root, "--json").json()
    assert answer["mode"] == "graph" and answer["level"] == 2  # the graph is served (tests/store/test_pg_graph.py)


def test_bench_reads_the_server_store_as_it_reads_the_local_one(cli, corpus, monkeypatch):
    root = str(corpus.root)
    cli("sync", "--project", root)
    local = cli("bench", "--project", root, "--json")
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    remote = cli("bench", "--project", root, "--json")
    assert remote.code == local.code == 0, remote.err
    assert remote.json()["questions"]["total"] > 0
    for key in ("questions", "coverage", "attribution", "served_freshness", "superseded_served"):
        assert remote.json()[key] == local.json()[key], key
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)  # never the local file instead of the server
    down = cli("bench", "--project", root)
    assert down.code == 1 and "PostgreSQL unreachable" in down.err


def test_an_unreachable_server_answers_from_the_local_store_and_says_so(cli, corpus, monkeypatch):
    root = str(corpus.root)
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)
    before = cli("search", "sqlite", "--project", root)
    assert before.code == 1 and "PostgreSQL unreachable" in before.err  # no local store either
    refused = cli("sync", "--project", root)
    assert refused.code == 1 and "PostgreSQL unreachable" in refused.err
    monkeypatch.delenv("KENNING_DATABASE_URL")
    cli("sync", "--project", root)
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)
    answer = cli("search", "sqlite", "--project", root, "--json").json()
    assert answer["excerpts"] and any("answered from the local level-0 store" in d for d in answer["degradations"])
    assert answer["level"] == 0


def test_a_project_never_synced_to_the_server_has_no_index_there(cli, corpus, monkeypatch):
    root = str(corpus.root)
    cli("sync", "--project", root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    answer = cli("search", "sqlite", "--project", root, "--json").json()
    assert answer["empty_reason"] == "index_missing" and answer["excerpts"] == []


def test_cross_project_search_reads_a_server_project_there_or_leaves_it_out(cli, corpus, monkeypatch):
    root = str(corpus.root)
    cli("sync", "--project", root)  # its local file exists, and must not answer for it
    assert cli("projects", "add", root).code == 0
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)
    answer = cli("ask", "sqlite", "--all-projects", "--project", root, "--json").json()
    assert answer["excerpts"] == []
    [excluded] = answer["scope"]["excluded"]
    assert excluded["reason"].startswith("unreadable: PostgreSQL unreachable")
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    never = cli("ask", "sqlite", "--all-projects", "--project", root, "--json").json()
    assert never["excerpts"] == [] and never["scope"]["excluded"][0]["reason"].startswith("index missing")
    cli("sync", "--project", root)
    across = cli("ask", "sqlite", "--all-projects", "--project", root, "--json").json()
    alone = cli("ask", "sqlite", "--project", root, "--json").json()
    assert across["scope"]["excluded"] == [] and across["excerpts"]
    top = [(e["source"]["uri"], e["snippet"]) for e in alone["excerpts"]][:5]
    assert [(e["source"]["uri"], e["snippet"]) for e in across["excerpts"]][:5] == top
    stale = cli("stale", "--all-projects", "--json")
    assert stale.code == 0, stale.err
    [listed] = cli("projects", "list", "--json").json()["projects"]
    assert listed["state"] == "ok" and listed["facts"] > 0
    assert listed["size_bytes"] is None and listed["last_sync"]
    assert "on a server" in cli("projects", "list").out
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)
    [down] = cli("projects", "list", "--json").json()["projects"]
    assert down["state"] == "unreadable" and down["reason"].startswith("PostgreSQL unreachable")
