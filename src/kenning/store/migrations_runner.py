"""Apply the numbered ``migrations/NNNN_name.sql`` files in order, in one transaction taken
under the write lock; readers only check the version (``check_current``)."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kenning.errors import IndexMissing, StoreBusy, StoreOutdated
from kenning.store import bodies, schema_checks

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_COMMENT_ONLY = re.compile(r"--[^\n]*")


MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# What a migration cannot say in SQL that any SQLite runs, done right after its file in the same
# transaction: 0019 packs the bodies a store holds (zlib, from Python); 0023 and 0024 edit stored
# table definitions, which SQLite may refuse (its defensive mode), so the runner decides.
AFTER: dict[int, Callable[[sqlite3.Connection], None]] = {
    19: bodies.pack_stored,
    23: schema_checks.facts_without_in_lists,
    24: schema_checks.graph_without_foreign_keys,
}


@dataclass(frozen=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    path: Path

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


def available() -> list[Migration]:
    found = []
    for name in os.listdir(MIGRATIONS_DIR):  # package data, installed beside this module
        match = _NAME.match(name)
        if match:
            found.append(Migration(int(match[1]), match[2], MIGRATIONS_DIR / name))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate migration numbers: {versions}")
    return found


def applied_versions(conn: sqlite3.Connection) -> set[int]:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").fetchone()
    if not exists:
        return set()
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def check_current(conn: sqlite3.Connection) -> None:
    """For a reader, which never migrates: a typed error unless the schema is this
    kenning's. No schema yet (a first sync still under way, or an empty file) reads as no
    index; an older schema asks for a sync, which migrates; a newer one, for an upgrade."""
    migrations = available()
    done = applied_versions(conn)
    _refuse_unknown(done, migrations)
    if not done:
        raise IndexMissing(
            "the project store has no schema yet (a first sync is under way, or never ran)",
            hint="run `kenning sync`, or wait for the running one",
        )
    pending = [m.version for m in migrations if m.version not in done]
    if pending:
        raise StoreOutdated(
            f"the project store predates this kenning (schema versions {pending} not applied)",
            hint="run `kenning sync`: it upgrades the store, keeping every saved note",
        )


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Bring the database to the latest schema. Returns the versions applied now.

    A database that already has every migration is only read, never written. Otherwise the
    runner takes the write lock, then reads the applied versions again: another process
    (a second sync, a memory save) may have migrated while this one waited, and must not
    be redone. Every pending migration is applied in that one transaction.
    """
    migrations = available()
    done = applied_versions(conn)
    _refuse_unknown(done, migrations)
    if all(m.version in done for m in migrations):
        return []
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(
                "the project store is busy: another kenning process is upgrading or writing it",
                hint="retry when it finishes",
            ) from exc
        raise
    applied = []
    # One stamp for the run: its migrations commit together. Stamped one by one, a store's creation
    # could straddle a second, and its last migrations read as an upgrade after the store's first
    # sync (``sources.last_graph_sizes``: then every sync with nothing to write counted the graph).
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        done = applied_versions(conn)  # again, under the lock
        _refuse_unknown(done, migrations)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        for migration in migrations:
            if migration.version in done:
                continue
            for statement in statements(migration.sql):
                conn.execute(statement)
            if migration.version in AFTER:
                AFTER[migration.version](conn)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, stamp),
            )
            applied.append(migration.version)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return applied


def statements(sql: str) -> list[str]:
    """A migration file as its statements (a trigger's ``BEGIN … END`` kept whole), to run
    one by one inside the runner's transaction (``executescript`` would commit it)."""
    found, pending = [], ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending)
            pending = ""
    if _COMMENT_ONLY.sub("", pending).strip():
        raise RuntimeError(f"unterminated statement in a migration: {pending.strip()[:80]!r}")
    return found


def _refuse_unknown(done: set[int], migrations: list[Migration]) -> None:
    unknown = sorted(done - {m.version for m in migrations})
    if unknown:
        raise StoreOutdated(
            f"this database has schema versions {unknown} that this kenning does not know",
            hint="upgrade kenning",
        )
