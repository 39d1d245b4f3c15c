"""`kenning mcp` over stdio, until its client closes its input or a signal stops it.

The client that started the server usually ends it by closing the server's standard input;
a supervisor, a terminal or the client's own shutdown may instead send SIGTERM, SIGINT or
SIGHUP (the terminal closed, which by default killed the process, exit 129).
Both end the same way: the input is read no further (a signal reads as the end of the input,
the SDK's own path for a client that went away), the SDK ends the session, a call in flight
runs to its end in its worker thread — a memory save either commits whole or never starts;
its reply may be lost —, the store connections are closed, and the process exits 0. Without
this the SDK read standard input in a thread no cancellation reaches: SIGTERM killed the
process (exit 143, the store's write-ahead log left behind) and Ctrl-C waited for the next
input line. A second Ctrl-C during that shutdown stops at once: the session is cancelled (a
call running in a worker thread still ends first: a thread cannot be stopped), the store
connections closed, exit 130 as the HTTP servers' forced stop; another SIGTERM or SIGHUP
changes nothing (before, any second signal killed the process, the stores left open).

Standard input is read with the event loop's readiness wait (``anyio.wait_readable``), which
a signal cancels; a regular file or ``/dev/null`` cannot be waited on that way, but reading
one never blocks, so it is read as the SDK reads it, in a worker thread (as is an input the
event loop refuses to wait on: a terminal under macOS's kqueue, where a signal then waits
for the next line, as before).
"""

from __future__ import annotations

import os
import select
import signal
import stat
import sys
from typing import Any, cast

import anyio
from anyio.abc import TaskStatus
from mcp.server.stdio import stdio_server

from kenning.interfaces.serve import STOPPING_SIGNALS, Stopped

CHUNK = 65536


class Input:
    """Standard input as the SDK's stdio transport reads it (``async for line in stdin``):
    decoded lines, ``\\n`` kept, undecodable bytes replaced; :meth:`stop` ends the lines as the
    end of the input would."""

    def __init__(self, fd: int) -> None:
        self._fd, self._buffer, self._stopped = fd, b"", False
        mode = os.fstat(fd).st_mode
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)
        self._waiting: anyio.CancelScope | None = None

    def stop(self) -> None:
        self._stopped = True
        if self._waiting is not None:
            self._waiting.cancel()

    def __aiter__(self) -> Input:
        return self

    async def __anext__(self) -> str:
        while b"\n" not in self._buffer:
            chunk = await self._read()
            if not chunk:
                line, self._buffer = self._buffer, b""
                if line and not self._stopped:
                    return line.decode("utf-8", errors="replace")
                raise StopAsyncIteration
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace") + "\n"

    async def _read(self) -> bytes:
        """The next bytes of the input; ``b""`` at its end or once stopped."""
        if self._stopped:
            return b""
        if not self._pollable:
            return await anyio.to_thread.run_sync(os.read, self._fd, CHUNK)
        if _ready(self._fd, select.POLLIN):  # a request already waiting: read it now, no wait
            return os.read(self._fd, CHUNK)
        try:
            with anyio.CancelScope() as self._waiting:
                await anyio.wait_readable(self._fd)
        except OSError:  # a selector that cannot wait on it (macOS's kqueue and a terminal)
            self._pollable = False
            return await self._read()
        finally:
            self._waiting = None
        return b"" if self._stopped else os.read(self._fd, CHUNK)


class Output:
    """Standard output as the SDK's stdio transport writes it (``await write(line)``, then
    ``await flush()``): each reply written from the event loop, as much of it at once as the
    pipe takes without blocking (the descriptor non-blocking for that write only: one system
    call for a reply the pipe has room for, where pieces of ``select.PIPE_BUF`` bytes took six
    writes and six polls for a 21 KB answer, each write waking the client), waiting for the
    pipe with the loop's readiness wait only when the client has not read it yet. The SDK
    writes through a file wrapped for threads: a write and a flush, each a round trip to a
    worker thread, about a millisecond a reply on a loaded machine. Output that cannot be
    waited on (a regular file, a terminal) is written as the SDK writes it, in a worker thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        mode = os.fstat(fd).st_mode
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)

    async def write(self, text: str) -> None:
        data = text.encode("utf-8")
        if not self._pollable:
            await anyio.to_thread.run_sync(_write_all, self._fd, data)
            return
        view = memoryview(data)
        while view := view[_write_now(self._fd, view) :]:
            await anyio.wait_writable(self._fd)

    async def flush(self) -> None:
        """Nothing is buffered: each write reached the file descriptor."""


def _ready(fd: int, event: int) -> bool:
    """Whether ``fd`` is ready for ``event`` (``select.POLLIN``, ``POLLOUT``) now, without waiting."""
    poller = select.poll()
    poller.register(fd, event)
    # the end of the stream or an error reads as ready: the read or write then says which;
    # an invalid descriptor for poll (a terminal, on some systems) takes the readiness wait
    return any(found & (event | select.POLLHUP | select.POLLERR) for _, found in poller.poll(0))


def _write_now(fd: int, data: memoryview) -> int:
    """How many bytes of ``data`` the pipe or socket ``fd`` took without blocking (0: none
    now); the descriptor is left as blocking as it was (other writers may share it)."""
    blocking = os.get_blocking(fd)
    if blocking:
        os.set_blocking(fd, False)
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
    finally:
        if blocking:
            os.set_blocking(fd, True)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _output() -> Output | None:
    """The writer of standard output; None (the SDK's own) when the standard streams were
    replaced (a test's captured output has no file descriptor)."""
    try:
        sys.stdout.flush()  # nothing written before stays behind the replies
        return Output(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return None


async def serve(server: Any) -> Stopped | None:
    """Serve ``server`` (a FastMCP) on stdin and stdout until the input ends or SIGINT, SIGTERM
    or SIGHUP arrives; how a signal stopped it (None: the client closed the input)."""
    lines = Input(sys.stdin.fileno())
    received: list[signal.Signals] = []
    forced: list[bool] = []

    async def watch(*, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        with anyio.open_signal_receiver(*STOPPING_SIGNALS) as signals:
            task_status.started()
            async for signum in signals:
                if not received:
                    received.append(signal.Signals(signum))
                    lines.stop()
                elif signum == signal.SIGINT:  # a second Ctrl-C: stop at once
                    forced.append(True)
                    tasks.cancel_scope.cancel()
                    return
                # another SIGTERM or SIGHUP during the shutdown: it goes on

    async with anyio.create_task_group() as tasks:
        await tasks.start(watch)
        # the SDK types its input as a file; it only iterates over its lines
        async with stdio_server(stdin=cast(Any, lines), stdout=cast(Any, _output())) as (read, write):
            lowlevel = server._mcp_server
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
        tasks.cancel_scope.cancel()
    return Stopped(received[0], forced=bool(forced)) if received else None
