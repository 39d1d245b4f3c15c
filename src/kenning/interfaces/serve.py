"""What the long-lived servers (``kenning mcp``, ``kenning serve``) share: the listening
socket, the store connections they keep between requests, and a question answered on one of them.

Opening a store costs about a millisecond (pragmas, the schema check) and starts with a cold
page cache; a server answers every request on a connection it already holds. Requests run in
worker threads, so each running request holds its own connection: taken from the free ones
or opened, and handed back after.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from kenning.answer.ask import ask_project
from kenning.errors import IndexMissing, StoreUnavailable, ValidationError
from kenning.project import Project
from kenning.records import Answer
from kenning.store.db import open_store
from kenning.store.handle import Connection, engine_errors, still_open, typed_error
from kenning.store.readonly import release

if TYPE_CHECKING:
    import uvicorn
    from starlette.types import ASGIApp

    from kenning.store.postings import Warm


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` before anything is announced: ``--port 0`` then
    prints the port the system chose, and an address in use (or a host that does not resolve)
    is a ``ValidationError`` instead of a server log line after the banner."""
    bare = host.strip("[]")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ValidationError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", hint=_LISTEN_HINT) from exc
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ValidationError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", hint=_LISTEN_HINT) from exc
    return sock


_LISTEN_HINT = "pick another --port, or stop what listens there; --host must be an address of this machine"


def address_of(sock: socket.socket, host: str) -> str:
    """``http://host:port`` of a bound socket, the port as chosen (``--port 0``)."""
    shown = host.strip("[]")
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{sock.getsockname()[1]}"


def forwarded_from(raw: str | None) -> tuple[str, ...]:
    """The addresses (``10.0.0.5``, ``::1``), networks (``10.0.0.0/8``) or ``*`` of
    ``--forwarded-allow-ips``: the proxies whose ``X-Forwarded-For`` / ``X-Forwarded-Proto``
    headers a server believes. None or blank: none (the default)."""
    hosts = tuple(h.strip() for h in (raw or "").split(",") if h.strip())
    if hosts == ("*",):
        return hosts
    for host in hosts:
        try:
            ipaddress.ip_network(host) if "/" in host else ipaddress.ip_address(host)
        except ValueError:
            raise ValidationError(
                f"--forwarded-allow-ips: {host!r} is not an IP address or network",
                hint="list the reverse proxy's addresses, e.g. 127.0.0.1,::1 or 10.0.0.0/8 ('*' alone: any)",
            ) from None
    return hosts


# SIGHUP (the terminal closed, where the platform has it) stops a server as SIGTERM does:
# by default it killed the process (exit 129) without closing the stores.
STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, *((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()))
# The exit code of a stop forced by a second Ctrl-C (requests in flight cancelled, no answer):
# 128 + SIGINT, the shell's "interrupted", as any kenning command interrupted.
FORCED_EXIT = 130
# How long a stopping server waits for the requests in flight before it cancels them: a
# question ends within its query budget, a memory write waits for a sync's batch (about a
# second); a client that stalls in the middle of its body would otherwise hold the stop forever.
SHUTDOWN_GRACE_SECONDS = 5
# The largest request body either server reads (413 beyond): the cockpit's forms and an MCP
# request (a memory text is at most 20,000 characters) fit in far less.
MAX_BODY = 1_000_000
# How long closing a store waits for the word lists still being warmed in the background: their
# read-only connection, closed after the store's release, would leave the -wal/-shm behind.
WARM_WAIT_SECONDS = 2.0


ASGI_FAILED = "Exception in ASGI application"  # uvicorn's record of a request that raised
LIFESPAN_CANCELLED = "asyncio.exceptions.CancelledError"  # the last line of a cancelled lifespan's traceback


class CancelledAtStop(logging.Filter):
    """False (drop) for uvicorn's "Exception in ASGI application" traceback of a request that
    was cancelled, and for the traceback of a lifespan cancelled (Starlette's, which uvicorn
    logs as the text of a failed shutdown): only a stopping server cancels them — at the end of
    the shutdown grace, where uvicorn's own line "Cancel 1 running task(s), timeout graceful
    shutdown exceeded" says so, or at a second Ctrl-C, which stops at once. Any other record,
    another failure of a lifespan included, goes through."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        text = str(record.msg)
        if text.startswith(ASGI_FAILED):
            return not isinstance(error, asyncio.CancelledError)
        return not (text.startswith("Traceback") and text.rstrip().endswith(LIFESPAN_CANCELLED))


_CANCELLED_AT_STOP = CancelledAtStop()


@dataclass(frozen=True)
class Stopped:
    """How a signal stopped a server: the first stopping signal, and whether a second Ctrl-C
    forced the stop (the requests in flight cancelled at once instead of answered; the store
    connections still closed). Another SIGTERM or SIGHUP during a shutdown changes nothing."""

    signal: signal.Signals
    forced: bool = False


def run(
    app: ASGIApp, sock: socket.socket, *, forwarded: tuple[str, ...] = (), ready: Callable[[], None] | None = None
) -> Stopped | None:
    """Serve ``app`` on ``sock`` (from :func:`listen`) until Ctrl-C, SIGTERM or SIGHUP; how a
    signal stopped it (None when it stopped on its own).

    The client address of a request (the failed-attempt limit counts per address, the audit
    log records it) is the connection's peer, unless the peer is one of ``forwarded`` (from
    :func:`forwarded_from`): then it is what that proxy put in ``X-Forwarded-For``. uvicorn's
    own default trusts that header from 127.0.0.1 (or ``$FORWARDED_ALLOW_IPS``), which let any
    local process pick a fresh address for each bad token; here the trust is explicit.

    On SIGINT or SIGTERM uvicorn stops accepting connections and waits for the requests in
    flight, at most ``SHUTDOWN_GRACE_SECONDS`` (then it cancels them, saying so on stderr),
    before the app's lifespan ends (the cockpit and ``/mcp`` close their store connections
    there). uvicorn's own default waits without end, so one client that stopped sending in the
    middle of its body kept the server from ever stopping on a single signal. Each request so
    cancelled is one line on stderr, not a traceback (:class:`CancelledAtStop`).

    uvicorn shuts down cleanly on SIGINT or SIGTERM, then restores the handlers it found and
    raises the signal again, so that the default action runs: without a handler of ours the
    process would die of SIGTERM (exit 143, a failure to systemd or ``docker stop``) or raise
    ``KeyboardInterrupt`` (exit 130) after a clean stop. The handlers installed here catch
    that second raise and only note it; the caller exits 0. uvicorn does not handle SIGHUP
    (the terminal closed: the process died, exit 129, the stores left open): the handler
    installed here stops the server as SIGTERM does, and so does a SIGINT or SIGTERM that comes
    while uvicorn is still starting (before its own handlers: it was lost, and the server ran on
    until killed). A second Ctrl-C during the shutdown is
    uvicorn's forced stop (:attr:`Stopped.forced`). A failure (the app not starting: uvicorn's
    ``SystemExit(3)``; any exception) still propagates.

    ``ready``: what the caller says once it may be stopped (its banner), called after these
    handlers are in and uvicorn is loaded: a supervisor that signals the server as soon as it
    reads the banner stops it cleanly (before, a signal in the first moments after the banner,
    while uvicorn's modules loaded, killed the process: exit 143)."""
    received: list[signal.Signals] = []
    server: uvicorn.Server | None = None

    def note(signum: int, frame: Any) -> None:
        received.append(signal.Signals(signum))
        if server is not None and not server.should_exit:
            # SIGHUP: a clean stop, as uvicorn's SIGTERM; SIGINT or SIGTERM before uvicorn put its
            # own handlers in (it is still starting): the same, else that signal would be lost
            server.handle_exit(signum, frame)

    in_main = threading.current_thread() is threading.main_thread()  # where signals can be caught
    previous = {sig: signal.signal(sig, note) for sig in STOPPING_SIGNALS} if in_main else {}
    try:
        import uvicorn  # after the handlers: loading it is the longest step before serving

        config = uvicorn.Config(
            app,
            log_level="warning",
            proxy_headers=bool(forwarded),
            forwarded_allow_ips=list(forwarded),
            timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        )
        logging.getLogger("uvicorn.error").addFilter(_CANCELLED_AT_STOP)  # once: addFilter keeps one copy
        server = uvicorn.Server(config)
        if ready is not None:
            ready()
        if received:  # a signal came while the server was being made: it starts, then stops at once
            server.handle_exit(received[0], None)
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return Stopped(received[0], forced=server.force_exit) if received else None


@dataclass
class Connections:
    """The connections to one project's store a server keeps (see the module doc)."""

    project: Project
    warming: Warm | None = field(default=None, repr=False)  # ``lexical.warm_word_lists``'s, awaited at close
    _free: list[tuple[Connection, float]] = field(default_factory=list, repr=False)  # with when handed back
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _closed: bool = field(default=False, repr=False)

    def warm(self) -> None:
        """For a long-lived server: questions ranked from word lists kept in memory, the store's
        common words' lists read in the background (a SQLite store), awaited by :meth:`close`."""
        from kenning.search import lexical

        lexical.keep_word_lists()
        if not self.project.config.store:
            self.warming = lexical.warm_word_lists(self.project.db_path)

    @contextmanager
    def conn(self, *, create: bool = False) -> Iterator[Connection]:
        """A connection for one request, handed back to the free ones after it. A PostgreSQL
        session that no longer answers (the server restarted or went away: ``still_open``, which
        looks at its socket and asks the server only after a long idle) is never handed out or
        kept: the next request opens a new one, or fails with ``StoreUnavailable`` while the
        server is down."""
        with self._lock:
            taken, since = self._free.pop() if self._free else (None, 0.0)
        if taken is not None and not still_open(taken, idle=time.monotonic() - since):
            taken.close()  # the server restarted or dropped the session: a new one below
            taken = None
        if taken is None:
            taken = open_store(self.project, create=create)
        try:
            yield taken
        finally:
            with self._lock:
                kept = not self._closed and still_open(taken)
                if kept:
                    self._free.append((taken, time.monotonic()))
            if not kept:
                taken.close()

    def close(self) -> None:
        """Close the kept connections (the server stops; a request still running keeps its
        own, closed when that request hands it back), then release a SQLite store's
        ``-wal``/``-shm`` files: the server's read-only readers (the word lists warmed in the
        background, ``store/postings.py``) cannot remove them, and when no question opened a
        connection that may write, none of the server's own closes would. A warming pass still
        running is awaited first (at most ``WARM_WAIT_SECONDS``)."""
        with self._lock:
            kept, self._free = self._free, []
            self._closed = True
        for conn, _ in kept:
            conn.close()
        done = self.warming.done if self.warming is not None else None
        if done is not None:
            done.wait(WARM_WAIT_SECONDS)  # a pass still reading: release after its connection closed
        if not self.project.config.store:
            release(self.project.db_path)


def ask_kept(connections: Connections, question: str, *, now: datetime, limit: int = 10) -> Answer:
    """``ask_project`` on one of the server's kept connections: the same answer as a one-shot
    ``kenning ask``, without opening a store per question (a PostgreSQL session costs about
    6 ms on loopback, and round trips across a network). On its own for a store it cannot open
    yet (no index: the answer says so), and for a PostgreSQL store whose server cannot be had
    (an unreachable server falls back to the local store, said in the answer) or whose kept
    session was lost during the question (a read: asked again, on a session of its own)."""
    project = connections.project
    try:
        with connections.conn() as conn:
            return ask_project(project, question, now=now, limit=limit, conn=conn)
    except IndexMissing:
        return ask_project(project, question, now=now, limit=limit)
    except Exception as exc:
        if not project.config.store or not _unavailable(exc):
            raise
        return ask_project(project, question, now=now, limit=limit)


def _unavailable(exc: Exception) -> bool:
    """Whether ``exc`` says the store's server cannot be had (typed, or psycopg's own)."""
    return isinstance(exc, StoreUnavailable) or (
        isinstance(exc, engine_errors()) and isinstance(typed_error(exc), StoreUnavailable)
    )
