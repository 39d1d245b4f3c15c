"""Opening another project's store for reading only, as cross-project scope does.

The connection is opened with SQLite's ``mode=ro``: nothing a cross-project question runs
can write to a store it was not started for, and nothing is migrated. (Not ``query_only``:
that pragma also refuses the connection's own ``temp`` schema, where the query-cost guard
builds its ``fts5vocab`` table.) A store
whose schema is not exactly this kenning's is refused as any reader refuses it
(``migrations_runner.check_current``: ``StoreOutdated``, or ``IndexMissing`` before a first
sync); a file SQLite cannot read is ``StoreUnreadable``.

A ``mode=ro`` connection needs the store's ``-wal``/``-shm`` files and cannot remove them when
it closes (only a connection that may write checkpoints and removes them, as the last one
closes): every `kenning projects list` or `--all-projects` question left them beside each
registered store. ``open_readonly``'s connections call ``release`` as they close; a process
holding other read-only connections (``mode=ro`` of its own) calls it after closing them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from kenning.errors import IndexMissing, StoreUnreadable
from kenning.store import bodies, fold
from kenning.store.handle import typed_error
from kenning.store.migrations_runner import check_current


def open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to the store at ``path``, whose schema is current."""
    if not path.exists():
        raise IndexMissing(f"no index at {path}", hint="run `kenning sync` in that project")
    if not path.is_file():
        raise StoreUnreadable(f"{path} is not a file")
    try:
        conn = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            factory=Releasing,
        )
        conn.released = path
    except sqlite3.Error as exc:
        raise typed_error(exc, str(path)) from exc
    try:
        conn.row_factory = sqlite3.Row
        bodies.register(conn)
        fold.register(conn)
        conn.execute("PRAGMA cache_size = -8192")
        check_current(conn)  # the readers' rule: never migrate, typed error unless current
    except sqlite3.Error as exc:
        conn.close()
        raise typed_error(exc, str(path)) from exc
    except BaseException:
        conn.close()
        raise
    return conn


class Releasing(sqlite3.Connection):
    """A read-only connection that releases its store's ``-wal``/``-shm`` as it closes."""

    released: Path | None = None

    def close(self) -> None:
        super().close()
        if self.released is not None:
            path, self.released = self.released, None
            release(path)


def release(path: Path) -> None:
    """Remove the ``-wal``/``-shm`` files read-only connections to the store at ``path`` left,
    once they are closed: a read-write connection opened and closed here lets SQLite checkpoint
    and remove them when no other connection holds the store (else nothing happens), without
    waiting for any lock. A store this process may not write keeps its files."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=rw", uri=True, timeout=0)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA schema_version")  # SQLite opens the file (and the WAL) on a first read
    except sqlite3.Error:
        pass
    finally:
        conn.close()


@dataclass(frozen=True)
class StoreSummary:
    """What `kenning projects list` shows of a readable store."""

    facts: int
    last_sync: str | None


def summary(conn: sqlite3.Connection) -> StoreSummary:
    facts = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'active'").fetchone()[0]
    last = conn.execute("SELECT max(finished) FROM sync_runs").fetchone()[0]
    return StoreSummary(facts=int(facts), last_sync=last)
