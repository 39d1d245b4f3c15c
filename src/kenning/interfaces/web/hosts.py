"""The host names the cockpit (and ``kenning mcp --http``) answers to: a guard against DNS
rebinding (a page of another site whose name is made to resolve to 127.0.0.1 cannot read the
cockpit under that name).

On loopback the cockpit answers to ``127.0.0.1``, ``localhost`` and ``::1`` only; behind
tokens (``--host ADDR``) to any name, since a rebinding page never holds the token. Any other
``Host`` is refused with 400 ``UsageError`` saying which names are served and what to do —
Starlette's ``TrustedHostMiddleware`` answered a bare "Invalid host header" in plain text,
leaving an operator behind a reverse proxy that passes its own name with nothing to go on.
JSON under ``/api/`` and ``/mcp``, the error page elsewhere. ``kenning mcp --http`` on loopback
refuses the same way (JSON everywhere, its own hint), where the MCP SDK answered a plain-text
421 "Invalid Host header" and logged a WARNING; the SDK's own check (Host and Origin) still
runs behind it.
"""

from __future__ import annotations

import json

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

JSON_PREFIXES = ("/api/", "/mcp")
HINT = (
    "open the cockpit at http://127.0.0.1:<port>/ (or localhost); behind a reverse proxy, make it pass "
    "Host: 127.0.0.1 (nginx: proxy_set_header Host 127.0.0.1;), or serve it with --host and a token"
)
MCP_HINT = (
    "connect to http://127.0.0.1:<port>/mcp (or localhost); behind a reverse proxy, make it pass "
    "Host: 127.0.0.1 (nginx: proxy_set_header Host 127.0.0.1;), or serve it with --host"
)


def host_of(header: str | None) -> str:
    """The name in a ``Host`` header, its port left out, lower-cased (``[::1]:8765`` → ``[::1]``)."""
    value = (header or "").strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class KnownHosts:
    """ASGI middleware: a request whose ``Host`` is not one of ``allowed`` (``"*"``: any) is
    refused, naming ``served`` with ``hint``; the error page only where ``pages`` (the
    cockpit's), JSON otherwise."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed: tuple[str, ...],
        served: str = "this cockpit",
        hint: str = HINT,
        pages: bool = True,
    ) -> None:
        self.app, self.allowed = app, tuple(a.lower() for a in allowed)
        self.served, self.hint, self.pages = served, hint, pages

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        host = host_of(Headers(scope=scope).get("host"))
        if host in self.allowed:
            await self.app(scope, receive, send)
            return
        named = f"host {host!r}" if host else "a request without a Host header"
        error = {
            "type": "UsageError",
            "message": f"{self.served} does not answer to {named}: it answers to "
            f"{', '.join(self.allowed)} only (a guard against DNS rebinding)",
            "hint": self.hint,
        }
        if not self.pages or scope.get("path", "").startswith(JSON_PREFIXES):
            body = json.dumps({"error": error}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        from kenning.interfaces.web.cockpit import render  # the templates: the cockpit's only

        request = Request(scope, receive)
        await render(request, "error.html", {"error": error, "status": 400}, status_code=400)(scope, receive, send)
