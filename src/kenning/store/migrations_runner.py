"""Apply the numbered ``migrations/NNNN_name.sql`` files in order, each in one transaction."""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kenning.errors import StoreOutdated

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


MIGRATIONS_DIR = Path(__file__).with_name("migrations")


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
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not exists:
        return set()
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Bring the database to the latest schema. Returns the versions applied now.

    A database that already has every migration is only read, never written.
    """
    migrations = available()
    done = applied_versions(conn)
    known = {m.version for m in migrations}
    unknown = sorted(done - known)
    if unknown:
        raise StoreOutdated(
            f"this database has schema versions {unknown} that this kenning does not know",
            hint="upgrade kenning",
        )
    pending = [m for m in migrations if m.version not in done]
    if not pending:
        return []
    if not done:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
    applied = []
    for migration in pending:
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            conn.executescript(
                "BEGIN IMMEDIATE;\n"
                f"{migration.sql}\n;\n"
                f"INSERT INTO schema_migrations (version, name, applied_at) "
                f"VALUES ({migration.version}, '{migration.name}', '{stamp}');\n"
                "COMMIT;"
            )
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        applied.append(migration.version)
    return applied
