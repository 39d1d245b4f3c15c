"""The HNSW indexes of migration 0011 (pgvector) and how a search reads them; no numpy here,
so ``kenning status`` reads these without the dense extra."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kenning.store.postgres.connection import PgConnection

# By (embedder, dimension): pgvector indexes one width, so each index is a partial expression
# index over one embedder's vectors of its width (dense/embed.py: MiniLM 384, USE 512).
HNSW = {("minilm", 384): "dense_vectors_hnsw_minilm", ("use", 512): "dense_vectors_hnsw_use"}
# Candidates the index search keeps while walking the graph (pgvector's default is 40): twice
# the hybrid search's dense pool of 50, raised to the pool when a caller asks for more.
EF_SEARCH = 100
# Rows read from the index per question, at least: the client scores them all exactly and keeps
# the best, so the true nearest need only be among these (relaxed order, approximate walk).
CANDIDATES = 100
EF_SEARCH_MAX = 1000  # pgvector's upper bound


def hnsw_indexes(conn: PgConnection) -> frozenset[str]:
    """The indexes of ``HNSW`` this database has, asked of the server once per connection, not
    at every question: only migration 0011 creates them (all or none), and a migrated database
    never gains them later (docs/postgresql.md)."""
    if conn.hnsw_indexes is None:
        names = list(HNSW.values())
        found = conn.execute(
            "SELECT name FROM unnest(%s::text[]) AS name WHERE to_regclass(name) IS NOT NULL", (names,)
        ).fetchall()
        conn.hnsw_indexes = frozenset(row[0] for row in found)
    return conn.hnsw_indexes
