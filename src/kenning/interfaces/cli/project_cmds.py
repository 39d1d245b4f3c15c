"""Project commands: init, sync, status, projects."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kenning.config import kenning_home, read_config
from kenning.interfaces.cli.common import (
    Bounded,
    emit,
    json_option,
    project_option,
    resolve_project,
    stderr_is_terminal,
    warn,
)
from kenning.interfaces.cli.plain_project import init_directory_conflict, init_output, sync_global_output, sync_output
from kenning.interfaces.cli.serve_cmds import forwarded_option
from kenning.project import CONFIG_NAME
from kenning.status import PACK_NOT_BUILT_DEGRADATION, alarms, project_status

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from rich.progress import Progress


def _embed_budget_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--embed-budget SECONDS`` (`kenning sync`, `kenning init --sync`): one sync's embedding time."""
    return click.option(
        "--embed-budget",
        "embed_budget",
        type=click.FloatRange(min=0),
        metavar="SECONDS",
        default=None,
        help=help_text,
    )


_BUDGET_HELP = (
    "This sync's embedding time for the dense index (level 1), instead of [dense] budget_seconds or the default "
    "(1.75x the lexical part, at least 15 s): a large value completes the index in one sync."
)


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--project",
    "project_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory to make a kenning project, same as DIRECTORY (default: the current directory).",
)
@click.option("--name", default=None, help="Project name used in citations kn://<name>/<id> (default: directory name).")
@click.option(
    "--sync", "then_sync", is_flag=True, help="Then index the project at once, in the same process (`kenning sync`)."
)
@click.option("--no-embed", "no_embed", is_flag=True, help="With --sync: lexical sync only, no embedding (level 1).")
@_embed_budget_option(f"With --sync: {_BUDGET_HELP}")
@json_option
def init(
    directory: Path | None,
    project_path: Path | None,
    name: str | None,
    then_sync: bool,
    no_embed: bool,
    embed_budget: float | None,
    as_json: bool,
) -> None:
    """Create .kenning/ (config, .gitignore) in DIRECTORY (default: the current directory) and
    register the project on this machine; with --sync, index it too."""
    for given, option in ((no_embed, "--no-embed"), (embed_budget is not None, "--embed-budget")):
        if given and not then_sync:
            raise click.UsageError(f"{option} applies to the sync: use it with --sync (or on `kenning sync`)")
    _check_embedding(no_embed, embed_budget)
    conflict = init_directory_conflict(directory, project_path)
    if conflict:
        raise click.UsageError(conflict)
    project_path = directory or project_path or Path(".")
    if not then_sync:
        click.echo(init_output(project_path, name, as_json))
        return
    with _progress() as progress:
        text = init_output(
            project_path, name, as_json, then_sync=True, no_embed=no_embed, progress=progress, embed_budget=embed_budget
        )
    click.echo(text)


def _check_embedding(no_embed: bool, embed_budget: float | None) -> None:
    if no_embed and embed_budget is not None:
        raise click.UsageError("--no-embed skips embedding and --embed-budget sets its time: give one of them")


@click.command()
@project_option
@click.option(
    "--no-embed", "no_embed", is_flag=True, help="Lexical sync only: do not embed for the dense index (level 1)."
)
@click.option(
    "--global",
    "of_global",
    is_flag=True,
    help="Embed the notes of the transverse memory (kn://global/…) that a save left unembedded; not a project.",
)
@click.option(
    "--retire-missing",
    "retire_missing",
    type=click.IntRange(min=0),
    metavar="N",
    help="The N indexed files not found here were deleted on purpose: retire them, even when none of the "
    "project's files is left (refused unless exactly N are missing).",
)
@_embed_budget_option(_BUDGET_HELP)
@json_option
def sync(
    project_path: Path | None,
    no_embed: bool,
    of_global: bool,
    retire_missing: int | None,
    embed_budget: float | None,
    as_json: bool,
) -> None:
    """Index new and changed files, retire vanished ones; nothing is written if nothing changed."""
    if of_global:
        if project_path is not None or no_embed or retire_missing is not None:
            raise click.UsageError(
                "--global syncs the transverse memory, not a project: without --project, --no-embed or --retire-missing"
            )
        click.echo(sync_global_output(as_json, embed_budget=embed_budget))
        return
    _check_embedding(no_embed, embed_budget)
    with _progress() as progress:
        text = sync_output(
            project_path, no_embed, as_json, progress, retire_missing=retire_missing, embed_budget=embed_budget
        )
    click.echo(text)


class _progress:
    """A rich progress bar on stderr when stderr is a terminal; otherwise nothing on stderr.
    The bar is redrawn by the sync's own steps (at most every ``REDRAW`` seconds), not by
    rich's refresh thread: that thread would run while the parsing pool forks
    its workers (which Python 3.12+ warns against: a lock it holds stays held in the child)."""

    REDRAW = 0.1
    _bar: Progress | None = None

    def __enter__(self) -> Callable[[str, int, int], None] | None:
        if not stderr_is_terminal():
            return None  # progress only on a terminal (SPEC §15): the report says what embedding did
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = self._bar = Progress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
            auto_refresh=False,
        )
        bar.__enter__()
        task = bar.add_task("reading", total=None)
        bar.refresh()
        drawn = [time.monotonic()]

        def update(phase: str, done: int, total: int) -> None:
            # reading and writing count files; the last steps have no known length
            bar.update(task, description=phase, completed=done, total=total or None)
            now = time.monotonic()
            if now - drawn[0] >= self.REDRAW or not total or done == total:
                bar.refresh()
                drawn[0] = now

        return update

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, exc, tb)


@click.command()
@project_option
@json_option
def status(project_path: Path | None, as_json: bool) -> None:
    """Level and engines actually in service, index size, degradations."""
    project = resolve_project(project_path)
    url = os.environ.get("KENNING_DATABASE_URL")
    data = {**project_status(project, url), "store_choice": _store_choice(project.state_dir / CONFIG_NAME, url)}
    emit(data, as_json, lambda: _status_text(data))


def _store_choice(config_path: Path, url: str | None) -> dict[str, Any]:
    """Where the store choice came from (the rule is ``config.load_project``'s: the variable,
    when set, wins over the config's ``store`` for every project, one whose config names none
    included). The URL itself is not shown: it may carry a password."""
    in_config = "store" in read_config(config_path)
    chosen_by = "KENNING_DATABASE_URL" if url else "config" if in_config else "default"
    return {"engine": "postgresql" if url or in_config else "sqlite", "chosen_by": chosen_by, "config_store": in_config}


def _store_line(choice: dict[str, Any]) -> str:
    match choice["chosen_by"]:
        case "KENNING_DATABASE_URL":
            why = (
                "it wins over `store` in .kenning/config.toml"
                if choice["config_store"]
                else "set in the environment; .kenning/config.toml names no store"
            )
            return f"store: postgresql, chosen by KENNING_DATABASE_URL ({why})"
        case "config":
            return "store: postgresql, chosen by `store` in .kenning/config.toml"
        case _:
            return "store: sqlite (the local file: no KENNING_DATABASE_URL, no `store` in .kenning/config.toml)"


def _history_lines(history: dict[str, Any]) -> list[str]:
    """The status's ``git history:`` line; none when the store cannot answer (the headline and
    the degradations say why: whether a sync read the history is not known here)."""
    why = history.get("reason", "").removeprefix("git history not read: ")
    match history["state"]:
        case "read":
            return [f"git history: read, {history['commits']} commit(s) indexed"]
        case "none":
            return [f"git history: none: {why} (nothing to read, so no answer is degraded)"]
        case "not_synced":
            return [f"git history: not read yet: {why}"]
        case "unknown":
            return []
        case _:
            return [f"git history: not read: {why}"]


def _service(data: dict[str, Any]) -> str:
    """The headline's level, or that nothing answers: the server is out of reach (or needs a
    sync to migrate it) and no local store stands in for it."""
    if not data["in_service"]:
        return "nothing in service: the PostgreSQL store cannot answer (see `degraded: store:` below)"
    return f"level {data['level']} in service"


def _status_text(data: dict[str, Any]) -> str:
    engines = ", ".join(f"{name} {'on' if e['available'] else 'off'}" for name, e in data["engines"].items())
    lines = [
        f"{data['project']} at {data['root']} · {_service(data)}",
        f"engines: {engines}",
        f"index: {data['index']['files']} file(s), {data['index']['facts']} fact(s) ({_lifecycles(data['index'])}), "
        f"last change {data['index']['last_sync'] or 'never'}",
        _store_line(data["store_choice"]),
        *_history_lines(data["git_history"]),
    ]
    if "partly" in data["engines"]["dense"]:
        lines.append(f"dense: {data['engines']['dense']['partly']}")
    if "left" in data["engines"]["dense"]:
        lines.append(f"dense: {data['engines']['dense']['left']}")
    if "search" in data["engines"]["dense"]:
        lines.append(f"dense search: {data['engines']['dense']['search']}")
    if data["parsers"]["markdown"] != "markdown-it-pyrs":
        lines.append(
            f"markdown: read by {data['parsers']['markdown']} (markdown-it-pyrs is not installed: it has no wheel "
            "for Python 3.13 or later); the same sections, a slower first sync"
        )
    if data["ranking_sums"] != "numpy":
        lines.append(
            "ranking: long impact lists summed in pure Python (numpy cannot be imported: pip install numpy); "
            "the same answers, slower on a large store"
        )
    if PACK_NOT_BUILT_DEGRADATION in data["degradations"]:  # a step to take on a fresh project, no alarm
        lines.append(
            "core pack: not built yet: run `kenning pack build` (the project core agents are given at session start)"
        )
    lines.extend(f"degraded: {d}" for d in alarms(data["degradations"]))
    return "\n".join(lines)


def _lifecycles(index: dict[str, Any]) -> str:
    """The index's facts by lifecycle, the superseded ones a sync replaced with a newer reading of
    their source (a changed file, a ledger record, a commit read again) counted apart: `58 active,
    3 superseded, 542 replaced at sync` — they are older readings, not knowledge a later decision
    or note superseded. The JSON keeps ``by_lifecycle`` as stored and gives ``replaced``."""
    parts: list[str] = []
    for name, count in index["by_lifecycle"].items():
        replaced = index.get("replaced", 0) if name == "superseded" else 0
        if count - replaced:
            parts.append(f"{count - replaced} {name}")
        if replaced:
            parts.append(f"{replaced} replaced at sync")
    return ", ".join(parts) or "none"


@click.command()
@project_option
@click.option(
    "--tools",
    "tools",
    default="default",
    show_default=True,
    metavar="PROFILE[,PROFILE…]",
    help="Tool profiles to list: default, xmemo, guided, graph, write, all.",
)
@click.option("--http", "http", is_flag=True, help="Serve over streamable HTTP at /mcp (bearer token required).")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: address to bind.")
@click.option(
    "--port",
    default=8766,
    show_default=True,
    type=Bounded(0, 65535),
    help="HTTP: port (0 picks a free one; kenning serve uses 8765).",
)
@click.option(
    "--cross-project",
    is_flag=True,
    help='stdio: let tools read the other registered projects (scope="all", project="*"), '
    "read-only, confidential ones never (also: cross_project = true in KENNING_HOME/config.toml). "
    "Over HTTP a token's projects decide.",
)
@forwarded_option
def mcp(
    project_path: Path | None, tools: str, http: bool, host: str, port: int, cross_project: bool, forwarded: str | None
) -> None:
    """Serve this project to MCP clients over stdio, or over HTTP with --http (see docs/mcp.md)."""
    from kenning.interfaces.mcp.profiles import resolve

    resolve(tools)  # an unknown profile is a usage error before anything starts
    project = resolve_project(project_path)
    if http:
        from kenning.interfaces.cli.serve_cmds import no_token_yet, serve_until_stopped
        from kenning.interfaces.mcp.http import create_app
        from kenning.interfaces.serve import address_of, forwarded_from, listen
        from kenning.registry import check_home

        proxies = forwarded_from(forwarded)
        check_home(kenning_home())  # its tokens and audit log live there: a file is refused before serving
        sock = listen(host, port)  # bound before the banner: it names the port actually served
        app = create_app(project, home=kenning_home(), tools=tools, host=host)

        def announce() -> None:
            click.echo(
                f"kenning MCP for {project.name} at {address_of(sock, host)}/mcp (tools: {tools}); "
                "clients need a bearer token (kenning token create)",
                err=True,
            )
            no_token_yet(project, kenning_home())
            if proxies:
                click.echo(
                    f"client addresses taken from X-Forwarded-For when the request comes from {', '.join(proxies)}",
                    err=True,
                )

        serve_until_stopped(app, sock, "kenning mcp --http", announce, forwarded=proxies)
    else:
        import sys

        from kenning.interfaces.cli.serve_cmds import said_stopped
        from kenning.interfaces.mcp.server import serve_stdio

        if sys.stdin.isatty() and stderr_is_terminal():  # a person typed it: say what it waits for
            warn(
                f"kenning mcp: serving {project.name} over stdio, waiting for an MCP client's JSON-RPC on this input. "
                "An agent starts this command itself (`claude mcp add kenning -- kenning mcp --project PATH`, "
                "docs/mcp.md); to try a question here, `kenning ask`. Ctrl-C stops."
            )
        said_stopped(serve_stdio(project, tools=tools, cross_project=cross_project), "kenning mcp")
