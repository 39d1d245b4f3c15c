"""What every tool module shares: the project, the clock, replies and typed errors.

Model-facing replies are concise text framed as data; the structured content follows the
answer contract. A ``KenningError`` becomes an error result the model can read, with a
``Next:`` line saying what to do (``server.KenningMCP`` converts every failure).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import anyio.to_thread
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from kenning.across.stores import StorePool
from kenning.config import Project, load_project
from kenning.errors import CursorRejected, KenningError, NotFound, UsageError, ValidationError
from kenning.interfaces.render import DATA_FRAME
from kenning.interfaces.serve import Connections
from kenning.refs import check_text
from kenning.store import fts_guard
from kenning.store.handle import Connection

READ = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
DESTRUCTIVE = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)

# The projects the current caller may read (a token's binding over HTTP); None: no limit
# (stdio, where the user started the server). Set per tool call by the server.
ALLOWED_PROJECTS: ContextVar[frozenset[str] | None] = ContextVar("kenning_allowed_projects", default=None)


@dataclass(frozen=True)
class ServerContext:
    project: Project
    clock: Callable[[], datetime]
    cross_project: bool = False  # `kenning mcp --cross-project`: other registered projects may be read
    # the other projects' read-only stores, their configs read by ``config.load_project``
    stores: StorePool = field(default_factory=lambda: StorePool(load_project), compare=False, repr=False)

    # the store connections kept between calls (``interfaces/serve.py``)
    connections: Connections = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "connections", Connections(self.project))

    def conn(self, *, create: bool = False) -> AbstractContextManager[Connection]:
        """A store connection for one tool call. Calls run in worker threads (``off_the_loop``),
        so a long query never blocks another call: each running call holds its own
        connection, taken from the server's kept ones or opened, and handed back after."""
        return self.connections.conn(create=create)

    def close(self) -> None:
        """Close every store connection the server keeps: its project's and the other
        projects' read-only ones."""
        self.connections.close()
        self.stores.close()


def reply(text: str, structured: dict[str, Any] | None = None, *, framed: bool = True) -> CallToolResult:
    """A successful tool result: readable text (framed as data when it carries retrieved
    content) plus optional structured content."""
    body = f"{DATA_FRAME}\n{text}" if framed else text
    return CallToolResult(content=[TextContent(type="text", text=body)], structuredContent=structured)


# The default hints in an MCP client's terms (``KenningError.hint_for``): a tool's inputSchema,
# the memory_index tool, not the command line's --help.
MCP_HINTS: dict[type[KenningError], str] = {
    UsageError: "fix the request (see the tool's inputSchema), then retry",
    ValidationError: "fix the value named in the message (its bounds are in the tool's inputSchema), then retry",
    NotFound: "check the id or name (the memory_index tool lists ids)",
    CursorRejected: 'restart with mem_search(query=..., mode="guided")',
}


def error_reply(exc: KenningError) -> CallToolResult:
    """A typed error result: ``isError``, structured ``{"error": {type, message, hint}}`` (the
    same object the CLI prints with ``--json``, a default hint in MCP's terms: ``MCP_HINTS``)
    and a text whose last line is ``Next: <hint>``."""
    error = exc.to_json(MCP_HINTS)
    return CallToolResult(
        content=[TextContent(type="text", text=f"error ({error['type']}): {error['message']}\nNext: {error['hint']}")],
        structuredContent={"error": error},
        isError=True,
    )


def off_the_loop(func: Callable[..., CallToolResult]) -> Callable[..., Awaitable[CallToolResult]]:
    """A tool body run in a worker thread, so the event loop keeps serving other calls while
    one query runs (bounded by the query time budget); text that is not valid Unicode is
    refused first. ``server.build_server`` wraps every synchronous tool with it."""

    @functools.wraps(func)
    async def wrapper(**kwargs: Any) -> CallToolResult:
        for name, value in kwargs.items():
            for text in value if isinstance(value, list) else (value,):
                if isinstance(text, str):
                    check_text(text, f"`{name}`")
        return await anyio.to_thread.run_sync(functools.partial(_within_budget, func, **kwargs))

    return wrapper


def _within_budget(func: Callable[..., CallToolResult], *args: Any, **kwargs: Any) -> CallToolResult:
    with fts_guard.call_budget():  # every search of one call shares the query time budget
        return func(*args, **kwargs)
