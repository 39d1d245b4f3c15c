"""`kenning hook session-start`: the core pack for Claude Code's SessionStart hook.

Prints ``{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": …}}``
on stdout: one status line, then the pack framed as data. It never fails the agent's
session: any error becomes the status line and the exit code stays 0. The work is done in
``kenning.interfaces.session_start`` (no CLI library); the console script serves this command
from there directly (``entry.py``), and this click command is the same thing for `--help`,
the docs and in-process use.
"""

from __future__ import annotations

from pathlib import Path

import click

from kenning.interfaces.session_start import hook_output


@click.command("session-start")
@click.option(
    "--project",
    "project_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Project directory (default: $CLAUDE_PROJECT_DIR, else the current directory).",
)
@click.option("--plain", is_flag=True, help="Print the status line and the pack as plain text, not hook JSON.")
def session_start(project_path: Path | None, plain: bool) -> None:
    """Print the core pack and a status line for a SessionStart hook; always exits 0."""
    click.echo(hook_output(project_path, plain=plain))
