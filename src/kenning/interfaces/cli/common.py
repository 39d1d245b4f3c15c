"""What every command shares: --project, --json, the clock, ids, output."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kenning.citation import parse_fact_ref
from kenning.config import Project
from kenning.interfaces.cli.plain import answer_code
from kenning.interfaces.cli.plain import now as now  # re-exported: every command's clock
from kenning.interfaces.cli.plain import resolve_project as resolve_project  # re-exported
from kenning.interfaces.render import answer_text, to_json_text
from kenning.interfaces.terminal_text import terminal_safe
from kenning.records import Answer
from kenning.refs import bound_error

F = TypeVar("F", bound=Callable[..., Any])


class Bounded(click.IntRange):
    """An integer option within ``[min, max]``. Out of bounds (or not an integer) is the
    ``ValidationError`` every interface gives for it (``refs.bound_error``: ``--limit 0`` here
    reads as ``limit=0`` over MCP), not click's own wording."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        name = (param.name if param is not None else None) or "value"
        try:
            number = value if isinstance(value, int) else int(str(value).strip())
        except ValueError:
            raise bound_error(name, value) from None
        if self.min is not None and number < self.min:
            raise bound_error(name, number, low=int(self.min))
        if self.max is not None and number > self.max:
            raise bound_error(name, number, high=int(self.max))
        return number


def project_option(func: F) -> F:
    return click.option(
        "--project",
        "project_path",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Project directory (default: the enclosing project of the current directory).",
    )(func)


def typed_directory(root: Path) -> str:
    """How a user types ``root`` as a command's `--project` in a hint: ``.`` when the current
    directory resolves to that project (the README's form), else its path, quoted for the shell."""
    from kenning.config import find_root
    from kenning.errors import ProjectNotFound

    try:
        here = find_root(Path.cwd())
    except (ProjectNotFound, OSError):  # no project here, or the current directory was deleted
        here = None
    return "." if here == root else shlex.quote(str(root))


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print the JSON contract instead of text.")(func)


def no_embed_option(func: F) -> F:
    return click.option(
        "--no-embed",
        "no_embed",
        is_flag=True,
        help="Do not embed the note now (level 1): answers stay lexical until the next `kenning sync` "
        "(`kenning sync --global` for the transverse memory).",
    )(func)


def text_or_stdin(text: str) -> str:
    """TEXT, or the standard input when TEXT is ``-`` (``git log -1 | kenning remember -``);
    refused when that input is a terminal: nothing was piped."""
    if text != "-":
        return text
    if sys.stdin.isatty():
        raise click.UsageError(
            "TEXT `-` reads standard input, which is this terminal: pipe the text in (`echo … | kenning remember -`)"
        )
    return sys.stdin.read().rstrip("\r\n")


def parse_fact_id(raw: str, project: Project) -> int:
    """An id as ``42``, ``#42`` or ``kn://<project>/42`` (the one parser: ``kenning.citation``)."""
    return parse_fact_ref(raw, project.name)


def emit(payload: Any, as_json: bool, text: str | Callable[[], str]) -> None:
    if as_json:
        click.echo(to_json_text(payload))
    else:
        click.echo(terminal_safe(text() if callable(text) else text))


def emit_answer(answer: Answer, as_json: bool, text: Callable[[Answer], str] = answer_text) -> None:
    """Print an answer; one that could not search (no index, no readable project) then exits
    with its error's code, its ``error:`` and ``hint:`` lines on stderr (``plain.unanswered``)."""
    emit(answer.to_json(), as_json, lambda: text(answer))
    code = answer_code(answer)
    if code:
        click.get_current_context().exit(code)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def warn(message: str) -> None:
    click.echo(message, err=True)


def columns(header: list[str], rows: list[list[str]]) -> str:
    """A header over left-aligned columns two spaces apart (``token list``, ``projects list``):
    ids, states, counts and dates in a row cannot be told apart without one (tabs did not line up)."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    )
