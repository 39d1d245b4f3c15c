"""The gate in front of ``/mcp``'s transport (``http.py`` assembles the app): the bearer token
checked (401), its binding to the served project (403), the failed-attempt limit (429), the
body bounded (413) and the scope each tools/call or resource read needs (403 with RFC 6750's
``insufficient_scope``), each refusal JSON ``{"error": {"type", "message", "hint"}}``. The body
it read is replayed to the transport; the admitted token goes in the request's scope.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kenning.auth.policy import FailureLimiter, Refusal, ToolNeeds, audit, check_project, check_scope, needed_scope
from kenning.auth.tokens import TokenRecord, verify
from kenning.errors import Unauthorized
from kenning.interfaces.serve import MAX_BODY

# A resource read (``kn://<project>/<id>``, ``kn://<project>/core``): what memory_get or core_pack
# read, so it needs memory:read and a path-bound token may not make it (no path_filter limits it).
READS = ToolNeeds("resources/read", writes=False, takes_path_filter=False, path_free_ok=False)
HINTS = {
    401: "send Authorization: Bearer <secret from `kenning token create`>",
    403: "ask for a token with the needed scope and binding (`kenning token create`), or stay within it",
    413: "send a smaller request",
    429: "wait, then retry with a valid token",
}
TYPES = {401: "Unauthorized", 403: "ScopeDenied", 413: "ValidationError", 429: "TooManyAttempts"}


async def _refuse(send: Send, status: int, message: str, headers: dict[str, str] | None = None) -> None:
    body = json.dumps({"error": {"type": TYPES[status], "message": message, "hint": HINTS[status]}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def calls(body: bytes) -> list[tuple[str, dict[str, Any]]]:
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
            receive = replay(body)
        if refusal is not None:
            await _refuse(send, refusal.status, refusal.message, headers)
            return
        scope["kenning.token"] = token
        scope["kenning.projects"] = frozenset(token.projects)
        response = Ending(send)
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
        for name, arguments in calls(body):
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


class Ending:
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


def replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive
