"""Docs that cannot drift: every command is documented, with help text."""

from __future__ import annotations

import re
from pathlib import Path

import click

from kenning.interfaces.cli.main import COMMANDS, cli

DOCS = Path(__file__).resolve().parents[1] / "docs"


def all_commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(cli)
    found = []
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None, name
        found.append((name, command))
        if isinstance(command, click.Group):
            found.extend((f"{name} {sub}", command.commands[sub]) for sub in command.commands)
    return found


def test_every_cli_command_has_help_text():
    missing = [name for name, command in all_commands() if not (command.help or "").strip()]
    assert missing == []


def test_every_cli_command_is_documented_in_docs_cli_md():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `kenning ([a-z -]+?)`", text, re.M))
    missing = [name for name, _ in all_commands() if name not in documented]
    assert missing == []


def test_every_documented_command_exists():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `kenning ([a-z -]+?)`", text, re.M))
    assert documented - {name for name, _ in all_commands()} == set()


def registered_tools() -> list[str]:
    import anyio

    from kenning.config import Project, ProjectConfig
    from kenning.interfaces.mcp.server import build_server

    server = build_server(Project(root=Path("."), config=ProjectConfig(name="docs")), tools="all")
    return sorted(tool.name for tool in anyio.run(server.list_tools))


def test_every_mcp_tool_is_documented_in_docs_mcp_md():
    text = (DOCS / "mcp.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `([a-zA-Z0-9_-]+)`", text, re.M))
    assert [name for name in registered_tools() if name not in documented] == []
    assert documented - set(registered_tools()) == set()
