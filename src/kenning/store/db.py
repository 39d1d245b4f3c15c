"""Opening a project database: pragmas, migrations, transactions."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from kenning.errors import IndexMissing, StoreBusy, StoreUnavailable
from kenning.files import SharedLock, lock_in_use
from kenning.project import Project
from kenning.store import bodies, fold
from kenning.store.handle import Connection, DatabaseError, StoreError
from kenning.store.migrations_runner import check_current, migrate
from kenning.store.postgres import connection as pg
from kenning.store.readonly import open_readonly

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
    "scratch_name",
    "sync_lock",
    "transaction",
    "waiting_writer_check",
    "yield_to_waiting_writers",
]

BATCH = 500  # values bound in one `IN (…)`: SQLite allows 999 variables per statement
# How long a writer waits for another one before ``StoreBusy``. A sync holds the write lock
# for one batch at a time (``sync.batches``: about a second) and lets waiting writers in between
# two; a memory save or a hook made meanwhile waits instead of failing. Readers never wait (WAL),
# but during a project's first sync (``connect``'s ``wal``), for a batch's commit.
BUSY_TIMEOUT_MS = 60_000
WAL_SWITCH_WAIT_MS = 2_000  # ``use_wal``: how long a switch to WAL waits for the file to be idle
PAGE_SIZE = 8192
# A batched writer (the sync) lets the writers waiting for the lock in between two batches:
# each gets it within SQLite's longest busy-handler sleep (100 ms); this bounds the pause.
YIELD_AT_MOST_SECONDS = 1.0


def connect(
    path: Path, *, create: bool = False, migrate_schema: bool | None = None, wal: bool = True
) -> sqlite3.Connection:
    """Open (and, if ``create``, create) a project database.

    Without ``create`` a missing database raises ``IndexMissing``: reading never creates a
    store behind the user's back. Only writers that create (``create=True``: sync, memory
    saves, hooks) migrate the schema (``migrate_schema`` defaults to ``create``); any other
    opener only checks it is current (``StoreOutdated`` / ``IndexMissing`` otherwise), so a
    reader never races a first sync's migrations.

    ``wal=False``: a database created here keeps SQLite's rollback journal, for a first sync that
    fills it (``sync.run``): a page the sync writes goes to the file once, where WAL writes it to
    the log and again at every checkpoint (``bench/sync_floor.py``'s Django store: 119 MB twice).
    Readers meanwhile wait for each batch's commit instead of reading beside it, and see the same
    committed state. ``use_wal`` switches when the sync is done; any later ``create`` opener
    switches a store left so (a first sync stopped before that).
    """
    if not create and not path.exists():
        raise IndexMissing(f"no index at {path}", hint="run `kenning sync`")
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    bodies.register(conn)  # the SQL side of packed bodies (migration 0019)
    fold.register(conn)  # kenning_lower(): case folding beyond ASCII, as PostgreSQL's lower()
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        # 8 KiB pages for a new database (SQLite's default is 4 KiB): excerpts of 1-4 KB left a
        # fifth of each 4 KiB page of `facts` empty; on Django 5.0.6 the store is 4 % smaller
        # (docs/benchmarks.md). Only an empty database takes it; an existing one keeps its size.
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    if create and wal and conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        use_wal(conn)
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
        bodies.add_word_triggers(conn)  # the schema is current: the word index exists
    except BaseException:
        conn.close()
        raise
    return conn


def use_wal(conn: sqlite3.Connection) -> bool:
    """Switch a SQLite store to WAL (readers beside the writer: ``connect(wal=False)`` left it
    on the rollback journal); whether it is in WAL mode now. Switching needs every other
    connection to the file idle, for which it waits ``WAL_SWITCH_WAIT_MS``: a first sync's batch
    in progress (another writer's ``connect`` then) or a reader that keeps the file busy leaves
    the rollback journal, which the next ``create`` opener switches (nothing is lost either way).
    PostgreSQL: nothing to do."""
    if pg.is_pg(conn):
        return True
    waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {WAL_SWITCH_WAIT_MS}")
    try:
        return conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() == "wal"
    except sqlite3.OperationalError as exc:
        if _busy(exc):
            return False
        raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waited}")


def open_store(
    project: Project, *, create: bool = False, read_only: bool = False, wal: bool = True
) -> sqlite3.Connection:
    """The project's store: the PostgreSQL one when ``project.config.store`` names a server
    (level 2; unreachable → ``StoreUnavailable``), else the SQLite file (``connect``). A reader
    of a PostgreSQL project nothing was ever written to gets ``IndexMissing``, as with no file.
    ``read_only`` (another project's store, for a cross-project question): a connection that
    cannot write (SQLite ``mode=ro``: ``readonly.open_readonly``; PostgreSQL: read-only
    transactions), never migrating. ``wal``: ``connect``'s (SQLite; a new store's journal)."""
    if not project.config.store:
        return open_readonly(project.db_path) if read_only else connect(project.db_path, create=create, wal=wal)
    conn = pg.connect(project.config.store, project.name, migrate_schema=create, read_only=read_only)
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


@contextmanager
def sync_lock(conn: sqlite3.Connection) -> Iterator[None]:
    """PostgreSQL: the project's advisory sync lock (one sync per project, from any machine);
    SQLite needs none beyond the sync's lock file."""
    if pg.is_pg(conn):
        with pg.sync_lock(conn):
            yield
    else:
        yield


@contextmanager
def scratch_name(project: Project) -> Iterator[str]:
    """The name to sync a throwaway copy of ``project`` under (`kenning bench --speed`): its
    own on SQLite, where the copy has a file of its own; on PostgreSQL a throwaway project on
    the same server, whose rows are deleted on exit (Ctrl-C included), never the project's."""
    if not project.config.store:
        yield project.name
        return
    from kenning.store.postgres import scratch  # uuid and platform: only for a throwaway project

    with scratch.throwaway(project.config.store) as name:
        yield name


@contextmanager
def transaction(conn: C) -> Iterator[C]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception (Ctrl-C included)."""
    if pg.is_pg(conn):
        with pg.transaction(conn):
            yield conn
        return
    _begin_immediate(conn)
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _begin_immediate(conn: sqlite3.Connection) -> None:
    """Take the write lock. When another writer holds it, wait for it (the connection's busy
    timeout) flagged as waiting: a long writer that commits in batches (the sync) sees the flag
    and lets this one in at its next commit instead of taking the lock again."""
    timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("BEGIN IMMEDIATE")  # free: no flag, no wait (the common case)
        return
    except sqlite3.OperationalError as exc:
        if not _busy(exc):
            raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {timeout}")
    try:
        with _waiting(conn):
            conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _busy(exc):
            raise StoreBusy(
                "the project store is busy: another kenning process is writing to it",
                hint=f"waited {timeout // 1000} s; retry when it finishes (a sync holds the store while it writes)",
            ) from exc
        raise


@contextmanager
def _waiting(conn: sqlite3.Connection) -> Iterator[None]:
    """A shared ``flock`` on ``<database>-wait`` while this writer waits for the lock."""
    path = _wait_path(conn)
    try:
        if not path:
            raise OSError("an in-memory or temporary database: no file to flag beside")
        flag = SharedLock(path).__enter__()
    except OSError:  # no file, or a folder this process cannot create one in: wait unflagged
        yield
        return
    try:
        yield
    finally:
        flag.__exit__()


def waiting_writer_check(conn: sqlite3.Connection) -> Callable[[], bool]:
    """Whether another process waits for the write lock right now (it flags itself while it
    waits: ``_waiting``), as a check cheap enough to make between two writes of one
    transaction (one ``flock`` probe); always false on PostgreSQL and without a database file."""
    path = "" if pg.is_pg(conn) else _wait_path(conn)
    if not path:
        return _nobody
    return lambda: lock_in_use(path)


def _nobody() -> bool:
    return False


def yield_to_waiting_writers(conn: sqlite3.Connection, *, at_most: float = YIELD_AT_MOST_SECONDS) -> float:
    """Between two write transactions of a long writer: while another process waits for the
    write lock (``_begin_immediate``), pause so that it takes the lock first, ``at_most``
    seconds. Returns the seconds paused (0.0 when nobody waited: no cost)."""
    path = "" if pg.is_pg(conn) else _wait_path(conn)
    if not path:
        return 0.0
    started = time.monotonic()
    while lock_in_use(path) and time.monotonic() - started < at_most:
        time.sleep(0.005)
    return time.monotonic() - started


def _wait_path(conn: sqlite3.Connection) -> str:
    """``<database>-wait`` beside the database file; "" for a database with no file."""
    main = store_file(conn)
    return f"{main}-wait" if main else ""


# Rows a sync writes (excerpts added, replaced or retired) before the store's statistics are
# refreshed for the planner (PostgreSQL; SQLite's plans need none).
STATISTICS_FROM = 1000


def after_sync(conn: Connection, written: int) -> None:
    """After a sync that wrote ``written`` excerpts: the planner's statistics refreshed when that
    is many (``pg.refresh_statistics``)."""
    if pg.is_pg(conn) and written >= STATISTICS_FROM:
        pg.refresh_statistics(conn)


def store_file(conn: Connection) -> str:
    """The file of the SQLite store ``conn`` opened; "" for one with no file, and for PostgreSQL."""
    if pg.is_pg(conn):
        return ""
    return next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")


def _busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def in_batches(items: Sequence[T], size: int = BATCH) -> Iterator[list[T]]:
    """``items`` in lists of at most ``size``, to bind into ``IN (…)`` one statement at a time."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])
