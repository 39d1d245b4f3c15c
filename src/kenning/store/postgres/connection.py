"""Opening a PostgreSQL store: the handle, its migrations, its transactions.

The handle (``PgConnection``) knows its engine and its project: store functions given one
dispatch to ``store/postgres/<module>.py`` (same names, same signatures), and every query
there filters on ``conn.project``. psycopg is imported only when a handle is opened (it is
the ``kenning[server]`` extra); nothing here runs on a SQLite store's path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from kenning.errors import IndexMissing, StoreOutdated, StoreUnavailable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import TypeIs  # typing.TypeIs from Python 3.13

ENGINE = "postgresql"
CONNECT_TIMEOUT_S = 5  # every connection gives up after this: a dead server never hangs a command or CI
STATEMENT_TIMEOUT_MS = 60_000
# psycopg prepares a statement run 5 times on one connection, and the server may then plan it
# once for every parameter (a generic plan): a search's best plan depends on its words (their
# postings' sizes), and a generic one ran past the 1.5 s query budget. Every statement is
# planned for its own parameters (a long-lived connection, the cockpit's or `bench --speed`'s:
# query p95 1512 → 78 ms on kenning's own tree; docs/benchmarks.md).
PLAN_CACHE_MODE = "force_custom_plan"
# The server's JIT compiles a statement whose estimated cost passes `jit_above_cost` (100,000 by
# default): a phrase scored on Django's store (``fts_phrases``, estimated by the planner's default
# 1,000 rows for a set-returning function) ran in 10 ms and waited 67 ms for its compilation.
# kenning's statements are short; none is worth compiling.
JIT = "off"
MIGRATION_LOCK = 0x6B656E6E  # pg_advisory_xact_lock key: migrations run one process at a time
# Fact ids are handed out under this lock (held to the end of the writing transaction): a sync
# numbers its new facts itself (``next_id``, then ``insert_rows``), so two projects' writers
# must not interleave their numbering. Readers never take it.
ID_LOCK = 0x6B656E6F
SYNC_LOCKS = 0x6B656E70  # first key of the per-project sync lock (the second: hashtext(project))


class PgConnection:
    """An open, migrated PostgreSQL store seen as one project's store."""

    engine = ENGINE

    def __init__(self, raw: Any, project: str) -> None:
        self.raw = raw
        self.project = project
        self.changes = 0  # rows inserted, updated or deleted through this handle (SQLite: total_changes)
        self.hnsw_indexes: frozenset[str] | None = None  # asked once (``hnsw.hnsw_indexes``)

    def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
        cursor = self.raw.execute(sql, params or None)
        if cursor.rowcount > 0 and not sql.startswith("SELECT"):
            self.changes += cursor.rowcount
        return cursor

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            with self.raw.cursor() as cur:
                cur.executemany(sql, rows)
            self.changes += len(rows)

    def copy(self, table: str, columns: str, rows: list[tuple[Any, ...]] | list[list[Any]]) -> None:
        """Bulk insert through ``COPY … FROM STDIN`` (a sync's new facts and locations)."""
        if rows:
            with self.raw.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            self.changes += len(rows)

    def rows(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[dict[str, Any]]:
        from psycopg.rows import dict_row  # the extra: only with a PostgreSQL store open

        with self.raw.cursor(row_factory=dict_row) as cur:
            return cur.execute(sql, params).fetchall()

    def close(self) -> None:
        self.raw.close()


def is_pg(conn: object) -> TypeIs[PgConnection]:
    """Whether ``conn`` is a PostgreSQL handle (else a SQLite one, for the type checker too)."""
    return getattr(conn, "engine", None) == ENGINE


def connect(
    url: str, project: str, *, migrate_schema: bool = True, read_only: bool = False, check_schema: bool = True
) -> PgConnection:
    """Open the store at ``url`` as ``project``'s; ``StoreUnavailable`` when psycopg is missing
    or the server cannot be reached within ``CONNECT_TIMEOUT_S``. ``read_only`` (another
    project's store, read by a cross-project question; never migrated): every transaction of
    the session is read-only, so the server refuses any write (SQLite: ``mode=ro``).
    ``check_schema`` False (``kenning status``, which reports ``schema_problem`` itself): the
    session as it is, neither migrated nor checked."""
    try:
        import psycopg  # the kenning[server] extra
    except ImportError as exc:
        raise StoreUnavailable(
            "a PostgreSQL store needs the server extra", hint="pip install 'kenning[server]'"
        ) from exc
    try:
        raw = psycopg.connect(
            url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT_S,
            options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c plan_cache_mode={PLAN_CACHE_MODE} -c jit={JIT}"
            + (" -c default_transaction_read_only=on" if read_only else ""),
        )
    except psycopg.Error as exc:
        raise _not_connected(str(exc)) from exc
    conn = PgConnection(raw, project)
    try:
        if migrate_schema and not read_only:
            migrate(conn)
        elif check_schema:
            check_current(conn)
    except BaseException:
        raw.close()
        raise
    return conn


# What the server says when it answered but refused the session: the URL's credentials or
# names are wrong, not the server down (the server's words are English whatever its locale for
# these: lc_messages applies after authentication).
_REFUSALS = ("password authentication failed", "no password supplied", "does not exist", "no pg_hba.conf entry")


def _not_connected(text: str) -> StoreUnavailable:
    """The typed error of a session that could not be opened: a server that answered and
    refused (wrong password, unknown role or database, not allowed from this host) says so,
    with what to check; anything else is a server out of reach."""
    line = text.strip().splitlines()[0] if text.strip() else "connection failed"
    if any(refusal in line for refusal in _REFUSALS):
        return StoreUnavailable(
            f"PostgreSQL refused the connection: {line}",
            hint="check the user, password and database name in KENNING_DATABASE_URL or `store` (a password may "
            "also come from ~/.pgpass or PGPASSWORD), and that the role may connect from this host (pg_hba.conf)",
        )
    return StoreUnavailable(f"PostgreSQL unreachable: {line}", hint="check the store URL and that the server is up")


_MIGRATIONS = Path(__file__).parent / "migrations"


def migrations() -> list[tuple[int, str, str]]:
    """``(number, name, sql)`` of this engine's migrations, in order."""
    found = []
    for entry in _MIGRATIONS.iterdir():
        if entry.name.endswith(".sql"):
            number, _, name = entry.name.removesuffix(".sql").partition("_")
            found.append((int(number), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


@cache
def known_versions() -> frozenset[int]:
    """The migration numbers this kenning knows, from the files' names alone: what a reader's
    check (every session a command opens) compares the database with, without reading the SQL."""
    return frozenset(int(e.name.partition("_")[0]) for e in _MIGRATIONS.iterdir() if e.name.endswith(".sql"))


def migrate(conn: PgConnection) -> None:
    """Apply the missing migrations, one transaction, serialised by an advisory lock."""
    with conn.raw.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("SET LOCAL statement_timeout = 0")  # an index over millions of rows takes minutes
        conn.execute("CREATE TABLE IF NOT EXISTS kenning_migrations (version integer PRIMARY KEY, name text NOT NULL)")
        done = {r[0] for r in conn.execute("SELECT version FROM kenning_migrations").fetchall()}
        unknown = _unknown(done)
        if unknown is not None:
            raise unknown  # an older kenning writing to a newer schema: nothing written
        for number, name, sql in migrations():
            if number not in done:
                conn.execute(sql)
                conn.execute("INSERT INTO kenning_migrations (version, name) VALUES (%s, %s)", (number, name))


def check_current(conn: PgConnection) -> None:
    """A reader's check (it never migrates): ``IndexMissing`` on an unmade schema,
    ``StoreOutdated`` on an older one."""
    problem = schema_problem(conn)
    if problem is not None:
        raise problem


def schema_problem(conn: PgConnection) -> IndexMissing | StoreOutdated | None:
    """Why a reader cannot read this database, if it cannot: no kenning schema in it yet, or
    an older one (the next ``kenning sync`` migrates either)."""
    made = conn.execute("SELECT to_regclass('kenning_migrations') IS NOT NULL").fetchone()[0]
    if not made:
        return IndexMissing("no kenning store in this PostgreSQL database", hint="run `kenning sync`")
    done = {r[0] for r in conn.execute("SELECT version FROM kenning_migrations").fetchall()}
    unknown = _unknown(done)
    if unknown is not None:
        return unknown
    current, latest = max(done, default=0), max(known_versions())
    if current < latest:
        return StoreOutdated(
            f"the PostgreSQL store is at schema {current}, this kenning needs {latest}",
            hint="run `kenning sync` (it migrates)",
        )
    return None


def _unknown(done: set[int]) -> StoreOutdated | None:
    """A database migrated by a newer kenning (versions this one does not know), as SQLite's
    runner refuses it (``migrations_runner._refuse_unknown``): one machine of the team upgraded."""
    unknown = sorted(done - known_versions())
    if not unknown:
        return None
    return StoreOutdated(
        f"the PostgreSQL store has schema versions {unknown} that this kenning does not know "
        "(a newer kenning migrated it)",
        hint="upgrade kenning on this machine",
    )


def fact_count(conn: PgConnection) -> int:
    """How many facts the handle's project has (any lifecycle)."""
    return int(conn.execute("SELECT count(*) FROM facts WHERE project = %s", (conn.project,)).fetchone()[0])


def schema_version(conn: PgConnection) -> int:
    return int(conn.execute("SELECT coalesce(max(version), 0) FROM kenning_migrations").fetchone()[0])


@contextmanager
def transaction(conn: PgConnection) -> Iterator[PgConnection]:
    with conn.raw.transaction():
        yield conn


@contextmanager
def sync_lock(conn: PgConnection) -> Iterator[None]:
    """One sync at a time per project, whichever machine runs it (a session advisory lock:
    it spans the sync's several transactions); syncs of other projects do not wait."""
    conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (SYNC_LOCKS, conn.project))
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (SYNC_LOCKS, conn.project))


def has_index(conn: PgConnection) -> bool:
    """Whether a sync or a save ever wrote to this project (SQLite: the file exists)."""
    return conn.execute("SELECT 1 FROM store_version WHERE project = %s", (conn.project,)).fetchone() is not None


# The tables a search and the graph read, analysed after a sync that wrote many rows. Until
# autovacuum's own ANALYZE comes round, the planner sized a new project's rows from the statistics
# of the projects before it: on a Django store synced a moment before, a phrase nested a loop
# over 15,717 facts and ran past a 15 s timeout (177 ms once analysed), and `form AND "cleaned
# data"` took 661 ms for 10 (docs/benchmarks.md, forty-second session of issue 19).
ANALYZED = ("facts", "word_postings", "word_stats", "locations", "graph_nodes", "graph_refs", "graph_edges")


def refresh_statistics(conn: PgConnection) -> None:
    """``ANALYZE`` the tables searches read (a sample of each: a fraction of a second whatever
    their size). A role that does not own them gets the server's warning, not an error."""
    conn.execute(f"ANALYZE {', '.join(ANALYZED)}")
