"""A store at the schema an older kenning left: the migrations below a version, applied as they
were (each file in its own transaction, recorded in ``schema_migrations``), none after. The
migration tests write rows into it as that schema held them, then let a writer migrate."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kenning.store.migrations_runner import available


def store_before(path: Path, version: int) -> sqlite3.Connection:
    """A new SQLite database at ``path`` with every migration numbered below ``version`` applied
    (Python steps after a file, such as 0019's, left out: its SQL alone); an open connection."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for m in available():
        if m.version < version:
            conn.executescript(
                f"BEGIN;\n{m.sql}\n;\nINSERT INTO schema_migrations VALUES ({m.version}, "
                f"'{m.name}', '2026-01-01T00:00:00Z');\nCOMMIT;"
            )
    return conn
