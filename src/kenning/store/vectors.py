"""Dense vectors and their manifest (migration 0011). Vectors are float32 BLOBs; no ranking here.
A PostgreSQL handle dispatches to ``store/postgres/vectors.py`` (``bytea``, same functions)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

import numpy as np

from kenning.store.bodies import text
from kenning.store.postgres import vectors as pg
from kenning.store.postgres.connection import is_pg

# Active facts whose current text has no vector yet for this embedder. Prose first (sections,
# decisions, memories), code last: a bounded sync embeds what answers "how" questions first.
_PENDING = """
SELECT f.id, f.type, f.title, f.body, f.meta, f.content_hash FROM facts f
LEFT JOIN dense_vectors v ON v.embedder = ? AND v.fact_id = f.id AND v.content_hash = f.content_hash
WHERE f.lifecycle = 'active' AND v.fact_id IS NULL
ORDER BY f.type = 'code', f.id
LIMIT ?
"""


def manifest(conn: sqlite3.Connection, embedder: str) -> dict[str, Any] | None:
    if is_pg(conn):
        return pg.manifest(conn, embedder)
    row = conn.execute(
        "SELECT model_id, weights_sha256, dimension, pooling, fingerprint, created FROM dense_manifest "
        "WHERE embedder = ?",
        (embedder,),
    ).fetchone()
    if row is None:
        return None
    keys = ("model_id", "weights_sha256", "dimension", "pooling", "fingerprint", "created")
    return dict(zip(keys, tuple(row), strict=True))


def reset(conn: sqlite3.Connection, embedder: str, described: dict[str, Any], *, created: str) -> None:
    """Forget the embedder's vectors and record the manifest they will be built under."""
    if is_pg(conn):
        pg.reset(conn, embedder, described, created=created)
        return
    conn.execute("DELETE FROM dense_vectors WHERE embedder = ?", (embedder,))
    conn.execute(
        "INSERT OR REPLACE INTO dense_manifest (embedder, model_id, weights_sha256, dimension, pooling, "
        "fingerprint, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            embedder,
            described["model_id"],
            described["weights_sha256"],
            described["dimension"],
            described["pooling"],
            described["fingerprint"],
            created,
        ),
    )


def drop_stale(conn: sqlite3.Connection, embedder: str) -> int:
    """Delete vectors of facts no longer active or whose text changed; returns how many."""
    if is_pg(conn):
        return pg.drop_stale(conn, embedder)
    # Each vector's fact looked up by its id (as on PostgreSQL): `fact_id NOT IN (active facts
    # with this hash)` scanned the active facts for every vector, 5.7 s at every sync for 4,501
    # vectors (docs/benchmarks.md, densesave).
    cursor = conn.execute(
        "DELETE FROM dense_vectors WHERE embedder = ? AND NOT EXISTS (SELECT 1 FROM facts f WHERE "
        "f.id = dense_vectors.fact_id AND f.lifecycle = 'active' AND f.content_hash = dense_vectors.content_hash)",
        (embedder,),
    )
    if cursor.rowcount:
        _bump(conn, embedder)
    return cursor.rowcount


def pending(conn: sqlite3.Connection, embedder: str, limit: int) -> list[tuple[int, str, str, str, str, str]]:
    if is_pg(conn):
        return pg.pending(conn, embedder, limit)
    return [(*row[:3], text(row[3]), *row[4:]) for row in conn.execute(_PENDING, (embedder, limit))]


def coverage(conn: sqlite3.Connection, embedder: str) -> tuple[int, int]:
    """(active facts with a current vector, active facts)."""
    if is_pg(conn):
        return pg.coverage(conn, embedder)
    done = conn.execute(
        "SELECT count(*) FROM dense_vectors v JOIN facts f ON f.id = v.fact_id "
        "WHERE v.embedder = ? AND f.lifecycle = 'active' AND f.content_hash = v.content_hash",
        (embedder,),
    ).fetchone()[0]
    total = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'active'").fetchone()[0]
    return done, total


def put(conn: sqlite3.Connection, embedder: str, rows: Iterable[tuple[int, str, np.ndarray]]) -> None:
    if is_pg(conn):
        pg.put(conn, embedder, rows)
        return
    conn.executemany(
        "INSERT OR REPLACE INTO dense_vectors (embedder, fact_id, content_hash, vector) VALUES (?, ?, ?, ?)",
        (
            (embedder, fact_id, content_hash, np.asarray(vector, dtype="<f4").tobytes())
            for fact_id, content_hash, vector in rows
        ),
    )
    _bump(conn, embedder)


def _bump(conn: sqlite3.Connection, embedder: str) -> None:
    conn.execute("UPDATE dense_manifest SET version = version + 1 WHERE embedder = ?", (embedder,))


def state(conn: sqlite3.Connection, embedder: str) -> tuple[str, int]:
    """A token that changes when the embedder's vectors do (one row read, not the vectors)."""
    if is_pg(conn):
        return pg.state(conn, embedder)
    row = conn.execute("SELECT created, version FROM dense_manifest WHERE embedder = ?", (embedder,)).fetchone()
    return (str(row[0]), int(row[1])) if row else ("", -1)


def load(conn: sqlite3.Connection, embedder: str, dimension: int) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids, matrix of their vectors) of the active facts whose vector is current."""
    if is_pg(conn):
        return pg.load(conn, embedder, dimension)
    rows = conn.execute(
        "SELECT v.fact_id, v.vector FROM dense_vectors v JOIN facts f ON f.id = v.fact_id "
        "WHERE v.embedder = ? AND f.lifecycle = 'active' AND f.content_hash = v.content_hash ORDER BY v.fact_id",
        (embedder,),
    ).fetchall()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    # Filled row by row into one allocation (page-aligned for a large matrix, no second copy of
    # the BLOBs): the product over it is the dense search's largest cost.
    matrix = np.empty((len(rows), dimension), dtype=np.float32)
    for i, row in enumerate(rows):
        matrix[i] = np.frombuffer(row[1], dtype="<f4")
    return ids, matrix


def approximate(conn: sqlite3.Connection, embedder: str, dimension: int) -> bool:
    """Whether the store keeps an approximate nearest-neighbour index for the embedder's vectors
    of this width (PostgreSQL with pgvector: HNSW). SQLite never does: its vectors are scored
    exactly over the matrix :func:`load` gives."""
    return pg.approximate(conn, embedder, dimension) if is_pg(conn) else False


def candidates(
    conn: sqlite3.Connection, embedder: str, dimension: int, query: np.ndarray, k: int, also: Iterable[int] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids sorted, their vectors) of about the ``k`` active facts nearest to ``query``
    by the store's approximate index, plus those of ``also`` that have a current vector; only
    where :func:`approximate` holds."""
    if not is_pg(conn):
        raise ValueError("a SQLite store has no approximate index: its vectors are scored from load()")
    return pg.candidates(conn, embedder, dimension, query, k, also)
