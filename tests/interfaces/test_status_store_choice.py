"""`kenning status` says where the store choice came from. The rule (docs/postgresql.md) is
unchanged: ``KENNING_DATABASE_URL``, when set, wins over `store` in .kenning/config.toml, for
every project, one whose config names no store included; status now says which one chose."""

from __future__ import annotations

import os
import uuid

import pytest

from conftest import resync

DEAD = "postgresql://kenning:s3cret@127.0.0.1:1/nothing"  # nothing listens on port 1: refused at once
OTHER = "postgresql://kenning:other-secret@127.0.0.1:1/elsewhere"


@pytest.fixture
def status(cli, make_project, isolated_home, monkeypatch):
    def run(*, config_store: str | None = None, variable: str | None = None) -> tuple[dict, str]:
        name = f"p{len(list(isolated_home.parent.iterdir()))}-{bool(config_store)}-{bool(variable)}"
        config = f'name = "{name}"\n' + (f'store = "{config_store}"\n' if config_store else "")
        project = make_project({"README.md": "# Demo\n\nText.\n"}, name=name, config=config)
        monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
        if not config_store:  # a sync would go to the (dead) server: status then says the index is missing
            resync(project)
        if variable:
            monkeypatch.setenv("KENNING_DATABASE_URL", variable)
        root = ("--project", str(project.root))
        as_json, text = cli("status", "--json", *root), cli("status", *root)
        assert as_json.code == text.code == 0, as_json.err
        return as_json.json(), text.out

    return run


def test_no_variable_and_no_config_store_is_the_local_file(status):
    data, text = status()
    assert data["store_choice"] == {"engine": "sqlite", "chosen_by": "default", "config_store": False}
    assert data["engines"]["store"]["engine"] == "sqlite"
    assert "store: sqlite (the local file: no KENNING_DATABASE_URL, no `store` in .kenning/config.toml)" in text


def test_a_config_store_is_said_to_come_from_the_config(status):
    data, text = status(config_store=DEAD)
    assert data["store_choice"] == {"engine": "postgresql", "chosen_by": "config", "config_store": True}
    assert data["engines"]["store"]["engine"] == "postgresql"
    assert "store: postgresql, chosen by `store` in .kenning/config.toml" in text


def test_the_variable_moves_a_project_whose_config_names_no_store_and_status_says_so(status):
    data, text = status(variable=DEAD)
    assert data["store_choice"] == {"engine": "postgresql", "chosen_by": "KENNING_DATABASE_URL", "config_store": False}
    assert data["engines"]["store"]["engine"] == "postgresql"  # the documented rule, unchanged
    assert "serving the local level-0 store instead of PostgreSQL" in data["degradations"]
    assert (
        "store: postgresql, chosen by KENNING_DATABASE_URL "
        "(set in the environment; .kenning/config.toml names no store)" in text
    )


def test_the_variable_wins_over_the_config_and_status_says_so(status):
    data, text = status(config_store=OTHER, variable=DEAD)
    assert data["store_choice"] == {"engine": "postgresql", "chosen_by": "KENNING_DATABASE_URL", "config_store": True}
    assert "store: postgresql, chosen by KENNING_DATABASE_URL (it wins over `store` in .kenning/config.toml)" in text


def test_status_never_prints_the_urls_password(status):
    data, text = status(config_store=OTHER, variable=DEAD)
    for secret in ("s3cret", "other-secret"):
        assert secret not in text and secret not in str(data)


@pytest.mark.postgres
def test_on_a_live_server_the_variable_alone_makes_a_project_level_2_and_status_says_why(
    cli, make_project, monkeypatch
):
    url = os.environ.get("KENNING_TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("KENNING_TEST_DATABASE_URL is required when CI=true")
        pytest.skip("no PostgreSQL server: set KENNING_TEST_DATABASE_URL (`.ci/postgres.sh` starts one)")
    name = f"choice-{uuid.uuid4().hex[:8]}"
    project = make_project({"README.md": "# Demo\n\nText.\n"}, name=name)
    monkeypatch.setenv("KENNING_DATABASE_URL", url)
    root = ("--project", str(project.root))
    assert cli("sync", *root).code == 0
    data = cli("status", "--json", *root).json()
    assert data["level"] == 2 and data["engines"]["store"]["available"], data["engines"]["store"]
    assert data["store_choice"] == {"engine": "postgresql", "chosen_by": "KENNING_DATABASE_URL", "config_store": False}
    assert not project.db_path.exists()  # nothing was written to the local file
