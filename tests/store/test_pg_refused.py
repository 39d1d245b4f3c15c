"""A server that answers but refuses the session (a wrong password, an unknown role or database)
is not "PostgreSQL unreachable … check that the server is up": the team's first mistake with a
shared database is a URL, and the hint says what in it to check. Nothing is written."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from pg_engine import server_url

REFUSED_HINT = "check the user, password and database name in KENNING_DATABASE_URL or `store`"


def _with(url: str, *, user: str | None = None, database: str | None = None) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    netloc = f"{user}@{host}" if user else parts.netloc
    return parts._replace(netloc=netloc, path=f"/{database}" if database else parts.path).geturl()


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"database": "kenning_no_such_database"}, 'database "kenning_no_such_database" does not exist'),
        ({"user": "kenning_no_such_role"}, 'role "kenning_no_such_role" does not exist'),
    ],
)
def test_a_refused_session_names_the_refusal_and_what_to_check(make_project, cli, monkeypatch, change, said):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    monkeypatch.setenv("KENNING_DATABASE_URL", _with(server_url(), **change))
    for command in (["ask", "demo"], ["sync"]):
        printed = cli(*command, "--project", str(project.root))
        assert printed.code == 1
        assert printed.err.startswith("error: PostgreSQL refused the connection: ") and said in printed.err
        assert REFUSED_HINT in printed.err
    assert not project.db_path.exists()


@pytest.mark.postgres
def test_a_server_out_of_reach_is_still_unreachable(make_project, cli, monkeypatch):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    monkeypatch.setenv("KENNING_DATABASE_URL", "postgresql://kenning@127.0.0.1:1/nothing")
    printed = cli("ask", "demo", "--project", str(project.root))
    assert printed.code == 1 and printed.err.startswith("error: PostgreSQL unreachable: ")
    assert "check the store URL and that the server is up" in printed.err


@pytest.mark.parametrize("value", ["not a url", "mysql://kenning@db/kenning"])
def test_a_wrong_variable_is_blamed_not_the_config_file(make_project, cli, monkeypatch, value):
    """The hint said "fix .kenning/config.toml" for a value the config does not hold."""
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    monkeypatch.setenv("KENNING_DATABASE_URL", value)
    printed = cli("ask", "demo", "--project", str(project.root))
    assert printed.code != 0
    assert printed.err.startswith("error: KENNING_DATABASE_URL must be a postgresql:// URL")
    assert "config.toml" not in printed.err
