"""What every tool module shares: the project, the clock, replies and typed errors.

Model-facing replies are concise text framed as data; the structured content follows the
answer contract. A ``KenningError`` becomes an error result the model can read, with a
``Next:`` line saying what to do.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mcp.types import CallToolResult, TextContent

from kenning.config import Project
from kenning.errors import KenningError
from kenning.interfaces.render import DATA_FRAME
from kenning.store.db import connect


@dataclass(frozen=True)
class ServerContext:
    project: Project
    clock: Callable[[], datetime]

    _open: dict[str, sqlite3.Connection] = field(default_factory=dict, compare=False, repr=False)

    @contextmanager
    def conn(self, *, create: bool = False) -> Iterator[sqlite3.Connection]:
        """The server's connection, opened (and migrated) once, on first use. Tool calls run
        one at a time on the event loop, so one connection serves them all."""
        if "store" not in self._open:
            self._open["store"] = connect(self.project.db_path, create=create)
        yield self._open["store"]


def reply(text: str, structured: dict[str, Any] | None = None, *, framed: bool = True) -> CallToolResult:
    """A successful tool result: readable text (framed as data when it carries retrieved
    content) plus optional structured content."""
    body = f"{DATA_FRAME}\n{text}" if framed else text
    return CallToolResult(content=[TextContent(type="text", text=body)], structuredContent=structured)


def error_reply(exc: KenningError, next_step: str | None = None) -> CallToolResult:
    kind = type(exc).__name__
    lines = [f"error ({kind}): {exc.message}"]
    hint = next_step or exc.hint
    if hint:
        lines.append(f"Next: {hint}")
    return CallToolResult(
        content=[TextContent(type="text", text="\n".join(lines))],
        structuredContent={"error": {"type": kind, "message": exc.message, "next": hint}},
        isError=True,
    )


def guarded(func: Callable[..., CallToolResult]) -> Callable[..., CallToolResult]:
    """Turn typed errors raised by a tool body into error results (others propagate)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return func(*args, **kwargs)
        except KenningError as exc:
            return error_reply(exc)

    return wrapper
