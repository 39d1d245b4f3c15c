"""``store.status`` on PostgreSQL: the counts ``kenning status`` reports (the handle's project)."""

from __future__ import annotations

from kenning.records import Replaced
from kenning.store.fold import fold
from kenning.store.postgres.connection import PgConnection, schema_version
from kenning.store.postgres.hnsw import EF_SEARCH, HNSW, hnsw_indexes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def index_counts(conn: PgConnection) -> dict[str, Any]:
    """The fields of ``store.status.IndexSize``."""
    p = (conn.project,)
    return {
        "files": conn.execute("SELECT count(*) FROM manifest WHERE project = %s", p).fetchone()[0],
        "facts": conn.execute("SELECT count(*) FROM facts WHERE project = %s", p).fetchone()[0],
        "by_lifecycle": dict(
            conn.execute(
                'SELECT lifecycle, count(*) FROM facts WHERE project = %s GROUP BY 1 ORDER BY lifecycle COLLATE "C"', p
            ).fetchall()
        ),
        "replaced": conn.execute(
            "SELECT count(*) FROM facts WHERE project = %s AND lifecycle = 'superseded' AND lifecycle_reason = ANY(%s)",
            (conn.project, [reason.value for reason in Replaced]),
        ).fetchone()[0],
        "by_type": dict(
            conn.execute(
                "SELECT type, count(*) FROM facts WHERE project = %s AND lifecycle = 'active' GROUP BY 1 "
                'ORDER BY type COLLATE "C"',
                p,
            ).fetchall()
        ),
        "last_sync": conn.execute("SELECT max(finished) FROM sync_runs WHERE project = %s", p).fetchone()[0],
        "schema_version": schema_version(conn),
    }


def graph_size(conn: PgConnection) -> tuple[int, int]:
    """(nodes, edges) of the project's graph; no node counted without an edge, as on SQLite."""
    nodes, edges = conn.execute(
        "SELECT (SELECT count(*) FROM graph_nodes WHERE project = %s), "
        "(SELECT count(*) FROM graph_edges WHERE project = %s)",
        (conn.project, conn.project),
    ).fetchone()
    return (int(nodes) if edges else 0), int(edges)


def vector_search(conn: PgConnection) -> dict[str, Any]:
    """How dense vectors are searched on this server (``engines.dense``: ``search``, the sentence
    status prints; ``approximate``; ``ef_search`` with pgvector): through pgvector's HNSW
    indexes when migration 0011 could create the extension, else exactly in the client."""
    if hnsw_indexes(conn):  # migration 0011 creates every index of ``HNSW`` or none
        exact = [
            f"{name} ({dimension} dimensions)"
            for name, dimension in conn.execute(
                "SELECT embedder, dimension FROM dense_manifest WHERE project = %s ORDER BY embedder",
                (conn.project,),
            ).fetchall()
            if (name, dimension) not in HNSW
        ]
        search = (
            f"pgvector HNSW index (approximate, ef_search {EF_SEARCH}): the nearest candidates re-scored "
            "exactly in the client" + (f"; no index for {', '.join(exact)}: scanned exactly" if exact else "")
        )
        return {"search": search, "approximate": True, "ef_search": EF_SEARCH}
    pgvector = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone() is not None
    where = (
        "pgvector is available on this server, but kenning's migration could not create it in this database"
        if pgvector
        else "pgvector is not available on this server"
    )
    return {"search": f"exact: bytea vectors scored in the client ({where})", "approximate": False}


FOLD_PROBE = "ÉΩİΣ"  # a letter of each kind store/fold.py folds: accented, Greek, dotted I, sigma


def case_folding(conn: PgConnection) -> str | None:
    """None when the server's ``lower()`` folds case as kenning does on SQLite (``store/fold.py``:
    a UTF-8 ``LC_CTYPE``), else what differs: a database created with ``LC_CTYPE`` ``C``
    lower-cases ASCII only, in ``lower()`` and in the word index alike."""
    got = conn.execute("SELECT lower(%s)", (FOLD_PROBE,)).fetchone()[0]
    if got == fold(FOLD_PROBE):
        return None
    return (
        f"the database lower-cases otherwise than kenning (lower('{FOLD_PROBE}') = '{got}', not "
        f"'{fold(FOLD_PROBE)}'): its LC_CTYPE is not a UTF-8 locale, so words and names beyond ASCII "
        "match in their own case only; create kenning's database with a UTF-8 locale (C.UTF-8)"
    )


def accent_folding(conn: PgConnection) -> str | None:
    """None when the word index folds accents as FTS5's ``unicode61`` does (``unaccent`` in
    ``kenning_simple``), else what differs: without ``unaccent`` on the server (migration 0001),
    words match with their accents as written."""
    if conn.execute("SELECT to_tsvector('kenning_simple', 'é') = to_tsvector('kenning_simple', 'e')").fetchone()[0]:
        return None
    return (
        "the server has no unaccent extension: words match with their accents as written "
        "('élève' does not find 'eleve'); install PostgreSQL's contrib and create a new database"
    )


def project_indexes(conn: PgConnection) -> str | None:
    """None when the word and trigram indexes are keyed by project first (``btree_gin``,
    migration 0006), else what that costs."""
    if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'btree_gin'").fetchone() is not None:
        return None
    return (
        "the server has no btree_gin extension: the word and trigram indexes are not keyed by project, "
        "so a search reads every project's postings (the same answers, slower with many projects)"
    )
