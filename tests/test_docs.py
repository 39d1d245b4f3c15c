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


def test_docs_cli_md_lists_every_config_key_and_no_other():
    """The config error's hint sends the user to docs/cli.md for the list of keys: it must hold
    every key ``KNOWN_KEYS`` accepts, in its section, and nothing else."""
    from kenning.config import KNOWN_KEYS

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    table = text.split("`config.toml` keys", 1)[1].split("\n\n", 2)[1]
    assert table.startswith("| section | keys |"), "docs/cli.md: the config keys are a table"
    documented: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        section, keys = row.strip("|").split("|", 1)
        name = re.fullmatch(r"\s*`\[(\w+)\]`\s*", section)
        listed = re.sub(r"\([^)]*\)|\[[^]]*\]\([^)]*\)", "", keys)  # drop the (explanations) and links
        documented[name.group(1) if name else ""] = set(re.findall(r"`(\w+)`", listed))
    assert documented == {section: set(keys) for section, keys in KNOWN_KEYS.items()}
