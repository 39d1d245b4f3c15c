"""``store.vectors`` on PostgreSQL: the same functions, every query filtered on the handle's
project. Vectors are float32 little-endian ``bytea`` (the SQLite BLOB's bytes), read back into
one numpy matrix and scored exactly in the client (``dense/index.py``), as on SQLite.

When ``CREATE EXTENSION vector`` succeeded at migration 0011, the server also keeps each vector
as a pgvector value (a generated column, decoded from the bytes bit for bit) under an HNSW index
per embedder: :func:`candidates` then reads only the index's nearest rows of the project, whose
bytes the client scores exactly as the full product would (``dense/index.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from kenning.store.postgres.connection import PgConnection
from kenning.store.postgres.hnsw import CANDIDATES, EF_SEARCH, EF_SEARCH_MAX, HNSW, hnsw_indexes

# Active facts whose current text has no vector yet for this embedder: prose first, code last.
_PENDING = """
SELECT f.id, f.type, f.title, f.body, f.meta, f.content_hash FROM facts f
LEFT JOIN dense_vectors v ON v.project = f.project AND v.embedder = %s AND v.fact_id = f.id
    AND v.content_hash = f.content_hash
WHERE f.project = %s AND f.lifecycle = 'active' AND v.fact_id IS NULL
ORDER BY f.type = 'code', f.id
LIMIT %s
"""
_CURRENT = (
    "FROM dense_vectors v JOIN facts f ON f.id = v.fact_id "
    "WHERE v.project = %s AND v.embedder = %s AND f.project = %s AND f.lifecycle = 'active' "
    "AND f.content_hash = v.content_hash"
)


def manifest(conn: PgConnection, embedder: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT model_id, weights_sha256, dimension, pooling, fingerprint, created FROM dense_manifest "
        "WHERE project = %s AND embedder = %s",
        (conn.project, embedder),
    ).fetchone()
    if row is None:
        return None
    keys = ("model_id", "weights_sha256", "dimension", "pooling", "fingerprint", "created")
    return dict(zip(keys, tuple(row), strict=True))


def reset(conn: PgConnection, embedder: str, described: dict[str, Any], *, created: str) -> None:
    conn.execute("DELETE FROM dense_vectors WHERE project = %s AND embedder = %s", (conn.project, embedder))
    conn.execute(
        "INSERT INTO dense_manifest (project, embedder, model_id, weights_sha256, dimension, pooling, fingerprint, "
        "created) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (project, embedder) DO UPDATE SET "
        "model_id = excluded.model_id, weights_sha256 = excluded.weights_sha256, dimension = excluded.dimension, "
        "pooling = excluded.pooling, fingerprint = excluded.fingerprint, created = excluded.created, version = 0",
        (
            conn.project,
            embedder,
            described["model_id"],
            described["weights_sha256"],
            described["dimension"],
            described["pooling"],
            described["fingerprint"],
            created,
        ),
    )


def drop_stale(conn: PgConnection, embedder: str) -> int:
    cursor = conn.execute(
        "DELETE FROM dense_vectors v WHERE v.project = %s AND v.embedder = %s AND NOT EXISTS "
        "(SELECT 1 FROM facts f WHERE f.id = v.fact_id AND f.project = %s AND f.lifecycle = 'active' "
        "AND f.content_hash = v.content_hash)",
        (conn.project, embedder, conn.project),
    )
    if cursor.rowcount:
        _bump(conn, embedder)
    return int(cursor.rowcount)


def pending(conn: PgConnection, embedder: str, limit: int) -> list[tuple[int, str, str, str, str, str]]:
    return [tuple(row) for row in conn.execute(_PENDING, (embedder, conn.project, limit)).fetchall()]


def coverage(conn: PgConnection, embedder: str) -> tuple[int, int]:
    done = conn.execute(f"SELECT count(*) {_CURRENT}", (conn.project, embedder, conn.project)).fetchone()[0]
    total = conn.execute(
        "SELECT count(*) FROM facts WHERE project = %s AND lifecycle = 'active'", (conn.project,)
    ).fetchone()[0]
    return int(done), int(total)


def put(conn: PgConnection, embedder: str, rows: Iterable[tuple[int, str, np.ndarray]]) -> None:
    conn.executemany(
        "INSERT INTO dense_vectors (project, embedder, fact_id, content_hash, vector) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (project, embedder, fact_id) DO UPDATE SET content_hash = excluded.content_hash, "
        "vector = excluded.vector",
        [
            (conn.project, embedder, fact_id, content_hash, np.asarray(vector, dtype="<f4").tobytes())
            for fact_id, content_hash, vector in rows
        ],
    )
    _bump(conn, embedder)


def _bump(conn: PgConnection, embedder: str) -> None:
    conn.execute(
        "UPDATE dense_manifest SET version = version + 1 WHERE project = %s AND embedder = %s",
        (conn.project, embedder),
    )


def state(conn: PgConnection, embedder: str) -> tuple[str, int]:
    row = conn.execute(
        "SELECT created, version FROM dense_manifest WHERE project = %s AND embedder = %s", (conn.project, embedder)
    ).fetchone()
    return (str(row[0]), int(row[1])) if row else ("", -1)


def load(conn: PgConnection, embedder: str, dimension: int) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids, matrix of their vectors) of the active facts whose vector is current."""
    rows = conn.execute(
        f"SELECT v.fact_id, v.vector {_CURRENT} ORDER BY v.fact_id", (conn.project, embedder, conn.project)
    ).fetchall()
    return _stacked(rows, dimension)


def _stacked(rows: list[tuple[int, bytes]], dimension: int) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids, matrix) of (fact id, float32 little-endian bytes) rows, in their order."""
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.empty((len(rows), dimension), dtype=np.float32)
    for i, row in enumerate(rows):
        matrix[i] = np.frombuffer(row[1], dtype="<f4")
    return ids, matrix


def approximate(conn: PgConnection, embedder: str, dimension: int) -> bool:
    """Whether an HNSW index serves this embedder's vectors of this width."""
    return HNSW.get((embedder, dimension)) in hnsw_indexes(conn)


def search_settings(conn: PgConnection, k: int) -> None:
    """pgvector's settings for one index search, to the end of the current transaction: a wide
    enough candidate list, and a scan that goes on while rows are filtered out (relaxed order:
    the client sorts the candidates by their exact scores anyway)."""
    conn.execute(
        "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
        (str(min(max(EF_SEARCH, k), EF_SEARCH_MAX)),),
    )


def nearest_sql(embedder: str, dimension: int) -> str:
    """The index search: parameters project, project, the query as pgvector text, the limit. The
    embedder and the width are literals (from ``HNSW``), so the planner matches the partial index
    whatever the plan; the project, lifecycle and hash filters apply above the index scan."""
    if (embedder, dimension) not in HNSW:
        raise ValueError(f"no HNSW index for {embedder} vectors of {dimension} dimensions")
    width = f"vector({dimension})"
    return (
        "SELECT v.fact_id, v.vector FROM dense_vectors v JOIN facts f ON f.id = v.fact_id "
        f"WHERE v.embedder = '{embedder}' AND octet_length(v.vector) = {4 * dimension} AND v.project = %s "
        "AND f.project = %s AND f.lifecycle = 'active' AND f.content_hash = v.content_hash "
        f"ORDER BY (v.embedding::{width}) <#> %s::{width} LIMIT %s"
    )


def candidates(
    conn: PgConnection, embedder: str, dimension: int, query: np.ndarray, k: int, also: Iterable[int] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids sorted, matrix of their vectors) of the project's active facts nearest to
    ``query`` by the HNSW index (approximate: the first ``max(k, CANDIDATES)`` it finds, for the
    client to score and keep the best ``k``), plus the facts of ``also`` that have a current
    vector. The index holds every project's vectors: its scan goes on past the rows the project
    filter drops (``hnsw.iterative_scan``) until enough are found or pgvector's scan limit
    (``hnsw.max_scan_tuples``, 20,000 by default) is reached. Fewer found (a project with fewer
    vectors, or one drowned among other projects' past that limit): every current vector of the
    project, as :func:`load` gives them, so the answer is never cut short."""
    target = "[" + ",".join(repr(x) for x in np.asarray(query, dtype=np.float32).tolist()) + "]"
    limit = max(k, CANDIDATES)
    with conn.raw.transaction():
        search_settings(conn, limit)
        rows = conn.execute(nearest_sql(embedder, dimension), (conn.project, conn.project, target, limit)).fetchall()
    if len(rows) < limit:
        return load(conn, embedder, dimension)
    found = {int(r[0]): r[1] for r in rows}
    wanted = sorted(set(also) - found.keys())
    if wanted:
        more = conn.execute(
            f"SELECT v.fact_id, v.vector {_CURRENT} AND v.fact_id = ANY(%s)",
            (conn.project, embedder, conn.project, wanted),
        ).fetchall()
        found.update((int(r[0]), r[1]) for r in more)
    return _stacked(sorted(found.items()), dimension)
