"""Opening a project database: pragmas, migrations, transactions."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from kenning.errors import IndexMissing, StoreBusy, StoreUnavailable
from kenning.project import Project
from kenning.store.handle import Connection, DatabaseError, StoreError
from kenning.store.migrations_runner import check_current, migrate
from kenning.store.postgres import MISSING
from kenning.store.postgres import connection as pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import TypeVar

    from kenning.store.postgres.connection import PgConnection

    T = TypeVar("T")
    C = TypeVar("C", sqlite3.Connection, PgConnection)  # the engine's handle, given and yielded

# The connection handle every store function takes first, and the engine's errors, are named
# once in ``store/handle.py``; they are re-exported here for callers that open stores.
__all__ = [
    "BATCH",
    "SERVER_LEVEL",
    "BUSY_TIMEOUT_MS",
    "Connection",
    "DatabaseError",
    "StoreError",
    "connect",
    "in_batches",
    "open_for_reading",
    "open_store",
    "server_only_missing",
    "serves",
    "sync_lock",
    "write_batches",
    "transaction",
]

BATCH = 500  # values bound in one `IN (…)`: SQLite allows 999 variables per statement
# How long a writer waits for another one before ``StoreBusy``. A cold sync holds the write
# lock while it writes (about 7 s for a 20 MB project on the 2-core machine, parsing excluded):
# a memory save or a hook made meanwhile waits for it instead of failing. Readers never wait
# (WAL).
BUSY_TIMEOUT_MS = 60_000
PAGE_SIZE = 8192


def connect(path: Path, *, create: bool = False, migrate_schema: bool | None = None) -> sqlite3.Connection:
    """Open (and, if ``create``, create) a project database.

    Without ``create`` a missing database raises ``IndexMissing``: reading never creates a
    store behind the user's back. Only writers that create (``create=True``: sync, memory
    saves, hooks) migrate the schema (``migrate_schema`` defaults to ``create``); any other
    opener only checks it is current (``StoreOutdated`` / ``IndexMissing`` otherwise), so a
    reader never races a first sync's migrations.
    """
    if not create and not path.exists():
        raise IndexMissing(f"no index at {path}", hint="run `kenning sync`")
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        # 8 KiB pages for a new database (SQLite's default is 4 KiB): excerpts of 1-4 KB left a
        # fifth of each 4 KiB page of `facts` empty; on Django 5.0.6 the store is 4 % smaller
        # (docs/benchmarks.md). Only an empty database takes it; an existing one keeps its size.
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    if create and conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    # 16 MiB of page cache (SQLite's default is 2 MiB): a sync inserts into hash-keyed
    # indexes at random places, and a small cache turns that into disk reads. 64 MiB was no
    # faster and cost 50 MB of peak memory (Django 5.0.6: 354 -> 303 MB; Node+npm docs x10:
    # 250 -> 200 MB; interleaved runs in docs/benchmarks.md).
    conn.execute("PRAGMA cache_size = -16384")
    try:
        if create if migrate_schema is None else migrate_schema:
            migrate(conn)
        else:
            check_current(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def open_store(project: Project, *, create: bool = False) -> sqlite3.Connection:
    """The project's store: the PostgreSQL one when ``project.config.store`` names a server
    (level 2; unreachable → ``StoreUnavailable``), else the SQLite file (``connect``). A reader
    of a PostgreSQL project nothing was ever written to gets ``IndexMissing``, as with no file."""
    if not project.config.store:
        return connect(project.db_path, create=create)
    conn = pg.connect(project.config.store, project.name, migrate_schema=create)
    if not create and not pg.has_index(conn):
        conn.close()
        raise IndexMissing(f"no index for {project.name} in the PostgreSQL store", hint="run `kenning sync`")
    return conn  # type: ignore[return-value]  # the engine's handle: store functions dispatch on it


def open_for_reading(project: Project) -> tuple[sqlite3.Connection, str | None]:
    """``open_store`` for an answer, and the degradation to list with it: a PostgreSQL store
    that cannot be reached falls back to the local level-0 store when one exists (said in the
    answer); without one, ``StoreUnavailable`` stands."""
    try:
        return open_store(project), None
    except StoreUnavailable as exc:
        if not project.config.store or not project.db_path.exists():
            raise
        reason = f"{exc.message}: answered from the local level-0 store"
        return connect(project.db_path), reason


SERVER_LEVEL = 2  # what an answer served by the PostgreSQL store says it is (levels: SPEC §2)
FILE_BATCH = 200  # PostgreSQL: files a sync writes per transaction


def write_batches(conn: sqlite3.Connection, items: list[T]) -> list[list[T]]:
    """How a sync groups its files into transactions: SQLite, one (a crash leaves the previous
    state); PostgreSQL, one per ``FILE_BATCH`` files (a shared server holds no long transaction)."""
    if pg.is_pg(conn):
        return [items[i : i + FILE_BATCH] for i in range(0, len(items), FILE_BATCH)] or [[]]
    return [items]


@contextmanager
def sync_lock(conn: sqlite3.Connection) -> Iterator[None]:
    """PostgreSQL: the project's advisory sync lock (one sync per project, from any machine);
    SQLite needs none beyond the sync's lock file."""
    if pg.is_pg(conn):
        with pg.sync_lock(conn):
            yield
    else:
        yield


def serves(conn: sqlite3.Connection, section: str) -> bool:
    """Whether the handle's engine implements ``section`` (a name of ``store.postgres.MISSING``)."""
    return not pg.is_pg(conn) or section not in MISSING


def server_only_missing(project: Project, what: str) -> None:
    """``StoreUnavailable`` when ``project`` is served by PostgreSQL and ``what`` (a section of
    ``store.postgres.MISSING``) is not implemented there: never answered from SQLite instead."""
    if project.config.store:
        raise StoreUnavailable(
            f"{what} is not implemented on the PostgreSQL store yet",
            hint="unset KENNING_DATABASE_URL (and `store` in .kenning/config.toml) to use the local SQLite store",
        )


@contextmanager
def transaction(conn: C) -> Iterator[C]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception (Ctrl-C included)."""
    if pg.is_pg(conn):
        with pg.transaction(conn):
            yield conn
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(
                "the project store is busy: another kenning process is writing to it",
                hint=f"waited {BUSY_TIMEOUT_MS // 1000} s; "
                "retry when it finishes (a sync holds the store while it writes)",
            ) from exc
        raise
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def in_batches(items: Sequence[T], size: int = BATCH) -> Iterator[list[T]]:
    """``items`` in lists of at most ``size``, to bind into ``IN (…)`` one statement at a time."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])
