"""What a usage error click detects says: kenning's ``UsageError`` with a hint that points
at the fix — the command's own --help, the command meant by a typo, the option meant by its
beginning, the place of an option or a directory given where the command takes none."""

from __future__ import annotations

import os

import click

from kenning.errors import UsageError
from kenning.interfaces.cli.plain import report_failure
from kenning.interfaces.exit_codes import exit_code

# Words other tools use for a kenning command: `kenning index` suggests `kenning sync`.
SYNONYMS = {
    "index": "sync",
    "reindex": "sync",
    "update": "sync",
    "find": "search",
    "grep": "search",
    "query": "search",
    "question": "ask",
    "list": "projects list",
    "ls": "projects list",
    "show": "get",
    "help": "--help",
    "version": "--version",
}


def close_commands(name: str, commands: list[str]) -> list[str]:
    """The commands (or options) a mistyped command NAME probably meant."""
    if name.lower() in SYNONYMS:
        return [SYNONYMS[name.lower()]]
    import difflib  # only on a mistake: not paid by every command's start-up

    return difflib.get_close_matches(name.lower(), commands)


def report_click_error(exc: click.ClickException, group: click.Group, *, as_json: bool, args: list[str]) -> int:
    """A usage error click detects (unknown option or command, missing argument, a value not
    among the choices) is kenning's ``UsageError``, reported as every typed error is: the
    ``error:`` and ``hint:`` lines (the hint names the command's --help), its exit code and, with
    ``--json``, its JSON object — never click's own ``Usage:``/``Error:`` lines. A group called
    without its command prints its help instead (the help is the hint). Click raises some
    errors (an option missing its value) without their command: ``args`` then names it."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        exc.show()
        return exit_code(UsageError(exc.format_message()))
    ctx = exc.ctx if isinstance(exc, click.UsageError) else None
    later = _command_after(exc, group, args)
    if later is not None:  # `kenning --project DIR search …`: an option of the command, put first
        assert isinstance(exc, click.NoSuchOption)
        refused = UsageError(
            f"{exc.option_name} is an option of the command, not of `kenning` itself: put it after the command",
            hint=f"`kenning {later} … {exc.option_name} …` (see `kenning {later} --help`)",
        )
        return report_failure(refused, as_json=as_json) or exit_code(refused)
    command = ctx.command_path if ctx else command_path(group, args)
    hint = f"see `{command} --help`"
    meant = _options_meant(exc)
    if not meant and _text_taken_for_an_option(exc):
        hint += f"; text that begins with '-' goes last, after `--`: `{command} [OPTIONS] -- '-…'`"
    directory = _directory_given_as_argument(exc, args[len(command.split()) - 1 :])
    if directory is not None:
        takes = any(isinstance(param, click.Argument) for param in ctx.command.params) if ctx else False
        hint += f"; a project directory goes with --project: `{command}{' …' if takes else ''} --project {directory}`"
    message = exc.format_message()
    if meant:
        message += f" Did you mean {' or '.join(repr(name) for name in meant)}?"
    refused = UsageError(message, hint=hint)
    return report_failure(refused, as_json=as_json) or exit_code(refused)


def _command_after(exc: click.ClickException, group: click.Group, args: list[str]) -> str | None:
    """The command named after an option `kenning` itself does not know (``kenning --json
    status``), or None."""
    if not isinstance(exc, click.NoSuchOption) or exc.ctx is None or exc.ctx.command is not group:
        return None
    name = next((arg for arg in args if arg in group.list_commands(exc.ctx)), None)
    if name is None:
        return None
    path = command_path(group, args[args.index(name) :])
    command: click.Command | None = group
    for word in path.split()[1:]:
        command = command.get_command(exc.ctx, word) if isinstance(command, click.Group) else None
    takes = command is not None and any(exc.option_name in param.opts for param in command.params)
    return path.removeprefix("kenning ") if takes else None


def command_path(group: click.Group, args: list[str]) -> str:
    """``kenning``, then the command and subcommand ARGS name, as click's ``command_path``."""
    path = ["kenning"]
    ctx = click.Context(group)
    if args and args[0] in group.list_commands(ctx):
        path.append(args[0])
        command = group.get_command(ctx, args[0])
        if isinstance(command, click.Group) and len(args) > 1 and args[1] in command.commands:
            path.append(args[1])
    return " ".join(path)


# Short options other tools use, for the long option a kenning command has instead.
SHORT = {
    "-n": "--limit",
    "-l": "--limit",
    "-j": "--json",
    "-p": "--project",
    "-t": "--type",
    "-v": "--version",
    "-V": "--version",
}


def _options_meant(exc: click.ClickException) -> list[str]:
    """For an unknown option click names no close one for, the command's options it probably
    meant: those its name begins (``--all`` for ``--all-projects``), or the long option for a
    short one other tools use (``-n`` for ``--limit``, ``-V`` for ``--version``)."""
    if not isinstance(exc, click.NoSuchOption) or exc.possibilities or exc.ctx is None:
        return []
    typed = exc.option_name
    names = {name for param in exc.ctx.command.params if isinstance(param, click.Option) for name in param.opts}
    if typed in SHORT:
        return [SHORT[typed]] if SHORT[typed] in names else []
    return sorted(name for name in names if name.startswith("--") and name.startswith(typed) and len(typed) > 2)


def _directory_given_as_argument(exc: click.ClickException, args: list[str]) -> str | None:
    """The directory given where the command takes none (``kenning sync ~/code/app``, as `git
    init DIR` habits type it), when the command has ``--project``; else None."""
    ctx = exc.ctx if isinstance(exc, click.UsageError) else None
    message = exc.format_message()
    if ctx is None or not message.startswith("Got unexpected extra argument"):
        return None
    if not any(param.name == "project_path" for param in ctx.command.params):
        return None
    extra = message.partition("(")[2].rpartition(")")[0]  # click names the extra arguments there
    return next((arg for arg in args if arg and arg in extra and os.path.isdir(arg)), None)


def _text_taken_for_an_option(exc: click.ClickException) -> bool:
    """An unknown short option close to no known one, on a command that takes text (``kenning
    search -x``, ``kenning ask "-why …"``): probably text that begins with '-'. A long one
    (``--bogus``) is an option mistyped."""
    if not isinstance(exc, click.NoSuchOption) or exc.possibilities or exc.ctx is None:
        return False
    if exc.option_name.startswith("--"):
        return False
    return any(isinstance(param, click.Argument) for param in exc.ctx.command.params)
