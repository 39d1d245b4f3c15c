"""`kenning hook …`: entry points for agent hooks. A hook never fails the agent: any error is
one line on stderr and exit code 0."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kenning.interfaces.cli.common import now, project_option
from kenning.interfaces.cli.session_hook import session_start


@click.group()
def hook() -> None:
    """Entry points for agent hooks (Claude Code); they never fail the agent."""


hook.add_command(session_start)


@hook.command("post-tool-use")
@project_option
def post_tool_use(project_path: Path | None) -> None:
    """Record one tool use from a Claude Code PostToolUse payload (JSON on stdin).

    Reads session_id, tool_name, tool_input, tool_response, cwd (and tool_use_id when
    present). The project is --project, else the enclosing project of the payload's cwd.
    """
    try:
        _record(project_path, sys.stdin.read())
    except Exception as exc:  # noqa: BLE001 - a hook must never break the agent
        message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        click.echo(f"kenning hook post-tool-use: {message}".replace("\n", " "), err=True)


def _record(project_path: Path | None, raw: str) -> None:
    from kenning.config import load_project
    from kenning.memory.sessions import record_tool_use
    from kenning.store.db import open_store

    try:
        payload = json.loads(raw)
    except ValueError as exc:  # the decoder's words alone ("Expecting value: line 1 …") say little
        got = "empty" if not raw.strip() else f"not JSON ({exc})"
        raise ValueError(f"standard input is {got}: it expects the agent's PostToolUse JSON payload") from None
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    cwd = payload.get("cwd")
    root = project_path or (Path(cwd) if isinstance(cwd, str) and cwd else Path.cwd())
    project = load_project(root)
    conn = open_store(project, create=True)
    try:
        record_tool_use(conn, project.name, payload, now=now())
    finally:
        conn.close()
