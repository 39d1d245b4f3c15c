"""Standard input and output for ``kenning mcp`` read and written by the event loop itself.

The SDK's stdio transport (``mcp.server.stdio.stdio_server``) reads each line and writes and
flushes each reply in a worker thread (``anyio.wrap_file``): three thread hops per call, each
a wake-up of another thread and of the loop (0.1-1 ms on a loaded machine). When both
streams are pipes or sockets (an MCP client starts the server so), ``native_stdio`` hands
the SDK's transport two small adapters over asyncio's own pipe transports instead: the same
messages, parsed and written by the same SDK code, without a thread. Anything else (a
terminal, a file, another event loop, Windows) keeps the SDK's files.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.stdio import stdio_server

CHUNK = 1 << 16  # bytes read at once; a line may span any number of chunks


class PipeLines:
    """``async for line in PipeLines(reader)``: the lines of a byte stream as text, each with
    its ``\\n`` (the last one without, if the stream ends mid-line), decoded as the SDK does
    (UTF-8, undecodable bytes replaced). No length limit: a line is joined from its chunks."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self._lines: list[bytes] = []
        self._rest = b""

    def __aiter__(self) -> PipeLines:
        return self

    async def __anext__(self) -> str:
        while not self._lines:
            chunk = await self._reader.read(CHUNK)
            if not chunk:
                if not self._rest:
                    raise StopAsyncIteration
                self._lines, self._rest = [self._rest], b""
                break
            *whole, self._rest = (self._rest + chunk).split(b"\n")
            self._lines = [line + b"\n" for line in reversed(whole)]
        return self._lines.pop().decode("utf-8", errors="replace")


class PipeText:
    """What the SDK's writer calls on its output (``write`` a line, then ``flush``), over an
    asyncio stream writer: ``flush`` waits only while the pipe is full (the client not reading)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def native_possible(stdin_fd: int = 0, stdout_fd: int = 1) -> bool:
    """True when both ends are pipes or sockets, on a POSIX asyncio loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another event loop (trio)
        return False
    return sys.platform != "win32" and _is_pipe(stdin_fd) and _is_pipe(stdout_fd)


@contextlib.asynccontextmanager
async def native_stdio(stdin_fd: int = 0, stdout_fd: int = 1) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's ``stdio_server`` streams (read, write), over the event loop's pipe transports
    when ``native_possible``, else over the SDK's own thread-backed files. The pipes are
    duplicates of ``stdin_fd`` and ``stdout_fd`` (closing them leaves the process's own
    descriptors open), made blocking again when the server stops."""
    if not native_possible(stdin_fd, stdout_fd):
        async with stdio_server() as streams:
            yield streams
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=CHUNK)
    read_pipe = os.fdopen(os.dup(stdin_fd), "rb", buffering=0)
    write_pipe = os.fdopen(os.dup(stdout_fd), "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), read_pipe)
    write_transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, write_pipe)
    writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
    try:
        async with stdio_server(PipeLines(reader), PipeText(writer)) as streams:  # type: ignore[arg-type]
            yield streams
    finally:
        read_transport.close()
        if not write_transport.is_closing():
            await writer.drain()
            write_transport.close()
        for fd in (stdin_fd, stdout_fd):
            with contextlib.suppress(OSError):  # the duplicates shared the descriptions' O_NONBLOCK
                os.set_blocking(fd, True)
