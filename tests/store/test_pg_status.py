"""`kenning status` with a PostgreSQL store: level 2 and the engine, nothing listed as missing
there; unreachable → the local level-0 store, with the degradation."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

import psycopg
import pytest
from pg_engine import server_url

from conftest import resync
from kenning.config import parse_config
from kenning.errors import UsageError
from kenning.status import project_status

DEAD = "postgresql://kenning@127.0.0.1:1/nothing"  # nothing listens on port 1: refused at once


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


def test_an_unreachable_server_and_no_local_store_says_both(make_project):
    data = project_status(make_project({"a.md": "# A\n"}), DEAD)
    assert data["level"] == 0
    assert any(d.startswith("index missing") for d in data["degradations"])
    assert any(d.startswith("store: PostgreSQL unreachable") for d in data["degradations"])


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


@pytest.mark.postgres
def test_a_database_lower_casing_ascii_only_is_a_degradation(make_project):
    """kenning folds case beyond ASCII on both engines (store/fold.py); a database created with
    LC_CTYPE C cannot, and status says so."""
    url = server_url()
    name = f"kenning_ctype_c_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
    try:
        data = project_status(make_project({"a.md": "# A\n"}), urlsplit(url)._replace(path=f"/{name}").geturl())
        assert data["level"] == 2
        reason = data["engines"]["store"]["case_folding"]
        assert reason.startswith("the database lower-cases otherwise than kenning (lower('ÉΩİΣ') = 'ÉΩİΣ'")
        assert f"postgresql: {reason}" in data["degradations"]
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    assert (
        "case_folding" not in project_status(make_project({"b.md": "# B\n"}, name="fold-ok"), url)["engines"]["store"]
    )


def test_the_store_key_takes_only_a_postgresql_url():
    assert parse_config({"store": "postgresql://kenning@db/kenning"}, "demo").store == "postgresql://kenning@db/kenning"
    assert parse_config({}, "demo").store is None
    with pytest.raises(UsageError, match="`store` must be a postgresql:// URL"):
        parse_config({"store": "mysql://db"}, "demo")
