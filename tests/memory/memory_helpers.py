"""Shared by the memory tests: a project with saved observations and an in-memory MCP client."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from kenning.interfaces.mcp.server import build_server


class Clock:
    """A settable clock for build_server(clock=...)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now = self.now + timedelta(**delta)


def session_run(server: Any, body: Callable[[Any], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await body(client)

    return anyio.run(main)


def call(server: Any, name: str, **arguments: Any) -> Any:
    """One tool call through a real client session; returns the CallToolResult."""
    return session_run(server, lambda client: client.call_tool(name, arguments))


def text(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def make_server(project: Any, clock: Clock) -> Any:
    return build_server(project, clock=clock)


def save_direct(project: Any, clock: Clock, body: str, **fields: Any) -> int:
    """Save an observation through the core (faster than a tool call, for test set-up)."""
    from kenning.memory.observations import Observation, save
    from kenning.store.db import connect

    conn = connect(project.db_path, create=True)
    try:
        return save(conn, project.name, Observation(text=body, **fields), now=clock()).fact_id
    finally:
        conn.close()
