"""Rough edges a new user met past the quick start (walkthrough of 2026-12-02, third pass):
tokens, servers and cross-project questions under a misconfigured machine."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kenning.auth import policy, tokens
from kenning.errors import UsageError

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
