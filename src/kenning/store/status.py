"""What the store holds, for ``kenning status``: the engine's own capabilities and counts."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from kenning.records import Replaced
from kenning.store.graph import counts as graph_counts
from kenning.store.postgres import status as pg
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kenning.store.handle import EngineConnection


@dataclass(frozen=True)
class Capability:
    available: bool
    version: str | None = None  # the engine's version, when available
    reason: str | None = None  # why not, when unavailable


@dataclass(frozen=True)
class IndexSize:
    files: int  # files in the manifest
    facts: int  # facts, every lifecycle
    by_lifecycle: dict[str, int]
    replaced: int  # of the superseded: older readings of a source that a sync replaced (records.Replaced)
    by_type: dict[str, int]  # active facts only
    last_sync: str | None  # when the last sync finished
    schema_version: int | None


REPLACED = tuple(reason.value for reason in Replaced)
REPLACED_MARKS = ", ".join("?" for _ in REPLACED)


def full_text() -> Capability:
    """Whether this installation's engine has full-text search with trigrams (FTS5 here)."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        return Capability(True, version=sqlite3.sqlite_version)
    except sqlite3.OperationalError as exc:
        return Capability(False, reason=str(exc))
    finally:
        probe.close()


def index_size(conn: sqlite3.Connection) -> IndexSize:
    if is_pg(conn):
        return IndexSize(**pg.index_counts(conn))
    return IndexSize(
        files=conn.execute("SELECT count(*) FROM manifest").fetchone()[0],
        facts=conn.execute("SELECT count(*) FROM facts").fetchone()[0],
        by_lifecycle=dict(conn.execute("SELECT lifecycle, count(*) FROM facts GROUP BY 1 ORDER BY 1")),
        replaced=conn.execute(
            f"SELECT count(*) FROM facts WHERE lifecycle = 'superseded' AND lifecycle_reason IN ({REPLACED_MARKS})",
            REPLACED,
        ).fetchone()[0],
        by_type=dict(conn.execute("SELECT type, count(*) FROM facts WHERE lifecycle = 'active' GROUP BY 1 ORDER BY 1")),
        last_sync=conn.execute("SELECT max(finished) FROM sync_runs").fetchone()[0],
        schema_version=conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0],
    )


def graph_size(conn: sqlite3.Connection) -> tuple[int, int]:
    """(nodes, edges) of the declared graph."""
    if is_pg(conn):
        return pg.graph_size(conn)
    nodes, edges = graph_counts(conn)
    return (nodes, edges) if edges else (0, 0)


def vector_search(conn: sqlite3.Connection) -> dict[str, Any]:
    """How dense vectors are searched (``kenning status``'s ``engines.dense``): ``search``, the
    sentence it prints, and ``approximate`` (PostgreSQL with pgvector: also ``ef_search``)."""
    if is_pg(conn):
        return pg.vector_search(conn)
    return {"search": "exact: float32 vectors scored in the client", "approximate": False}


def case_folding(conn: EngineConnection) -> str | None:
    """What differs in the engine's case folding from kenning's (``store/fold.py``), or None
    (SQLite: its connections fold through ``kenning_lower()``)."""
    return pg.case_folding(conn) if is_pg(conn) else None


def accent_folding(conn: EngineConnection) -> str | None:
    """What differs in the engine's accent folding from FTS5's ``unicode61`` (PostgreSQL
    without ``unaccent``), or None."""
    return pg.accent_folding(conn) if is_pg(conn) else None


def project_indexes(conn: EngineConnection) -> str | None:
    """Why the engine's text indexes are not keyed by project (PostgreSQL without
    ``btree_gin``), or None (SQLite: one file per project)."""
    return pg.project_indexes(conn) if is_pg(conn) else None
