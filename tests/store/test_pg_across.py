"""Cross-project questions over a project served by PostgreSQL and a project on SQLite: both
answer, each from its own store, with no degradation about the engine; the server's
connections are read-only; `kenning projects list` reports a failing server query as
unreadable instead of crashing."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from pg_engine import gone, server_url

from kenning.across.stores import OneShot, StorePool
from kenning.config import load_project
from kenning.errors import StoreReadOnly
from kenning.status import project_status
from kenning.store import fact_sources, facts
from kenning.store.handle import engine_errors, typed_error
from kenning.store.postgres.connection import connect

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
        assert data["level"] == 2  # the highest level a store served at: the server's (was 1 or 0)


def test_each_engine_tells_how_many_excerpts_hold_a_word_and_the_store_holding_it_weighs_more(mixed):
    """``vocabulary.frequencies`` on both engines (``across.rank.weights`` reads it): the served
    project holds "quokka" and the local one does not, so across projects the served one weighs
    1.0 and the local one less for a question about quokkas, and the other way for wombats."""
    from kenning.across.answers import store_weights
    from kenning.store import vocabulary

    served, local = mixed
    stores = [(p, OneShot(load_project).connection(p)) for p in (served, local)]
    try:
        for project, conn in stores:
            size, held = vocabulary.frequencies(conn, vocabulary.index_terms(conn, ["quokka", "wombat"]))
            assert size == 1 and sorted(held.values()) == [0, 1], (project.name, held)
        quokka = store_weights(stores, ("quokka",))
        assert quokka[served.name] == 1.0 and quokka["local"] < 1.0
        wombat = store_weights(stores, ("wombat",))
        assert wombat["local"] == 1.0 and wombat[served.name] < 1.0
    finally:
        for _, conn in stores:
            conn.close()


def test_status_of_a_served_project_names_nothing_missing(mixed):
    served, _ = mixed
    data = project_status(served, server_url())
    assert data["level"] == 2
    assert not [d for d in data["degradations"] if "not implemented" in d], data["degradations"]


def test_a_cross_project_connection_to_the_server_cannot_write(mixed, cli):
    served, local = mixed
    for source in (OneShot(load_project), StorePool(load_project)):
        conn = source.connection(served)
        try:
            [fact] = fact_sources.active_by_uri(conn, "docs/pg.md").values()
            with pytest.raises(engine_errors()) as refused:
                facts.delete(conn, fact[0])
            assert isinstance(typed_error(refused.value), StoreReadOnly)
        finally:
            conn.close()
    found = cli("search", "quokka", "--project", str(served.root), "--json").json()
    assert [e["source"]["uri"] for e in found["excerpts"]] == ["docs/pg.md#quokka-notes"]


@pytest.fixture
def reader_role(mixed):
    """A login role that may read the schema's version and the write counter, not the facts:
    a server whose grants are wrong for the project (a query fails after the connection)."""
    role = f"reader_{uuid.uuid4().hex[:8]}"
    admin = connect(server_url(), "admin")
    admin.execute(f"CREATE ROLE {role} LOGIN")
    admin.execute(f"GRANT SELECT ON kenning_migrations, store_version TO {role}")
    yield server_url().replace("//kenning@", f"//{role}@")
    admin.execute(f"DROP OWNED BY {role}")
    admin.execute(f"DROP ROLE {role}")
    admin.close()


def test_projects_list_reports_a_failing_server_query_as_unreadable(mixed, reader_role, cli, monkeypatch):
    served, _ = mixed
    config = served.root / ".kenning" / "config.toml"
    config.write_text(f'name = "{served.name}"\nstore = "{reader_role}"\n', encoding="utf-8")
    listed = cli("projects", "list", "--json")
    assert listed.code == 0, listed.err
    states = {p["name"]: p for p in listed.json()["projects"]}
    assert states["local"]["state"] == "ok"
    assert states[served.name]["state"] == "unreadable"
    assert states[served.name]["reason"].startswith(f"the PostgreSQL store of {served.name} cannot be read")
    across = cli("search", "quokka OR wombat", "--all-projects", "--project", str(served.root), "--json")
    assert across.code == 0, across.err
    [excluded] = across.json()["scope"]["excluded"]
    assert excluded["project"] == served.name and excluded["reason"].startswith("unreadable")
    assert [e["project"] for e in across.json()["excerpts"]] == ["local"]


def _session(pid: int) -> list[tuple[object, ...]]:
    """The server's view of session ``pid``: its last statement and when its state last changed."""
    with psycopg.connect(server_url(), autocommit=True) as admin:
        return admin.execute("SELECT query, state_change FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchall()


def test_the_pool_reuses_a_server_session_without_a_round_trip_and_replaces_an_ended_one(mixed):
    """A long-lived process's cross-project pool: the kept session serves the next question with
    nothing sent to the server first (it was a `SELECT 1` per question), and one the server ended
    (a restart) is replaced before it serves."""
    served, _ = mixed
    pool = StorePool(load_project)
    try:
        conn = pool.connection(served)
        conn.execute("SELECT 'the first question'")
        pid = conn.raw.info.backend_pid
        before = _session(pid)
        assert pool.connection(served) is conn
        assert _session(pid) == before
        with psycopg.connect(server_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            gone(admin, "pid = %s", pid)  # a restart is over when its sessions are
        again = pool.connection(served)
        assert again is not conn
        assert again.execute("SELECT 'served'").fetchone()[0] == "served"
    finally:
        pool.close()
