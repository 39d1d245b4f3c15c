"""``store.status`` on PostgreSQL: the counts ``kenning status`` reports (the handle's project)."""

from __future__ import annotations

from kenning.store.fold import fold
from kenning.store.postgres.connection import PgConnection, schema_version

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


def vector_search(conn: PgConnection) -> str:
    """How dense vectors are searched on this server: exactly, in the client; whether pgvector
    (``CREATE EXTENSION vector``) is installable here is reported, its index is not used yet."""
    pgvector = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone() is not None
    where = (
        "pgvector is installable on this server; kenning does not use its index yet"
        if pgvector
        else "pgvector is not available on this server"
    )
    return f"exact: bytea vectors scored in the client ({where})"


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
