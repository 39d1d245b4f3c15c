"""`kenning token create | list | revoke`: bearer tokens for remote MCP (docs/mcp.md, Remote access)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from kenning import registry
from kenning.auth import tokens
from kenning.config import find_root, kenning_home
from kenning.errors import NotFound, ProjectNotFound, ValidationError
from kenning.interfaces.cli.common import columns, emit, json_option, now


@click.group()
def token() -> None:
    """Create, list and revoke bearer tokens for MCP over HTTP."""


@token.command("create")
@click.option(
    "--scope",
    "scopes",
    required=True,
    multiple=True,
    metavar="SCOPE[,SCOPE]",
    help="memory:read and/or memory:write (repeat or comma-separate).",
)
@click.option(
    "--project",
    "projects",
    required=True,
    multiple=True,
    metavar="PATH|NAME",
    help="A project the token may reach: its directory, as every --project, or its registered name (repeatable).",
)
@click.option(
    "--path",
    "paths",
    multiple=True,
    metavar="PREFIX",
    help="Limit reads to source paths starting with PREFIX (end a folder with /; repeatable); "
    "reads must then pass a path_filter starting with it.",
)
@click.option("--expires", default="30d", show_default=True, help="Lifetime: 12h, 30d, 8w, or never.")
@click.option("--name", default=None, help="A label to recognise the token by.")
@json_option
def token_create(
    scopes: tuple[str, ...],
    projects: tuple[str, ...],
    paths: tuple[str, ...],
    expires: str,
    name: str | None,
    as_json: bool,
) -> None:
    """Create a token and print its secret once (only a salted hash is kept)."""
    flat = [s for part in scopes for s in part.split(",")]
    home = kenning_home()
    names = [_project_name(home, given) for given in projects]
    record, secret = tokens.create(
        home, scopes=flat, projects=names, paths=list(paths), name=name, expires=expires, now=now()
    )
    emit(
        {**record.public(now()), "secret": secret},
        as_json,
        f"{secret}\n\ntoken {record.id} ({record.name}): {', '.join(record.scopes)} on {', '.join(record.projects)}"
        + (f", paths {', '.join(record.paths)}" if record.paths else "")
        + f", expires {record.expires or 'never'}\nThis secret is shown once; store it now.",
    )


def _project_name(home: Path, given: str) -> str:
    """The registered name a ``--project`` means: the project at or above the directory
    ``given`` (as every other ``--project``), else the registered project named ``given``.
    Neither: ``NotFound`` naming both readings. A bare word that is both a directory of one
    project and the name of another is refused: a token must not open the wrong project."""
    entries = registry.list_entries(home)
    named = any(entry.name == given for entry in entries)
    root = _project_root(given)
    if root is None:
        if named:
            return given
        raise NotFound(
            f"--project {given}: no kenning project at this path, and no project named {given!r} in the registry",
            hint="pass a project's directory (where `kenning init` ran) or a name from `kenning projects list`",
        )
    there = next((entry.name for entry in entries if entry.path.resolve() == root), None)
    if there is None:
        raise NotFound(
            f"--project {given}: the project at {root} is not registered on this machine",
            hint=f"register it with `kenning projects add {root}`, then retry",
        )
    if named and there != given and os.sep not in given and "/" not in given:
        raise ValidationError(
            f"--project {given}: both the directory of project {there!r} ({root}) and the name of another "
            "registered project",
            hint=f"write ./{given} for the directory, or the other project's path (`kenning projects list`)",
        )
    return there


def _project_root(given: str) -> Path | None:
    """The kenning project at or above the directory ``given``; None when ``given`` is no
    directory or no project holds it."""
    if not given or not Path(given).is_dir():
        return None
    try:
        return find_root(Path(given))
    except ProjectNotFound:
        return None


@token.command("list")
@json_option
def token_list(as_json: bool) -> None:
    """List tokens (id, name, scopes, binding, expiry, state); never a secret."""
    moment = now()
    rows = [r.public(moment) for r in tokens.load(kenning_home()).values()]

    def text() -> str:
        if not rows:
            return "no tokens (kenning token create)"
        cells = [
            [
                r["id"],
                r["name"],
                r["state"],
                ",".join(r["scopes"]),
                ",".join(r["projects"]),
                ",".join(r["paths"]) or "-",
                r["expires"] or "never",
            ]
            for r in rows
        ]
        return columns(["ID", "NAME", "STATE", "SCOPES", "PROJECTS", "PATHS", "EXPIRES"], cells)

    emit({"tokens": rows}, as_json, text)


@token.command("revoke")
@click.argument("ref")
@json_option
def token_revoke(ref: str, as_json: bool) -> None:
    """Revoke a token by id or name; it is refused (401) from the next request on."""
    record = tokens.revoke(kenning_home(), ref, now=now())
    emit(record.public(now()), as_json, f"token {record.id} ({record.name}) revoked on {record.revoked}")
