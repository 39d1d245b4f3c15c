"""What every command shares: --project, --json, the clock, ids, output."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kenning.citation import parse_fact_ref
from kenning.config import Project
from kenning.interfaces.cli.plain import now as now  # re-exported: every command's clock
from kenning.interfaces.cli.plain import resolve_project as resolve_project  # re-exported
from kenning.interfaces.render import to_json_text

F = TypeVar("F", bound=Callable[..., Any])


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
    """An id as ``42``, ``#42`` or ``kn://<project>/42`` (the one parser: ``kenning.citation``)."""
    return parse_fact_ref(raw, project.name)


def emit(payload: Any, as_json: bool, text: str | Callable[[], str]) -> None:
    if as_json:
        click.echo(to_json_text(payload))
    else:
        click.echo(text() if callable(text) else text)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def warn(message: str) -> None:
    click.echo(message, err=True)
