"""The store handle callers pass first to every store function, and the engine's errors.

Code outside ``store/`` names these, never ``sqlite3``: a second engine supplies its own
handle and maps its failures onto the same three error classes. ``typed_error`` turns any of
them into kenning's own typed error, in kenning's words: the engine's wording never reaches
a user.
"""

from __future__ import annotations

import sqlite3
import sys

from kenning.errors import (
    InternalError,
    KenningError,
    StoreBusy,
    StoreReadOnly,
    StoreUnavailable,
    StoreUnreadable,
)

Connection = sqlite3.Connection  # an open, migrated project store (``store.db.connect``)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from kenning.store.postgres.connection import PgConnection

    # A handle on either engine: what the store functions serving both engines accept (they
    # dispatch on ``is_pg``). Code given only ``Connection`` holds a SQLite store.
    EngineConnection = Connection | PgConnection

StoreError = sqlite3.Error  # any failure of the engine (SQLite; ``engine_errors`` adds PostgreSQL's)
DatabaseError = sqlite3.DatabaseError  # the store file is damaged, unreadable or not a store

# Fragments of the engine's messages, lower-cased, and what they mean.
_BUSY = ("locked", "busy")
_READ_ONLY = ("readonly", "read-only", "read only")
_FULL = ("full",)
_DAMAGED = ("not a database", "malformed", "corrupt", "no such table", "no such column", "unable to open", "i/o")


def engine_errors() -> tuple[type[Exception], ...]:
    """What a store's failure can be: ``StoreError``, and psycopg's ``Error`` once psycopg is
    loaded (a PostgreSQL handle was opened; it is never imported for this)."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)


def typed_error(exc: BaseException, where: str = "the project store") -> KenningError:
    """The typed error a user is shown for an engine failure ``exc`` of the store named
    ``where`` (a path, or "the project store")."""
    if isinstance(exc, KenningError):
        return exc
    text = str(exc).lower()
    if type(exc).__module__.startswith("psycopg"):
        return _server_error(exc, text, where)
    if isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError):
        return InternalError(f"{where} refused an operation kenning should never make ({type(exc).__name__})")
    if any(f in text for f in _BUSY):
        return StoreBusy(f"{where} is busy: another kenning process holds its lock")
    if any(f in text for f in _READ_ONLY):
        return StoreReadOnly(f"{where} is read-only: kenning cannot write to it")
    if any(f in text for f in _FULL):
        return StoreUnavailable(f"the disk holding {where} is full", hint="free some space, then retry")
    if any(f in text for f in _DAMAGED) or isinstance(exc, sqlite3.DatabaseError | OSError):
        return StoreUnreadable(f"{where} cannot be read: it is damaged, not a kenning store, or out of reach")
    return InternalError(f"{where} failed ({type(exc).__name__})")


def _server_error(exc: BaseException, text: str, where: str) -> KenningError:
    """``typed_error`` for a PostgreSQL failure (psycopg's classes, read by name: psycopg is
    the server extra, imported only with a PostgreSQL store open)."""
    names = {c.__name__ for c in type(exc).__mro__}
    if "ReadOnlySqlTransaction" in names or any(f in text for f in _READ_ONLY):
        return StoreReadOnly(f"{where} is read-only: kenning cannot write to it")
    if "OperationalError" in names and "QueryCanceled" not in names:  # the connection or the server
        return StoreUnavailable(f"{where} is out of reach: the PostgreSQL server stopped answering")
    if names & {"IntegrityError", "InterfaceError"}:
        return InternalError(f"{where} refused an operation kenning should never make ({type(exc).__name__})")
    return StoreUnreadable(f"{where} cannot be read: it is damaged, not a kenning store, or out of reach")


# A kept PostgreSQL session idle longer than this is asked (``SELECT 1``) before it serves
# again: what its socket cannot show (``still_open``). Far above the seconds between an agent's
# calls, so a busy server never pays the round trip.
ASK_AFTER_IDLE_SECONDS = 30.0


def still_open(conn: object, *, idle: float | None = None) -> bool:
    """Whether a handle a long-lived server keeps between requests can serve another one. A
    SQLite handle always can. A PostgreSQL session ends when the server restarts, drops it or
    goes away: psycopg marks it closed or broken once a statement failed on it.

    ``idle`` (the seconds since a kept handle last served, given when it is about to serve
    again): a session the server ended while it sat idle looks open to psycopg until it is used,
    and its first request would fail though the server is up again. A server ending a session
    (a restart, ``pg_terminate_backend``, a crash) writes its last word and closes the socket,
    so a socket with something to read while nothing was asked is a session to check; looking
    costs no round trip (a ``poll``: 1.5 µs, where ``SELECT 1`` took 32 µs on loopback and a
    network round trip elsewhere). Only such a socket, or a session idle for over
    ``ASK_AFTER_IDLE_SECONDS`` (a reset with no word: a server host that rebooted), is asked.
    A session lost without a word between two close requests fails that request
    (``StoreUnavailable``) and comes back broken: the caller drops it, the next one opens anew."""
    raw = getattr(conn, "raw", None)
    if raw is None:
        return True
    if raw.closed or raw.broken:
        return False
    if idle is None or (idle <= ASK_AFTER_IDLE_SECONDS and not _unread(raw.fileno())):
        return True
    try:
        raw.execute("SELECT 1")
    except engine_errors():
        return False
    return True


def _unread(fd: int) -> bool:
    """Whether the socket ``fd`` has something to read (or its end closed) right now."""
    import select  # only a long-lived server's reuse asks: not on a command's start-up path

    if hasattr(select, "poll"):
        waiting = select.poll()
        waiting.register(fd, select.POLLIN)
        return bool(waiting.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # Windows: no poll; a socket is selectable
