"""MCP over streamable HTTP: the tools of one project at ``/mcp`` (the SDK's transport),
behind bearer tokens (``kenning.auth``). A token is required always, loopback included: a web
page in the user's browser can reach loopback.

The gate in front of the transport answers in HTTP statuses: a missing, unknown, revoked or
expired token → 401; a token not bound to the served project, or a tools/call of a tool
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

import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
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
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kenning.auth.policy import (
    FailureLimiter,
    Refusal,
    ToolNeeds,
    audit,
    check_binding,
    check_project,
    check_scope,
    needed_scope,
)
from kenning.auth.tokens import WRITE, TokenRecord, verify
from kenning.clock import utc_now
from kenning.errors import ScopeDenied, Unauthorized
from kenning.interfaces.mcp import disconnects
from kenning.interfaces.mcp.server import KenningMCP, build_server
from kenning.interfaces.serve import MAX_BODY
from kenning.project import Project

# Tools a path-bound token may call without a path_filter: they read nothing.
PATH_FREE = frozenset({"save_memory"})
LOOPBACK = ("127.0.0.1", "localhost", "::1")
# A resource read (``kn://<project>/<id>``, ``kn://<project>/core``): what memory_get or core_pack
# read, so it needs memory:read and a path-bound token may not make it (no path_filter limits it).
READS = ToolNeeds("resources/read", writes=False, takes_path_filter=False, path_free_ok=False)
_HINTS = {
    401: "send Authorization: Bearer <secret from `kenning token create`>",
    403: "ask for a token with the needed scope and binding (`kenning token create`), or stay within it",
    413: "send a smaller request",
    429: "wait, then retry with a valid token",
}
_TYPES = {401: "Unauthorized", 403: "ScopeDenied", 413: "ValidationError", 429: "TooManyAttempts"}


async def _refuse(send: Send, status: int, message: str, headers: dict[str, str] | None = None) -> None:
    body = json.dumps({"error": {"type": _TYPES[status], "message": message, "hint": _HINTS[status]}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def _calls(body: bytes) -> list[tuple[str, dict[str, Any]]]:
    """(tool, arguments) of each tools/call in a JSON-RPC body, and (``resources/read``, its
    params) of each resource read; malformed bodies are left to the SDK."""
    try:
        payload = json.loads(body)
    except ValueError:
        return []
    messages = payload if isinstance(payload, list) else [payload]
    found = []
    for msg in messages:
        if isinstance(msg, dict) and msg.get("method") == "tools/call" and isinstance(msg.get("params"), dict):
            args = msg["params"].get("arguments")
            found.append((str(msg["params"].get("name")), args if isinstance(args, dict) else {}))
        elif isinstance(msg, dict) and msg.get("method") == READS.name:
            found.append((READS.name, msg["params"] if isinstance(msg.get("params"), dict) else {}))
    return found


class TokenGate:
    """ASGI middleware in front of the SDK's transport: authenticates, checks the token's
    binding to the served project, bounds the body and checks the scope each tools/call needs;
    puts the token in the request's scope, where the server's guard (``mcp_endpoint``) checks
    each call's arguments against the token's binding."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        home: Path,
        served: str,
        needs: dict[str, ToolNeeds],
        clock: Callable[[], datetime],
        limiter: FailureLimiter,
    ) -> None:
        self.app, self.home, self.served, self.needs = app, home, served, needs
        self.clock, self.limiter = clock, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.limiter.blocked(client, time.monotonic())
        if wait is not None:
            await _refuse(
                send,
                429,
                f"too many failed attempts from {client}; retry in {wait:g} s",
                {"Retry-After": str(max(1, round(wait)))},
            )
            return
        header = Headers(scope=scope).get("authorization", "")
        presented = header[7:].strip() if header[:7].lower() == "bearer " else None
        try:
            token = verify(self.home, presented, now=self.clock())
        except Unauthorized as exc:
            if presented:
                self.limiter.fail(client, time.monotonic())
            await _refuse(send, 401, exc.message, {"WWW-Authenticate": 'Bearer realm="kenning"'})
            return
        refusal, headers = check_project(token, self.served), None
        if refusal is None and scope["method"] == "POST":
            body, refusal = await self._body(receive)
            if refusal is None:
                refusal, headers = self._scoped(token, body, client)
            receive = _replay(body)
        if refusal is not None:
            await _refuse(send, refusal.status, refusal.message, headers)
            return
        scope["kenning.token"] = token
        scope["kenning.projects"] = frozenset(token.projects)
        response = _Ending(send)
        await self.app(scope, receive, response.send)
        await response.end()

    async def _body(self, receive: Receive) -> tuple[bytes, Refusal | None]:
        chunks, size = [], 0
        while True:
            message = await receive()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return b"", Refusal(413, f"request body over {MAX_BODY} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), None

    def _scoped(self, token: TokenRecord, body: bytes, client: str) -> tuple[Refusal | None, dict[str, str] | None]:
        """A 403 for a tools/call whose tool needs a scope the token lacks (RFC 6750's
        ``insufficient_scope``, as MCP's authorization asks), with its header; a write refused
        here is a write call that failed, audited as one."""
        for name, arguments in _calls(body):
            needs = self.needs.get(name)
            refusal = None if needs is None else check_scope(token, needs)  # unknown tool: a typed NotFound
            if refusal is None or needs is None:
                continue
            if needs.writes:
                audit(
                    self.home,
                    token=token,
                    client=client,
                    project=self.served,
                    tool=name,
                    arguments=arguments,
                    ok=False,
                    now=self.clock(),
                )
            challenge = f'Bearer realm="kenning", error="insufficient_scope", scope="{needed_scope(needs)}"'
            return refusal, {"WWW-Authenticate": challenge}
        return None, None


class _Ending:
    """The ``send`` of one response, noting whether the response ended. ``end`` ends one the
    app left open: at server shutdown the SDK's SSE stream (sse-starlette) returns without its
    last chunk, and uvicorn then logs "ASGI callable returned without completing response" at
    ERROR for every client still connected; ended here, the client sees the stream close."""

    def __init__(self, send: Send) -> None:
        self._send, self.started, self.ended = send, False, False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            self.ended = True
        await self._send(message)

    async def end(self) -> None:
        if self.started and not self.ended:
            await self._send({"type": "http.response.body", "body": b"", "more_body": False})


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


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

    def authorise(request: Any, name: str, arguments: dict[str, Any]) -> ScopeDenied | None:
        token = _token(request)
        if token is None or name not in needs:
            return None
        refusal = check_binding(token, needs[name], arguments)  # the scope: the gate's 403
        return None if refusal is None else ScopeDenied(refusal.message, hint=_HINTS[403])

    def authorise_read(request: Any, uri: str) -> ScopeDenied | None:
        """A resource read is refused where memory_get is: a path-bound token (the projects a
        citation may name are the fact resource's own check, ``foreign.cited_store``)."""
        token = _token(request)
        refusal = None if token is None else check_binding(token, READS, {})
        return None if refusal is None else ScopeDenied(refusal.message, hint=_HINTS[403])

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
    """A server of its own for ``kenning mcp --http``: only ``/mcp``."""
    endpoint = mcp_endpoint(project, home=home, tools=tools, clock=clock, host=host, limiter=limiter)
    return Starlette(routes=[endpoint.route], lifespan=endpoint.lifespan)
