"""Rough edges a new user met past the quick start (walkthrough of 2026-12-02, third pass):
tokens, servers and cross-project questions under a misconfigured machine."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import IO

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, on_free_port, wait_until_served
from kenning import registry
from kenning.auth import policy, tokens
from kenning.errors import UsageError
from kenning.interfaces.mcp.server import build_server

HOME_ARGS = [
    ("token", "list"),
    ("token", "revoke", "token-1"),
    ("token", "create", "--scope", "memory:read", "--project", "{project}"),
    ("mcp", "--http", "--port", "0", "--project", "{project}"),
    ("serve", "--port", "0", "--project", "{project}"),
    ("serve", "--mcp", "--port", "0", "--project", "{project}"),
]


@pytest.mark.parametrize("args", HOME_ARGS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("under", [False, True], ids=["home is a file", "home under a file"])
def test_tokens_and_servers_under_a_kenning_home_that_is_a_file_give_the_usage_error_init_gives(
    cli, tmp_path, monkeypatch, make_project, args, under
):
    """The tokens file, the audit log and the servers that read them: the registry's one check
    (`registry.check_home`), not a NotADirectoryError traceback or a server answering 500."""
    project = make_project({"docs/a.md": "# A\n"})
    blocker = tmp_path / "home-file"
    blocker.write_text("", encoding="utf-8")
    home = blocker / "kenning" if under else blocker
    monkeypatch.setenv("KENNING_HOME", str(home))
    init = cli("init", str(tmp_path / "p"))
    result = cli(*(a.format(project=project.root) for a in args))
    assert result.code == init.code == 2, result.err
    assert result.err == init.err
    assert result.err.startswith(f"error: KENNING_HOME {home} ")
    assert "Traceback" not in result.err and "NotADirectoryError" not in result.err


def test_the_audit_log_under_a_kenning_home_that_is_a_file_is_the_usage_error(tmp_path):
    home = tmp_path / "home-file"
    home.write_text("", encoding="utf-8")
    record = tokens.TokenRecord("0a1b2c3d", "t", (tokens.WRITE,), ("demo",), (), "", None, None, "", "")
    with pytest.raises(UsageError, match="is a file, not a folder"):
        policy.audit(
            home,
            token=record,
            client="127.0.0.1",
            project="demo",
            tool="save_memory",
            arguments={},
            ok=True,
            now=datetime(2026, 12, 2, tzinfo=UTC),
        )
    assert home.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("args", [("ask", "hidden"), ("search", "hidden"), ("stale",)])
def test_all_projects_when_every_registered_project_is_confidential_searched_nothing(cli, make_project, args):
    """Every project left out (confidential) and no transverse memory: nothing was searched, so
    not `no_match`; the answer says `no_project`, then why, exit 1, as with none registered."""
    project = make_project({"a.md": "# Secret\n\nhidden words\n"}, name="vault", config='name = "vault"\n')
    assert cli("projects", "add", str(project.root)).code == 0
    config = project.root / ".kenning" / "config.toml"
    config.write_text('name = "vault"\nconfidential = true\n', encoding="utf-8")
    assert cli("sync", "--project", str(project.root)).code == 0
    result = cli(*args, "--all-projects", "--json")
    assert result.code == 1, result.err
    answer = result.json()
    assert answer["empty_reason"] == "no_project" and answer["excerpts"] == []
    assert [e["project"] for e in answer["scope"]["excluded"]] == ["vault"]
    assert result.err.startswith("error: no project to search across, nothing was searched: every one was left out")
    assert "vault: confidential" in result.err and "--project PATH" in result.err


CONFIG_FIXES = [
    ('confidential = "yes"\n', ("ask", "x"), "`confidential` must be true or false"),
    ("max_file_bytes = 0\n", ("search", "x"), "`max_file_bytes` must be a positive integer"),
    ('include = "docs"\n', ("status",), "`include` must be a list of glob strings"),
    ('store = "mysql://x"\n', ("sync",), "`store` must be a postgresql:// URL"),
    ('name = "a b"\n', ("status",), "`name` must be 1-64 characters"),
    ("name = [\n", ("ask", "x"), "invalid TOML"),
    ("[pack]\nbudget_tokens = 3\n", ("pack", "build"), "`[pack] budget_tokens` must be an integer"),
    ('[pack]\ncontext = ""\n', ("pack", "build"), "`[pack] context` must be a path"),
]


@pytest.mark.parametrize("text, args, message", CONFIG_FIXES, ids=[c[2][:30] for c in CONFIG_FIXES])
def test_a_bad_value_in_the_project_config_points_at_the_file_not_at_a_commands_help(
    cli, make_project, text, args, message
):
    """The fix is in .kenning/config.toml: "see `kenning ask --help`" sent a user to the wrong place."""
    project = make_project({"docs/a.md": "# A\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    (project.root / ".kenning" / "config.toml").write_text(text, encoding="utf-8")
    result = cli(*args, "--project", str(project.root))
    assert result.code == 2, result.err
    assert message in result.err
    assert result.err.endswith("hint: fix .kenning/config.toml (docs/cli.md lists every key)\n"), result.err


def test_a_bad_value_in_the_users_config_points_at_that_file(make_project, isolated_home):
    """`cross_project` in KENNING_HOME/config.toml, read when an MCP client asks across projects."""
    project = make_project({"docs/a.md": "# A\n"})
    (isolated_home / "config.toml").write_text("cross_project = 1\n", encoding="utf-8")
    server = build_server(project, clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("memory_ask", {"question": "x", "scope": "all"})

    result = anyio.run(main)
    assert result.isError
    error = result.structuredContent["error"]
    assert error["type"] == "UsageError" and "`cross_project` must be true or false" in error["message"]
    assert error["hint"] == "fix KENNING_HOME/config.toml (its one key: cross_project = true or false)"


def test_renaming_a_project_to_a_name_in_use_says_where_to_see_the_names(cli, make_project):
    first, second = make_project({"a.md": "# A\n"}, name="first"), make_project({"b.md": "# B\n"}, name="second")
    for project in (first, second):
        assert cli("projects", "add", str(project.root)).code == 0
    result = cli("projects", "rename", "first", "second")
    assert result.code == 2
    assert result.err.startswith("error: project name 'second' is already registered\nhint: choose a name")
    assert "kenning projects list" in result.err and "--help" not in result.err


def test_a_project_left_out_for_its_config_reads_without_nested_parentheses(cli, make_project):
    """`excluded: p (unreadable: … (fix .kenning/config.toml (docs/cli.md lists every key)))`
    read as three nested asides; the reason and its advice are now one sentence."""
    project = make_project({"a.md": "# A\n"}, name="misplaced")
    assert cli("projects", "add", str(project.root)).code == 0
    assert cli("sync", "--project", str(project.root)).code == 0
    config = project.root / ".kenning" / "config.toml"
    config.write_text('name = "misplaced"\n[pack]\nconfidential = true\n', encoding="utf-8")
    result = cli("ask", "x", "--all-projects", "--json")
    (reason,) = [e["reason"] for e in result.json()["scope"]["excluded"]]
    assert reason.startswith("unreadable: ") and "unknown configuration key `pack.confidential`" in reason
    assert reason.endswith("; fix .kenning/config.toml (docs/cli.md lists every key)")
    assert "))" not in reason


def next_line(stream: IO[str], seconds: float = 10) -> str:
    """The next line of a server's stderr, or "" when none comes within ``seconds`` (read in a
    thread: the line may already sit in the stream's buffer, where ``select`` cannot see it)."""
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    return got[0] if got else ""


@pytest.mark.parametrize("command", [("mcp", "--http"), ("serve", "--mcp")])
def test_an_mcp_server_started_before_any_token_says_how_to_create_one(make_project, isolated_home, command):
    """Started first (the README creates the token first, a user may not), the server answered
    every client 401 without a word; now one stderr line names the command for this project."""
    project = make_project({"a.md": "# A\n"})
    registry.register(isolated_home, project.name, project.root)
    note = f"create one with `kenning token create --scope memory:read --project {project.root}`"
    with on_free_port(*command, "--project", str(project.root), home=isolated_home) as (server, port):
        assert server.stderr is not None
        lines = [next_line(server.stderr) for _ in range(1 if command[0] == "mcp" else 2)]
        wait_until_served(server, port)
    assert lines[-1].startswith("note: no active token is bound to project 'demo' yet") and note in lines[-1]
    tokens.create(isolated_home, scopes=[tokens.READ], projects=["demo"], paths=[], name=None, expires="never", now=NOW)
    with on_free_port(*command, "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
    assert server.stderr is not None
    assert "no active token" not in server.stderr.read()


def test_another_projects_citation_on_a_server_whose_store_is_not_synced_is_refused_for_what_it_is(make_project):
    """memory_get kn://other/3 on a project never synced answered IndexMissing ("run `kenning
    sync`"), which cannot help: the citation is refused first, as on a synced store."""
    project = make_project({"a.md": "# A\n"})
    server = build_server(project, clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            other = await client.call_tool("memory_get", {"ids": ["kn://shop/3"]})
            malformed = await client.call_tool("memory_get", {"ids": ["kn://demo/abc"]})
            own = await client.call_tool("memory_get", {"ids": [3]})
            return other, malformed, own

    other, malformed, own = anyio.run(main)
    assert other.structuredContent["error"]["type"] == "ScopeDenied"
    assert "belongs to project 'shop'" in other.structuredContent["error"]["message"]
    assert malformed.structuredContent["error"]["type"] == "ValidationError"
    assert own.structuredContent["error"]["type"] == "IndexMissing"  # this project's id: the store is the issue
