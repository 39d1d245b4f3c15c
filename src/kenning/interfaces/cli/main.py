"""Entry point: the command table, exit codes, and error reporting.

Exit codes: 0 success (empty results included), 1 runtime error, 2 usage error, 130 interrupt
(``interfaces/exit_codes.py``; every typed error's code is listed in docs/errors.md).
Commands are imported only when invoked, so `kenning search` pays for search alone.
"""

from __future__ import annotations

import importlib
import sys

import click

from kenning import __version__
from kenning.errors import KenningError
from kenning.interfaces.cli.plain import report_failure
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
            from kenning.interfaces.cli.usage import close_commands  # only on a mistake (start-up time)

            close = close_commands(name, list(COMMANDS))
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
        from kenning.interfaces.cli.usage import command_path  # only on a failure (start-up time)

        sys.exit(report_failure(exc, as_json=as_json, command=command_path(cli, args)) or 1)
    except click.exceptions.Abort as exc:  # click's wrapping of Ctrl-C: the interrupt keeps its hint
        cause = exc.__cause__
        sys.exit(report_failure(cause if isinstance(cause, KeyboardInterrupt) else KeyboardInterrupt()))
    except click.ClickException as exc:
        from kenning.interfaces.cli.usage import report_click_error  # only on a mistake (start-up time)

        sys.exit(report_click_error(exc, cli, as_json=as_json, args=args))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
