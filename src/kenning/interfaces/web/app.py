"""The cockpit's ASGI app: routes, static assets, typed errors as HTTP statuses.

``create_app`` returns a plain Starlette app whose ``routes`` list can be extended (the MCP
streamable-HTTP endpoint mounts at ``/mcp`` that way). The handlers are thin: they call
the same core functions as the CLI and render the same answer objects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Lifespan

from kenning.auth.policy import FailureLimiter
from kenning.config import Project
from kenning.errors import (
    IndexMissing,
    KenningError,
    NotFound,
    ScopeDenied,
    StoreBusy,
    StoreOutdated,
    StoreUnavailable,
    UsageError,
)
from kenning.interfaces.web import api, gate, graph_pages, memory_pages, pages
from kenning.interfaces.web.body import BodyLimit
from kenning.interfaces.web.cockpit import HERE, Cockpit, render, templates
from kenning.interfaces.web.headers import SecurityHeaders
from kenning.interfaces.web.hosts import KnownHosts
from kenning.store.handle import DatabaseError, typed_error

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
FORM_HINT = "post the form as the cockpit's pages do (application/x-www-form-urlencoded)"


def http_status(exc: BaseException) -> int:
    match exc:
        case UsageError():
            return 400
        case ScopeDenied():
            return 403
        case NotFound():
            return 404
        case IndexMissing() | StoreOutdated():
            return 409
        case StoreBusy() | StoreUnavailable():  # busy, or a server store out of reach: retry later
            return 503
    return 500


def error_payload(exc: BaseException) -> dict[str, Any]:
    """``{"error": {type, message, hint}}``, as the CLI's ``--json`` and MCP give it (an engine
    failure in kenning's words: ``store.handle.typed_error``)."""
    return {"error": typed_error(exc).to_json()}


async def on_error(request: Request, exc: Exception) -> Response:
    status = http_status(typed_error(exc))
    payload = error_payload(exc)
    if request.url.path.startswith("/api/"):
        return JSONResponse(payload, status_code=status)
    return render(request, "error.html", {"error": payload["error"], "status": status}, status_code=status)


async def on_http_error(request: Request, exc: Exception) -> Response:
    """A route that does not exist (404 ``NotFound``), one that does not take this method (405
    ``UsageError``, with ``Allow``) or a body Starlette cannot parse as a form (400
    ``ValidationError``: a malformed multipart body, a field over 1 MB, over 1,000 fields),
    typed as every other error."""
    status = getattr(exc, "status_code", 500)
    headers = dict(getattr(exc, "headers", None) or {})
    where = f"{request.method} {request.url.path}"
    if status == 405:
        allowed = headers.get("Allow", "")
        error = {"type": "UsageError", "message": f"{where} is not allowed", "hint": f"this route takes {allowed}"}
    elif status == 400:
        detail = str(getattr(exc, "detail", None) or "bad request")
        error = {"type": "ValidationError", "message": f"{where}: {detail}", "hint": FORM_HINT}
    else:
        detail = str(getattr(exc, "detail", None) or "not found")
        error = {"type": "NotFound", "message": detail, "hint": "the cockpit's routes are listed in docs/web.md"}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": error}, status_code=status, headers=headers)
    response = render(request, "error.html", {"error": error, "status": status}, status_code=status)
    response.headers.update(headers)
    return response


def login_routes() -> list[BaseRoute]:
    return [
        Route("/login", gate.login_page, name="login_page"),
        Route("/login", gate.login, methods=["POST"], name="login"),
        Route("/logout", gate.logout, methods=["POST"], name="logout"),
    ]


def routes() -> list[BaseRoute]:
    return [
        Route("/", pages.home, name="home"),
        Route("/ask", pages.ask, name="ask"),
        Route("/api/ask", api.ask, name="api_ask"),
        Route("/source/{project}/{fact_id}", pages.source, name="source"),
        Route("/stale", pages.stale, name="stale"),
        Route("/graph", graph_pages.graph, name="graph"),
        Route("/memory", memory_pages.memory, name="memory"),
        Route("/memory/{action}", memory_pages.action, methods=["POST"], name="memory_action"),
        Route("/bench", graph_pages.bench, name="bench"),
        Route("/status", pages.status, name="status"),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]


def closing(cockpit: Cockpit, inner: Lifespan[Starlette] | None) -> Lifespan[Starlette]:
    """The app's lifespan: ``inner`` (a composed app's, e.g. the MCP session manager), then the
    cockpit's kept store connections closed as the server stops — after the requests in flight
    have ended (uvicorn waits for them first) — so that no ``-wal``/``-shm`` is left beside a
    SQLite store and no idle session on a PostgreSQL server."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            if inner is None:
                yield
            else:
                async with inner(app):
                    yield
        finally:
            cockpit.close()

    return lifespan


def create_app(
    project: Project,
    *,
    home: Path,
    clock: Callable[[], datetime],
    allowed_hosts: tuple[str, ...] | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    lifespan: Lifespan[Starlette] | None = None,
    gated: bool = False,
    limiter: FailureLimiter | None = None,
) -> Starlette:
    """The cockpit for ``project``. ``allowed_hosts`` guards against DNS rebinding: a page
    served under another host name cannot read this one (loopback names by default; any name
    when ``gated``, since a rebinding page never holds the token). ``extra_routes`` (e.g. a
    ``Mount`` of the MCP streamable-HTTP app at ``/mcp``) and ``lifespan`` (what such an app
    must run while the server lives) compose other apps into the same server; the store
    connections the cockpit keeps are closed when the lifespan ends (``closing``). ``gated``: every
    page and ``/api/*`` route needs a token (``web/gate.py``), with ``/login`` for browsers."""
    hosts = allowed_hosts or (("*",) if gated else LOOPBACK_HOSTS)
    limiter = limiter or FailureLimiter()
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(KnownHosts, allowed=hosts),
        Middleware(BodyLimit),
    ]
    if gated:
        middleware.append(Middleware(gate.TokenGate, limiter=limiter))
    cockpit = Cockpit(project, home, clock)
    cockpit.connections.warm()
    app = Starlette(
        routes=[*(login_routes() if gated else ()), *routes(), *extra_routes],
        lifespan=closing(cockpit, lifespan),
        middleware=middleware,
        exception_handlers={
            KenningError: on_error,
            DatabaseError: on_error,
            400: on_http_error,
            404: on_http_error,
            405: on_http_error,
        },
    )
    app.state.cockpit = cockpit
    app.state.templates = templates()
    app.state.gated, app.state.limiter = gated, limiter
    return app
