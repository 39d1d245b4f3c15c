"""The largest request body the cockpit reads (``serve.MAX_BODY``, as ``/mcp``).

Its forms — a login, a memory gesture (a superseding text is at most 20,000 characters) — fit
in far less. Starlette's form parser bounds each field (1 MB) and the number of fields (1,000),
not the whole body, so without this a request to ``/login``, open to anyone who can reach the
port, made the server read and hold up to a gigabyte. A body over the bound is refused with
413 ``ValidationError`` before it is read when its ``Content-Length`` says so, else as soon as
the bytes read pass the bound (a chunked body). ``/mcp`` bounds its own (``mcp/http.py``).
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kenning.interfaces.serve import MAX_BODY
from kenning.interfaces.web.gate import refuse

OWN_BOUND = ("/mcp",)  # a path (and what is under it) whose app bounds its own body


class _TooLarge(Exception):
    """Raised by the counting ``receive`` (never a ``KenningError``: the app's handlers must
    let it through to :class:`BodyLimit`, which answers 413)."""


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413."""

    def __init__(self, app: ASGIApp, *, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or any(path == p or path.startswith(p + "/") for p in OWN_BOUND):
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isascii() and declared.isdecimal() and int(declared) > self.limit:
            await self.refuse(scope, receive, send)
            return
        read, started = 0, False

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > self.limit:
                raise _TooLarge
            return message

        async def noted(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, noted)
        except _TooLarge:
            if started:  # a handler answered before reading its whole body: nothing left to say
                raise
            await self.refuse(scope, receive, send)

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = refuse(Request(scope, receive), 413, f"request body over {self.limit} bytes")
        await response(scope, receive, send)
