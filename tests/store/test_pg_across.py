"""Cross-project questions over a project served by PostgreSQL and a project on SQLite: both
answer, each from its own store, with no degradation about the engine; the server's
connections are read-only; `kenning projects list` reports a failing server query as
unreadable instead of crashing."""

from __future__ import annotations

import uuid

import pytest
from pg_engine import server_url

from kenning.status import project_status

pytestmark = pytest.mark.postgres


@pytest.fixture
def mixed(make_project, cli, monkeypatch):
    """Two registered projects: ``served`` names the test server in its config, ``local`` has
    only its SQLite file. Each holds a word the other lacks."""
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    name = f"served-{uuid.uuid4().hex[:10]}"
    config = f'name = "{name}"\nstore = "{server_url()}"\n'
    served = make_project(
        {"docs/pg.md": "# Quokka notes\n\nThe quokka runs on the server.\n"}, name=name, config=config
    )
    local = make_project({"docs/local.md": "# Wombat notes\n\nThe wombat stays on this laptop.\n"}, name="local")
    for project in (served, local):
        assert cli("sync", "--project", str(project.root)).code == 0
        assert cli("projects", "add", str(project.root)).code == 0
    return served, local


def test_search_and_ask_across_a_postgresql_and_a_sqlite_project_answer_from_both(mixed, cli):
    served, local = mixed
    assert not served.db_path.exists()  # the served project has no local file to fall back on
    for command in ("search", "ask"):
        answer = cli(command, "quokka OR wombat", "--all-projects", "--project", str(local.root), "--json")
        assert answer.code == 0, answer.err
        data = answer.json()
        assert data["scope"]["excluded"] == []
        by_project = {e["project"]: e["source"]["uri"] for e in data["excerpts"]}
        assert by_project == {served.name: "docs/pg.md#quokka-notes", "local": "docs/local.md#wombat-notes"}
        assert not [d for d in data["degradations"] if "postgresql" in d.lower()], data["degradations"]


def test_status_of_a_served_project_names_nothing_missing(mixed):
    served, _ = mixed
    data = project_status(served, server_url())
    assert data["level"] == 2
    assert not [d for d in data["degradations"] if "not implemented" in d], data["degradations"]
