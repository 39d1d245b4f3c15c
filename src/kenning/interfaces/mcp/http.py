"""MCP over streamable HTTP: the tools of one project at ``/mcp`` (the SDK's transport),
behind bearer tokens (``kenning.auth``). A token is required always, loopback included: a web
page in the user's browser can reach loopback.

The gate in front of the transport (``gate.py``) answers in HTTP statuses: a missing, unknown,
revoked or expired token → 401; a token not bound to the served project, or a tools/call of a tool
needing a scope the token lacks → 403 (the latter with ``WWW-Authenticate: Bearer
error="insufficient_scope"``); too many failed attempts from one client → 429; a body over
``MAX_BODY`` → 413. Each is JSON ``{"error": {"type", "message", "hint"}}``. A read-only token
is not listed the write tools, so an agent is not offered a call that would meet that 403
(an HTTP error ends the SDK client's session). Within its scope, a call outside the token's
binding — a ``project`` argument, a ``path_filter`` — is a typed ``ScopeDenied`` tool error (an
MCP result with ``isError``), like every refused call: the session goes on. Writes, refused
ones included, are appended to the audit log in ``KENNING_HOME/audit.log``.

``mcp_endpoint`` gives the route and the lifespan a parent app adds (``kenning serve --mcp``
puts them beside the cockpit); ``create_app`` is a server of its own (``kenning mcp --http``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from mcp.server.fastmcp.server import StreamableHTTPASGIApp
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from kenning.auth.policy import FailureLimiter, Refusal, ToolNeeds, audit, check_binding
from kenning.auth.tokens import WRITE, TokenRecord
from kenning.clock import utc_now
from kenning.errors import ScopeDenied
from kenning.interfaces.mcp import disconnects
from kenning.interfaces.mcp.gate import HINTS, READS, TokenGate
from kenning.interfaces.mcp.server import KenningMCP, build_server
from kenning.interfaces.web.hosts import MCP_HINT, KnownHosts
from kenning.project import Project

# Tools a path-bound token may call without a path_filter: they read nothing.
PATH_FREE = frozenset({"save_memory"})
LOOPBACK = ("127.0.0.1", "localhost", "::1")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")  # the names a loopback server answers to (``Host``)


@dataclass(frozen=True)
class McpEndpoint:
    """The token-gated ``/mcp`` route and the session manager it needs running: a parent app
    adds ``route`` to its routes and enters ``lifespan`` in its own lifespan."""

    route: Route
    session_manager: StreamableHTTPSessionManager
    server: KenningMCP

    @asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """The session manager running while the server lives; when it stops, the store
        connections the tools kept are closed (no ``-wal``/``-shm`` left, no idle session on a
        PostgreSQL server)."""
        try:
            async with self.session_manager.run():
                yield
        finally:
            self.server.close()


def _path_hint(served: Iterable[ToolNeeds]) -> str:
    """What a path-bound token's refused call should do next: call a tool that takes a
    ``path_filter`` — or, when this server lists none (the default profile), restart it with one."""
    if any(tool.takes_path_filter for tool in served):
        return "pass a path_filter inside the token's path(s) to search_memory, recall or recall_context"
    return (
        "this server lists no tool that takes a path_filter: restart it with `--tools default,xmemo` "
        "(search_memory, recall, recall_context), or use a token without --path"
    )


def mcp_endpoint(
    project: Project,
    *,
    home: Path,
    tools: str | Sequence[str] = "default",
    clock: Callable[[], datetime] = utc_now,
    host: str = "127.0.0.1",
    limiter: FailureLimiter | None = None,
    path: str = "/mcp",
) -> McpEndpoint:
    """``project``'s tools over the SDK's streamable HTTP transport at ``path``, behind
    tokens read from ``home``."""
    security = None if host in LOOPBACK else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    server = build_server(project, clock=clock, tools=tools, host=host, json_response=True, transport_security=security)
    needs = {}
    for tool in server._tool_manager.list_tools():
        params = tool.parameters.get("properties", {})
        writes = not (tool.annotations and tool.annotations.readOnlyHint)
        needs[tool.name] = ToolNeeds(
            tool.name, writes=writes, takes_path_filter="path_filter" in params, path_free_ok=tool.name in PATH_FREE
        )
    needs[READS.name] = READS  # the gate's scope check of a resource read
    path_hint = _path_hint(needs.values())

    def denied(refusal: Refusal | None) -> ScopeDenied | None:
        if refusal is None:
            return None
        return ScopeDenied(refusal.message, hint=path_hint if refusal.needs_path_filter else HINTS[403])

    def authorise(request: Any, name: str, arguments: dict[str, Any]) -> ScopeDenied | None:
        token = _token(request)
        if token is None or name not in needs:
            return None
        return denied(check_binding(token, needs[name], arguments))  # the scope: the gate's 403

    def authorise_read(request: Any, uri: str) -> ScopeDenied | None:
        """A resource read is refused where memory_get is: a path-bound token (the projects a
        citation may name are the fact resource's own check, ``foreign.cited_store``)."""
        token = _token(request)
        return None if token is None else denied(check_binding(token, READS, {}))

    def shown(request: Any, name: str) -> bool:
        token = _token(request)
        return token is None or WRITE in token.scopes or not (name in needs and needs[name].writes)

    def audit_writes(request: Any, name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        token = _token(request)
        if token is not None and needs.get(name) and needs[name].writes:
            client = (request.scope.get("client") or ("unknown", 0))[0]
            audit(
                home,
                token=token,
                client=client,
                project=project.name,
                tool=name,
                arguments=arguments,
                ok=not result.isError,
                now=clock(),
            )

    server.guards.append(authorise)
    server.read_guards.append(authorise_read)
    server.shown.append(shown)
    server.observers.append(audit_writes)
    disconnects.install()  # a client going away is no ERROR traceback (disconnects.py)
    server.streamable_http_app()  # creates the SDK's session manager with the settings above
    gate = TokenGate(
        StreamableHTTPASGIApp(server.session_manager),
        home=home,
        served=project.name,
        needs=needs,
        clock=clock,
        limiter=limiter or FailureLimiter(),
    )
    return McpEndpoint(Route(path, endpoint=gate), server.session_manager, server)


def _token(request: Any) -> TokenRecord | None:
    """The token the gate admitted this request with (None: no HTTP request, e.g. a test's)."""
    return getattr(request, "scope", {}).get("kenning.token")


def create_app(
    project: Project,
    *,
    home: Path,
    tools: str | Sequence[str] = "default",
    clock: Callable[[], datetime] = utc_now,
    host: str = "127.0.0.1",
    limiter: FailureLimiter | None = None,
) -> Starlette:
    """A server of its own for ``kenning mcp --http``: only ``/mcp``. On loopback a foreign
    ``Host`` is the cockpit's typed 400 ``UsageError`` (``web/hosts.py``), in front of the SDK's
    own check of Host and Origin (which answered a plain-text 421)."""
    endpoint = mcp_endpoint(project, home=home, tools=tools, clock=clock, host=host, limiter=limiter)
    middleware = []
    if host in LOOPBACK:
        served = f"this MCP server ({project.name})"
        middleware.append(Middleware(KnownHosts, allowed=LOOPBACK_HOSTS, served=served, hint=MCP_HINT, pages=False))
    return Starlette(routes=[endpoint.route], lifespan=endpoint.lifespan, middleware=middleware)
