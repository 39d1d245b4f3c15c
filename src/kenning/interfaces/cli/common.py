"""What every command shares: --project, --json, the clock, ids, output."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kenning.config import Project
from kenning.errors import UsageError
from kenning.interfaces.cli.plain import now as now  # re-exported: every command's clock
from kenning.interfaces.cli.plain import resolve_project as resolve_project  # re-exported
from kenning.interfaces.render import to_json_text

F = TypeVar("F", bound=Callable[..., Any])

_CITATION = re.compile(r"^kn://(?P<project>[A-Za-z0-9._-]+)/(?P<id>\d+)$")


def project_option(func: F) -> F:
    return click.option(
        "--project",
        "project_path",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Project directory (default: the enclosing project of the current directory).",
    )(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print the JSON contract instead of text.")(func)


def parse_fact_id(raw: str, project: Project) -> int:
    """An id as an integer, a digit string or ``kn://<project>/<id>``."""
    text = raw.strip()
    if text.isdigit():
        return int(text)
    match = _CITATION.match(text)
    if not match:
        raise UsageError(f"not a fact id: {raw!r} (expected 42 or kn://{project.name}/42)")
    if match["project"] != project.name:
        raise UsageError(
            f"{raw} belongs to project {match['project']!r}, not {project.name!r}",
            hint=f"pass --project with the path of {match['project']!r}",
        )
    return int(match["id"])


def emit(payload: Any, as_json: bool, text: str | Callable[[], str]) -> None:
    if as_json:
        click.echo(to_json_text(payload))
    else:
        click.echo(text() if callable(text) else text)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def warn(message: str) -> None:
    click.echo(message, err=True)
