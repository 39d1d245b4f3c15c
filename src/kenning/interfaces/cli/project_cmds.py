"""Project commands: init, sync, status, projects."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kenning import registry
from kenning.config import init_project, kenning_home, read_config
from kenning.interfaces.cli.common import (
    Bounded,
    emit,
    json_option,
    now,
    project_option,
    resolve_project,
    stderr_is_terminal,
)
from kenning.project import CONFIG_NAME
from kenning.status import project_status

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from rich.progress import Progress


@click.command()
@click.option(
    "--project",
    "project_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    help="Directory to make a kenning project (default: the current directory).",
)
@click.option("--name", default=None, help="Project name used in citations kn://<name>/<id> (default: directory name).")
@json_option
def init(project_path: Path, name: str | None, as_json: bool) -> None:
    """Create .kenning/ (config, .gitignore) and register the project on this machine."""
    project, created = init_project(project_path, name)
    registry.register(kenning_home(), project.name, project.root)
    payload = {
        "project": project.name,
        "root": str(project.root),
        "created": created,
        "config": str(project.state_dir / "config.toml"),
        "registry": str(kenning_home()),
    }
    verb = "created" if created else "already initialised"
    emit(payload, as_json, f"{project.name}: {verb} at {project.state_dir}\nnext: kenning sync")


@click.command()
@project_option
@click.option(
    "--no-embed", "no_embed", is_flag=True, help="Lexical sync only: do not embed for the dense index (level 1)."
)
@json_option
def sync(project_path: Path | None, no_embed: bool, as_json: bool) -> None:
    """Index new and changed files, retire vanished ones; nothing is written if nothing changed."""
    from kenning.sync.run import sync as run_sync

    project = resolve_project(project_path)
    with _progress() as progress:
        report = run_sync(project, now=now(), progress=progress, embed=not no_embed)
    emit(report.to_json(), as_json, lambda: _sync_text(report.to_json()))


def _sync_text(data: dict[str, Any]) -> str:
    cov, files, ex = data["coverage"], data["files"], data["excerpts"]
    skipped = ", ".join(f"{n} {k}" for k, n in cov["skipped"].items()) or "none"
    lines = [
        f"{data['project']}: {cov['indexed']} file(s) indexed of {cov['eligible']} eligible "
        f"(discovery: {data['discovery']}); "
        f"skipped: {skipped}",
        f"files: {files['new']} new, {files['changed']} changed, {files['touched']} touched, "
        f"{files['unchanged']} unchanged, {files['removed']} removed",
        f"excerpts: {ex['added']} added, {ex['replaced']} replaced, {ex['retired']} retired, "
        f"{ex['kept']} kept, {ex['deduplicated']} deduplicated · {data['writes']} write(s)",
    ]
    lines.extend(f"retired: {uri}" for uri in data["retired_uris"][:20])
    if len(data["retired_uris"]) > 20:
        lines.append(f"retired: … and {len(data['retired_uris']) - 20} more (see --json)")
    lines.extend(_dense_lines(data.get("dense") or {}))
    return "\n".join(lines)


def _dense_lines(dense: dict[str, Any]) -> list[str]:
    """What the embedding step did (a no-op sync may still spend its budget embedding)."""
    if not dense.get("available", False):
        reason = dense.get("reason")
        return [f"dense: {reason}"] if reason else []
    lines = [
        f"dense ({name}): {e['embedded']} of {e['total']} excerpts embedded, {e['added']} now "
        f"in {e.get('seconds', 0):g} s (budget {dense.get('budget_seconds', 0):g} s for all models)"
        for name, e in dense.get("embedders", {}).items()
    ]
    lines.extend(f"dense: {note}" for note in dense.get("notes", []))
    return lines


def _embedding_lines() -> Callable[[str, int, int], None]:
    """Without a terminal: one line on stderr when embedding starts (it may take the whole
    budget, even on a sync with nothing new to read)."""
    said: set[str] = set()

    def update(phase: str, done: int, total: int) -> None:
        if phase.startswith("embedding") and phase not in said:
            said.add(phase)
            click.echo(f"{phase}: {done} of {total} excerpts embedded; `kenning sync --no-embed` skips this", err=True)

    return update


class _progress:
    """A rich progress bar on stderr when stderr is a terminal; otherwise one line when
    embedding starts."""

    _bar: Progress | None = None

    def __enter__(self) -> Callable[[str, int, int], None] | None:
        if not stderr_is_terminal():
            return _embedding_lines()
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = self._bar = Progress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        bar.__enter__()
        task = bar.add_task("reading", total=None)

        def update(phase: str, done: int, total: int) -> None:
            # reading and writing count files; the last steps have no known length
            bar.update(task, description=phase, completed=done, total=total or None)

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


def _status_text(data: dict[str, Any]) -> str:
    engines = ", ".join(f"{name} {'on' if e['available'] else 'off'}" for name, e in data["engines"].items())
    lines = [
        f"{data['project']} at {data['root']} · level {data['level']} in service",
        f"engines: {engines}",
        f"index: {data['index']['files']} file(s), {data['index']['facts']} fact(s) "
        f"({', '.join(f'{n} {k}' for k, n in data['index']['by_lifecycle'].items()) or 'none'}), "
        f"last change {data['index']['last_sync'] or 'never'}",
        _store_line(data["store_choice"]),
    ]
    if "search" in data["engines"]["dense"]:
        lines.append(f"dense search: {data['engines']['dense']['search']}")
    lines.extend(f"degraded: {d}" for d in data["degradations"])
    return "\n".join(lines)


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
    type=Bounded(1, 65535),
    help="HTTP: port (kenning serve uses 8765).",
)
@click.option(
    "--cross-project",
    is_flag=True,
    help='stdio: let tools read the other registered projects (scope="all", project="*"), '
    "read-only, confidential ones never (also: cross_project = true in KENNING_HOME/config.toml). "
    "Over HTTP a token's projects decide.",
)
def mcp(project_path: Path | None, tools: str, http: bool, host: str, port: int, cross_project: bool) -> None:
    """Serve this project to MCP clients over stdio, or over HTTP with --http (see docs/mcp.md)."""
    from kenning.interfaces.mcp.profiles import resolve

    resolve(tools)  # an unknown profile is a usage error before anything starts
    project = resolve_project(project_path)
    if http:
        from kenning.interfaces.mcp.http import serve_http

        click.echo(
            f"kenning MCP for {project.name} at http://{host}:{port}/mcp (tools: {tools}); "
            "clients need a bearer token (kenning token create)",
            err=True,
        )
        serve_http(project, home=kenning_home(), tools=tools, host=host, port=port)
    else:
        from kenning.interfaces.mcp.server import serve_stdio

        serve_stdio(project, tools=tools, cross_project=cross_project)
