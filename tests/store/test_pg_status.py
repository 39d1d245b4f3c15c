"""`kenning status` with a PostgreSQL store: level 2 and the engine, nothing listed as missing
there; unreachable → the local level-0 store, with the degradation."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from pg_engine import server_url

from conftest import resync
from kenning.config import parse_config
from kenning.errors import UsageError
from kenning.status import project_status
from kenning.store.postgres.connection import connect as pg_connect
from kenning.store.postgres.connection import schema_version

DEAD = "postgresql://kenning@127.0.0.1:1/nothing"  # nothing listens on port 1: refused at once


@contextmanager
def scratch_database(kind: str, options: str = "") -> Iterator[str]:
    """The URL of a database of its own on the test server, dropped after the test."""
    url = server_url()
    name = f"kenning_{kind}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} {options}".rstrip())
    try:
        yield urlsplit(url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@contextmanager
def pg_store_at(url: str, project: str) -> Iterator[Any]:
    conn = pg_connect(url, project)
    try:
        yield conn
    finally:
        conn.close()


def test_an_unreachable_server_falls_back_to_the_local_store(make_project):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    resync(project)
    data = project_status(project, DEAD)
    assert data["level"] == 0 and data["index"]["facts"] > 0
    store = data["engines"]["store"]
    assert store["available"] is False and store["engine"] == "postgresql"
    assert store["reason"].startswith("PostgreSQL unreachable")
    assert "serving the local level-0 store instead of PostgreSQL" in data["degradations"]
    assert any(d.startswith("store: PostgreSQL unreachable") for d in data["degradations"])


def test_an_unreachable_server_and_no_local_store_says_nothing_is_in_service(make_project, cli):
    """Not "index missing: run `kenning sync`" (the index is on the server, and a sync would
    fail the same way): nothing answers, and why."""
    project = make_project({"a.md": "# A\n"})
    data = project_status(project, DEAD)
    assert data["level"] == 0
    assert not any(d.startswith("index missing") for d in data["degradations"])
    assert (
        "nothing in service: the PostgreSQL store is out of reach and there is no local level-0 store"
        in (data["degradations"])
    )
    assert any(d.startswith("store: PostgreSQL unreachable") for d in data["degradations"])
    config = project.state_dir / "config.toml"
    config.write_text(f'store = "{DEAD}"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")
    printed = cli("status", "--project", str(project.root))
    assert printed.out.splitlines()[0].endswith(
        "· nothing in service: the PostgreSQL store cannot answer (see `degraded: store:` below)"
    )


@pytest.mark.postgres
def test_status_never_migrates_a_database_at_an_older_schema_and_says_a_sync_will(make_project):
    """A database last migrated by an older kenning: answers refuse (StoreOutdated) until a
    sync migrates it. `kenning status` migrated it silently (a read command writing DDL to the
    database the whole team shares) and then said "level 2 in service"."""
    with scratch_database("older") as older:
        project = make_project({"a.md": "# A\n"}, name="older-demo")
        with pg_store_at(older, project.name) as conn:  # migrated to the last schema, then set one back
            latest = schema_version(conn)
            conn.execute("DELETE FROM kenning_migrations WHERE version = %s", (latest,))
        data = project_status(project, older)
        store = data["engines"]["store"]
        assert store["available"] is False and store["outdated"] is True
        assert store["reason"] == (
            f"the PostgreSQL store is at schema {latest - 1}, this kenning needs {latest}: "
            "run `kenning sync` (it migrates)"
        )
        assert f"store: {store['reason']}" in data["degradations"]
        assert "serving the local level-0 store instead of PostgreSQL" not in data["degradations"]
        with psycopg.connect(older, autocommit=True) as check:
            assert check.execute("SELECT max(version) FROM kenning_migrations").fetchone()[0] == latest - 1


@pytest.mark.postgres
def test_status_of_a_database_kenning_never_wrote_to_creates_nothing(make_project):
    with scratch_database("empty") as empty:
        data = project_status(make_project({"a.md": "# A\n"}), empty)
        assert data["engines"]["store"]["available"] is True and data["engines"]["store"]["schema_version"] == 0
        assert "index missing: run `kenning sync`" in data["degradations"]
        with psycopg.connect(empty, autocommit=True) as check:
            assert check.execute("SELECT to_regclass('kenning_migrations')").fetchone()[0] is None


def test_the_local_store_reports_its_engine(make_project):
    data = project_status(make_project({"a.md": "# A\n"}))
    assert data["engines"]["store"] == {"available": True, "engine": "sqlite"}


@pytest.mark.postgres
def test_a_reachable_server_is_level_2_with_nothing_missing(make_project):
    data = project_status(make_project({"a.md": "# A\n"}, name="status-demo"), server_url())
    assert data["level"] == 2
    store = data["engines"]["store"]
    assert store["available"] and store["engine"] == "postgresql" and store["schema_version"] >= 1
    assert not [d for d in data["degradations"] if d.startswith("postgresql: ") or "not implemented" in d]
    assert "missing" not in store
    assert data["engines"]["fts5"]["engine"] == data["engines"]["trigram"]["engine"] == "postgresql"
    assert "sqlite" not in data["engines"]["fts5"]  # this machine's SQLite answers nothing at level 2


@pytest.mark.postgres
def test_a_database_lower_casing_ascii_only_is_a_degradation(make_project):
    """kenning folds case beyond ASCII on both engines (store/fold.py); a database created with
    LC_CTYPE C cannot, and status says so."""
    with scratch_database("ctype_c", "TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'") as scratch:
        data = project_status(make_project({"a.md": "# A\n"}), scratch)
        assert data["level"] == 2
        reason = data["engines"]["store"]["case_folding"]
        assert reason.startswith("the database lower-cases otherwise than kenning (lower('ÉΩİΣ') = 'ÉΩİΣ'")
        assert f"postgresql: {reason}" in data["degradations"]
    folding = project_status(make_project({"b.md": "# B\n"}, name="fold-ok"), server_url())
    assert "case_folding" not in folding["engines"]["store"]


def test_the_store_key_takes_only_a_postgresql_url():
    assert parse_config({"store": "postgresql://kenning@db/kenning"}, "demo").store == "postgresql://kenning@db/kenning"
    assert parse_config({}, "demo").store is None
    with pytest.raises(UsageError, match="`store` must be a postgresql:// URL"):
        parse_config({"store": "mysql://db"}, "demo")


def test_the_cockpit_status_page_says_nothing_is_in_service(make_project, isolated_home):
    from starlette.testclient import TestClient

    from conftest import NOW
    from kenning.config import load_project
    from kenning.interfaces.web.app import create_app

    project = make_project({"a.md": "# A\n"})
    config = project.state_dir / "config.toml"
    config.write_text(f'store = "{DEAD}"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")
    project = load_project(project.root)
    assert project_status(project)["in_service"] is False
    page = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    text = page.get("/status").text
    assert "nothing in service: the PostgreSQL store cannot answer" in text
    assert "git history" not in text  # not known while the store cannot answer (was "no sync yet … nothing to read")
    local = make_project({"b.md": "# B\n"}, name="local")
    assert project_status(local)["in_service"] is True
    unsynced = TestClient(create_app(local, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    history = unsynced.get("/status").text.split('class="history">', 1)[1].split("<", 1)[0]
    assert history == "git history not read: nothing indexed yet"  # without "(nothing to read: not a degradation)"


@pytest.mark.postgres
def test_a_database_a_newer_kenning_migrated_is_refused_for_reads_and_writes(make_project, cli, monkeypatch):
    """One machine of the team upgraded kenning and synced: the others read it as current (only
    `<` was checked) and their syncs wrote old-schema rows into it. SQLite refuses unknown
    versions; PostgreSQL now does too, and says to upgrade."""
    with scratch_database("newer") as newer:
        project = make_project({"README.md": "# Demo\n\nText.\n"}, name="newer-demo")
        with pg_store_at(newer, project.name) as conn:
            conn.execute("INSERT INTO kenning_migrations (version, name) VALUES (9999, 'from_the_future')")
        monkeypatch.setenv("KENNING_DATABASE_URL", newer)
        for command in (["ask", "demo"], ["sync"], ["remember", "a note"]):
            printed = cli(*command, "--project", str(project.root))
            assert printed.code == 1, command
            assert "schema versions [9999] that this kenning does not know" in printed.err
            assert "upgrade kenning on this machine" in printed.err
        store = project_status(project, newer)["engines"]["store"]
        assert store["outdated"] is True and "does not know" in store["reason"]
        with psycopg.connect(newer, autocommit=True) as check:
            assert check.execute("SELECT count(*) FROM facts").fetchone()[0] == 0


NOT_YET = "git history: not read yet: nothing indexed yet"


def _history_lines(cli, project) -> list[str]:
    return [line for line in cli("status", "--project", str(project.root)).out.splitlines() if "git history" in line]


@pytest.mark.postgres
def test_status_before_any_sync_says_nothing_is_indexed_yet_on_every_store(make_project, cli, monkeypatch):
    """Before, `git history: none: no sync yet (nothing to read, so no answer is degraded)`: as if
    the project had no history. Now what is true: nothing is indexed yet. On SQLite, on a
    database no kenning wrote to, and on a migrated one this project never synced to."""
    project = make_project({"a.md": "# A\n"})
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    assert _history_lines(cli, project) == [NOT_YET]
    assert cli("status", "--project", str(project.root), "--json").json()["git_history"] == {
        "read": False,
        "state": "not_synced",
        "reason": "git history not read: nothing indexed yet",
        "degraded": False,
    }
    with scratch_database("unwritten") as empty:
        monkeypatch.setenv("KENNING_DATABASE_URL", empty)
        assert _history_lines(cli, project) == [NOT_YET]
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    assert _history_lines(cli, project) == [NOT_YET]


def test_status_with_nothing_in_service_leaves_the_history_out(make_project, cli, monkeypatch):
    """The server out of reach and no local store: whether a sync read the history cannot be
    told (it said `none: no sync yet`)."""
    project = make_project({"a.md": "# A\n"})
    monkeypatch.setenv("KENNING_DATABASE_URL", DEAD)
    assert _history_lines(cli, project) == []
    data = cli("status", "--project", str(project.root), "--json").json()
    assert data["in_service"] is False
    assert data["git_history"] == {
        "read": False,
        "state": "unknown",
        "reason": "git history not known: the store cannot answer",
        "degraded": False,
    }
