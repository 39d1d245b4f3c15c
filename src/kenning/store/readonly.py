"""Opening another project's store for reading only, as cross-project scope does.

The connection is opened with ``mode=ro`` and ``query_only``: nothing a cross-project
question runs can write to a store it was not started for, and nothing is migrated. A store
whose schema is not exactly this kenning's is refused with ``StoreOutdated`` (older: the
owner runs ``kenning sync``; newer: upgrade kenning); a file SQLite cannot read is
``StoreUnreadable``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from kenning.errors import IndexMissing, StoreOutdated, StoreUnreadable
from kenning.store.migrations_runner import applied_versions, available


def open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to the store at ``path``, whose schema is current."""
    if not path.exists():
        raise IndexMissing(f"no index at {path}", hint="run `kenning sync` in that project")
    if not path.is_file():
        raise StoreUnreadable(f"{path} is not a file")
    try:
        conn = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise StoreUnreadable(f"{path}: {exc}") from exc
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA cache_size = -8192")
        _check_schema(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise StoreUnreadable(f"{path}: {exc}") from exc
    except BaseException:
        conn.close()
        raise
    return conn


_known: list[frozenset[int]] = []  # the migrations this kenning ships, listed once per process


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    done = applied_versions(conn)
    if not _known:
        _known.append(frozenset(m.version for m in available()))
    known = _known[0]
    if not done:
        raise StoreOutdated(f"{path} has no kenning schema", hint="run `kenning sync` in that project")
    newer = sorted(done - known)
    if newer:
        raise StoreOutdated(f"schema versions {newer} are newer than this kenning", hint="upgrade kenning")
    missing = sorted(known - done)
    if missing:
        raise StoreOutdated(f"schema {max(done)} is older than {max(known)}", hint="run `kenning sync` in that project")


@dataclass(frozen=True)
class StoreSummary:
    """What `kenning projects list` shows of a readable store."""

    facts: int
    last_sync: str | None


def summary(conn: sqlite3.Connection) -> StoreSummary:
    facts = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'active'").fetchone()[0]
    last = conn.execute("SELECT max(finished) FROM sync_runs").fetchone()[0]
    return StoreSummary(facts=int(facts), last_sync=last)
