"""A real uvicorn server on a free loopback port, and the SDK's streamable HTTP client."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread; yield the /mcp URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(10)


class Refused(Exception):
    """The server answered an MCP request with an HTTP error (status and JSON body kept)."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


def with_session(url: str, secret: str | None, body: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    """Run ``body`` in an initialised SDK client session; an HTTP refusal raises ``Refused``."""
    refusals: list[Refused] = []

    async def record(response: httpx.Response) -> None:
        if response.status_code >= 400:
            await response.aread()
            refusals.append(Refused(response.status_code, response.json()))

    async def main() -> Any:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        async with (
            httpx.AsyncClient(headers=headers, event_hooks={"response": [record]}, timeout=10) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await body(session)

    try:
        return anyio.run(main)
    except BaseException as exc:  # the SDK surfaces an HTTP error as an exception (group)
        if refusals:
            raise refusals[0] from exc
        raise
