"""Entry point: the command table, exit codes, and error reporting.

Exit codes: 0 success (empty results included), 1 runtime error, 2 usage error, 130 interrupt
(``interfaces/exit_codes.py``; every typed error's code is listed in docs/errors.md).
Commands are imported only when invoked, so `kenning search` pays for search alone.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys

import click

from kenning import __version__
from kenning.errors import KenningError, UsageError
from kenning.interfaces.cli.plain import report_failure
from kenning.interfaces.exit_codes import exit_code
from kenning.store.handle import StoreError

# name -> "module:attribute", in the order `kenning --help` lists them. A table rather than
# plain imports on purpose: importing every command module costs about 35 ms (measured with
# -X importtime, mostly project_cmds and graph_cmds), paid by every command that goes through click.
COMMANDS = {
    "init": "kenning.interfaces.cli.project_cmds:init",
    "sync": "kenning.interfaces.cli.project_cmds:sync",
    "search": "kenning.interfaces.cli.facts_cmds:search",
    "get": "kenning.interfaces.cli.facts_cmds:get",
    "remember": "kenning.interfaces.cli.facts_cmds:remember",
    "supersede": "kenning.interfaces.cli.facts_cmds:supersede",
    "confirm": "kenning.interfaces.cli.facts_cmds:confirm",
    "forget": "kenning.interfaces.cli.facts_cmds:forget",
    "stale": "kenning.interfaces.cli.facts_cmds:stale",
    "status": "kenning.interfaces.cli.project_cmds:status",
    "projects": "kenning.interfaces.cli.registry_cmds:projects",
    "promote": "kenning.interfaces.cli.registry_cmds:promote",
    "mcp": "kenning.interfaces.cli.project_cmds:mcp",
    "pack": "kenning.interfaces.cli.pack_cmds:pack",
    "ask": "kenning.interfaces.cli.ask_cmds:ask",
    "graph": "kenning.interfaces.cli.graph_cmds:graph",
    "ledger": "kenning.interfaces.cli.ledger_cmds:ledger",
    "memory": "kenning.interfaces.cli.memory_cmds:memory",
    "hook": "kenning.interfaces.cli.hook_cmds:hook",
    "bench": "kenning.interfaces.cli.bench_cmds:bench",
    "serve": "kenning.interfaces.cli.serve_cmds:serve",
    "token": "kenning.interfaces.cli.token_cmds:token",
}


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


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command names the closest ones (``kenning serach`` → ``search``), as click
        does for the subcommands of a group it has loaded; this group loads none in advance."""
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            close = [SYNONYMS[name.lower()]] if name.lower() in SYNONYMS else None
            close = close or difflib.get_close_matches(name.lower(), COMMANDS)
            if close:
                shown = " or ".join(f"`kenning {c}`" for c in close)
                raise click.UsageError(f"No such command {name!r}. Did you mean {shown}?", ctx)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attribute = target.split(":")
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kenning")
def cli() -> None:
    """kenning: sourced, fresh excerpts from your projects, for you and your agents."""


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    as_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    try:
        code = cli.main(args=args, prog_name="kenning", standalone_mode=False)
    except (KenningError, StoreError, KeyboardInterrupt) as exc:
        sys.exit(report_failure(exc, as_json=as_json) or 1)
    except click.exceptions.Abort as exc:  # click's wrapping of Ctrl-C: the interrupt keeps its hint
        cause = exc.__cause__
        sys.exit(report_failure(cause if isinstance(cause, KeyboardInterrupt) else KeyboardInterrupt()))
    except click.ClickException as exc:
        sys.exit(report_click_error(exc, as_json=as_json, args=args))
    sys.exit(code if isinstance(code, int) else 0)


def report_click_error(exc: click.ClickException, *, as_json: bool, args: list[str] | None = None) -> int:
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
    later = _command_after(exc, args or [])
    if later is not None:  # `kenning --project DIR search …`: an option of the command, put first
        assert isinstance(exc, click.NoSuchOption)
        refused = UsageError(
            f"{exc.option_name} is an option of the command, not of `kenning` itself: put it after the command",
            hint=f"`kenning {later} … {exc.option_name} …` (see `kenning {later} --help`)",
        )
        return report_failure(refused, as_json=as_json) or exit_code(refused)
    command = ctx.command_path if ctx else _command_path(args or [])
    hint = f"see `{command} --help`"
    if _text_taken_for_an_option(exc):
        hint += f"; text that begins with '-' goes last, after `--`: `{command} [OPTIONS] -- '-…'`"
    directory = _directory_given_as_argument(exc, (args or [])[len(command.split()) - 1 :])
    if directory is not None:
        takes = any(isinstance(param, click.Argument) for param in ctx.command.params) if ctx else False
        hint += f"; a project directory goes with --project: `{command}{' …' if takes else ''} --project {directory}`"
    refused = UsageError(_with_prefix_match(exc), hint=hint)
    return report_failure(refused, as_json=as_json) or exit_code(refused)


def _command_after(exc: click.ClickException, args: list[str]) -> str | None:
    """The command named after an option `kenning` itself does not know (``kenning --json
    status``), or None."""
    if not isinstance(exc, click.NoSuchOption) or exc.ctx is None or exc.ctx.command is not cli:
        return None
    name = next((arg for arg in args if arg in COMMANDS), None)
    if name is None:
        return None
    path = _command_path(args[args.index(name) :])
    command: click.Command | None = cli
    for word in path.split()[1:]:
        command = command.get_command(exc.ctx, word) if isinstance(command, click.Group) else None
    takes = command is not None and any(exc.option_name in param.opts for param in command.params)
    return path.removeprefix("kenning ") if takes else None


def _command_path(args: list[str]) -> str:
    """``kenning``, then the command and subcommand ARGS name, as click's ``command_path``."""
    path = ["kenning"]
    if args and args[0] in COMMANDS:
        path.append(args[0])
        command = cli.get_command(click.Context(cli), args[0])
        if isinstance(command, click.Group) and len(args) > 1 and args[1] in command.commands:
            path.append(args[1])
    return " ".join(path)


def _with_prefix_match(exc: click.ClickException) -> str:
    """Click's message; for an unknown option that begins the name of one or more of the
    command's options (``--all`` for ``--all-projects``), naming them, as click names close ones."""
    message = exc.format_message()
    if not isinstance(exc, click.NoSuchOption) or exc.possibilities or exc.ctx is None:
        return message
    typed = exc.option_name
    longer = sorted(
        name
        for param in exc.ctx.command.params
        if isinstance(param, click.Option)
        for name in param.opts
        if name.startswith("--") and name.startswith(typed) and len(typed) > 2
    )
    if not longer:
        return message
    return f"{message} Did you mean {' or '.join(repr(name) for name in longer)}?"


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


if __name__ == "__main__":
    main()
