"""`kenning token create | list | revoke`: bearer tokens for remote MCP (docs/mcp.md, Remote access)."""

from __future__ import annotations

import click

from kenning.auth import tokens
from kenning.config import kenning_home
from kenning.interfaces.cli.common import emit, json_option, now


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
    metavar="NAME",
    help="A project the token may reach (repeatable).",
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
    record, secret = tokens.create(
        kenning_home(), scopes=flat, projects=list(projects), paths=list(paths), name=name, expires=expires, now=now()
    )
    emit(
        {**record.public(now()), "secret": secret},
        as_json,
        f"{secret}\n\ntoken {record.id} ({record.name}): {', '.join(record.scopes)} on {', '.join(record.projects)}"
        + (f", paths {', '.join(record.paths)}" if record.paths else "")
        + f", expires {record.expires or 'never'}\nThis secret is shown once; store it now.",
    )


@token.command("list")
@json_option
def token_list(as_json: bool) -> None:
    """List tokens (id, name, scopes, binding, expiry, state); never a secret."""
    moment = now()
    rows = [r.public(moment) for r in tokens.load(kenning_home()).values()]

    def text() -> str:
        if not rows:
            return "no tokens (kenning token create)"
        return "\n".join(
            f"{r['id']}\t{r['name']}\t{r['state']}\t{','.join(r['scopes'])}\t{','.join(r['projects'])}"
            f"\t{','.join(r['paths']) or '-'}\texpires {r['expires'] or 'never'}"
            for r in rows
        )

    emit({"tokens": rows}, as_json, text)


@token.command("revoke")
@click.argument("ref")
@json_option
def token_revoke(ref: str, as_json: bool) -> None:
    """Revoke a token by id or name; it is refused (401) from the next request on."""
    record = tokens.revoke(kenning_home(), ref, now=now())
    emit(record.public(now()), as_json, f"token {record.id} ({record.name}) revoked on {record.revoked}")
