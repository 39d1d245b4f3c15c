"""`kenning serve`: the web cockpit, on loopback, or behind tokens on an explicit --host (see docs/web.md)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kenning.interfaces.cli.common import (
    Bounded,
    now,
    project_option,
    resolve_project,
    stderr_is_terminal,
    typed_directory,
    warn,
)

if TYPE_CHECKING:
    from starlette.types import ASGIApp

    from kenning.interfaces.serve import Stopped
    from kenning.project import Project

F = TypeVar("F", bound=Callable[..., Any])


def forwarded_option(func: F) -> F:
    """``--forwarded-allow-ips``, shared by the HTTP servers (``serve``, ``mcp --http``)."""
    return click.option(
        "--forwarded-allow-ips",
        "forwarded",
        default=None,
        metavar="IPS",
        help="HTTP: behind a reverse proxy, its addresses or networks (comma-separated; '*' any): the client "
        "address is then taken from the X-Forwarded-For header it sets. Default: none, the header is ignored "
        "(anyone who can reach the port could set it and dodge the failed-attempt limit).",
    )(func)


def no_token_yet(project: Project, home: Path) -> None:
    """A note on stderr when no active token is bound to ``project``: every request to /mcp
    would be refused (401) until one is created; the command that creates one."""
    from kenning.auth.tokens import active_for

    if not active_for(home, project.name, now=now()):
        warn(
            f"note: no active token is bound to project {project.name!r} yet, so every MCP request is refused (401): "
            f"create one with `kenning token create --scope memory:read --project {typed_directory(project.root)}`"
        )


@click.command()
@click.option("--port", type=Bounded(0, 65535), default=8765, show_default=True, help="TCP port (0 picks a free one).")
@click.option(
    "--host",
    default=None,
    help="Address to listen on (default 127.0.0.1). A non-loopback address needs an active token bound "
    "to the project (kenning token create); every request then presents it.",
)
@click.option(
    "--mcp",
    "with_mcp",
    is_flag=True,
    help="Also serve MCP over streamable HTTP at /mcp (bearer token required, see `kenning token`).",
)
@click.option(
    "--tools",
    default="default",
    show_default=True,
    metavar="PROFILE[,PROFILE…]",
    help="With --mcp: tool profiles to list (default, xmemo, guided, graph, write, all).",
)
@forwarded_option
@project_option
def serve(
    port: int, host: str | None, with_mcp: bool, tools: str, forwarded: str | None, project_path: Path | None
) -> None:
    """Serve the web cockpit (Ask, Stale, Graph, Memory, Benchmarks, Status) on 127.0.0.1, or on
    --host ADDR behind access tokens."""
    from kenning.config import kenning_home
    from kenning.interfaces.serve import address_of, forwarded_from, listen
    from kenning.interfaces.web.app import create_app
    from kenning.interfaces.web.binding import DEFAULT_HOST, check_bind
    from kenning.registry import check_home

    chosen = host or DEFAULT_HOST
    proxies = forwarded_from(forwarded)  # a malformed address is a usage error before anything starts
    project = resolve_project(project_path)
    check_home(kenning_home())  # the registry ("all projects"), tokens, audit log: a file is refused before serving
    gated = check_bind(
        chosen,
        explicit=host is not None,
        home=kenning_home(),
        project=project.name,
        now=now(),
        directory=typed_directory(project.root),
    )
    endpoint = None
    if with_mcp:
        from kenning.interfaces.mcp.http import mcp_endpoint
        from kenning.interfaces.mcp.profiles import resolve

        resolve(tools)  # an unknown profile is a usage error before anything starts
        endpoint = mcp_endpoint(project, home=kenning_home(), tools=tools, clock=now, host=chosen)
    app = create_app(
        project,
        home=kenning_home(),
        clock=now,
        gated=gated,
        extra_routes=[endpoint.route] if endpoint else [],
        lifespan=endpoint.lifespan if endpoint else None,
    )
    sock = listen(chosen, port)  # bound before the banner: it names the port actually served
    address = address_of(sock, chosen)

    def announce() -> None:
        warn(f"kenning cockpit for {project.name}: {address}/ (Ctrl-C to stop)")
        if gated:
            warn("every request needs a token bound to this project (log in at /login, or Authorization: Bearer)")
        if with_mcp:
            warn(f"MCP ({tools}) at {address}/mcp: clients need a bearer token (kenning token create)")
            no_token_yet(project, kenning_home())
        if proxies:
            warn(f"client addresses taken from X-Forwarded-For when the request comes from {', '.join(proxies)}")

    serve_until_stopped(app, sock, "kenning serve", announce, forwarded=proxies)


def serve_until_stopped(
    app: ASGIApp, sock: socket.socket, command: str, announce: Callable[[], None], *, forwarded: tuple[str, ...] = ()
) -> None:
    """Serve until SIGINT, SIGTERM or SIGHUP, then return: a clean stop exits 0 (systemd and
    ``docker stop`` send SIGTERM and read any other code as a failure), said in one line on
    stderr when it is a terminal. A server that fails exits non-zero (see docs/cli.md).
    ``announce`` prints the banner once a signal stops the server cleanly (``serve.run``'s
    ``ready``); ``forwarded``: the proxies whose X-Forwarded-For is believed."""
    from kenning.interfaces.serve import run

    said_stopped(run(app, sock, forwarded=forwarded, ready=announce), command)


def said_stopped(stopped: Stopped | None, command: str) -> None:
    """One line on a terminal's stderr when a signal stopped a server (none when the terminal is
    gone: SIGHUP); a stop forced by a second Ctrl-C then exits 130 (``serve.FORCED_EXIT``)."""
    if stopped is None:
        return
    said = f"stopped on {stopped.signal.name}, shut down cleanly"
    if stopped.forced:
        said = "stopped at once on a second SIGINT, requests in flight cancelled"
    try:
        if stderr_is_terminal():
            warn(f"{command}: {said}")
    except OSError:
        pass  # a terminal that hung up: nobody reads it
    if stopped.forced:
        from kenning.interfaces.serve import FORCED_EXIT

        raise SystemExit(FORCED_EXIT)
