"""Reading a synced project's graph edges in tests."""

from __future__ import annotations

from kenning.store import graph as graph_store
from kenning.store.db import open_store


def _outgoing(project, lookup: str, value: str, edge_type: str) -> list:
    """The outgoing ``edge_type`` edges of the one node ``lookup`` finds (``graph_store.LOOKUPS``)."""
    conn = open_store(project)
    try:
        (node,) = graph_store.nodes_by(conn, lookup, value, limit=1)
        return [e for e, forward in graph_store.edges_of(conn, node) if forward and e.type == edge_type]
    finally:
        conn.close()


def path_hits(project, a: str, b: str) -> list:
    """``graph.paths.path_between`` from the node of qualified name ``a`` to that of ``b``."""
    from kenning.graph.paths import path_between

    conn = open_store(project)
    try:
        (start,) = graph_store.nodes_by(conn, "qualname", a, limit=1)
        (end,) = graph_store.nodes_by(conn, "qualname", b, limit=1)
        return path_between(conn, [start], [end])
    finally:
        conn.close()


def calls_of(project, caller: str) -> list:
    """The outgoing ``calls`` edges of the node of qualified name ``caller``."""
    return _outgoing(project, "qualname", caller, "calls")


def callees(project, caller: str) -> set[tuple[str, str]]:
    """The (qualified name, link) of every node the node ``caller`` calls."""
    return {(e.dst.qualname, e.link) for e in _outgoing(project, "qualname", caller, "calls")}


def file_testers(project, path: str) -> set[tuple[str, str, str]]:
    """(kind, qualified name, link) of what tests the file at ``path`` itself (its ``tested_by``
    edges, not its symbols')."""
    return {(e.dst.kind, e.dst.qualname, e.link) for e in _outgoing(project, "file_path", path, "tested_by")}


def paths_testing(project, path: str) -> set[tuple[str, str]]:
    """(path, link) of what tests the file at ``path`` itself."""
    return {(e.dst.path, e.link) for e in _outgoing(project, "file_path", path, "tested_by")}


def imported(project, path: str) -> set[str]:
    """The paths of the files the file at ``path`` imports (its ``imports`` edges)."""
    return {e.dst.path for e in _outgoing(project, "file_path", path, "imports")}


def covering(project, qualname: str) -> set[tuple[str, str, str]]:
    """(kind, path, link) of what tests the node of ``qualname`` (its ``tested_by`` edges)."""
    return {(e.dst.kind, e.dst.path, e.link) for e in _outgoing(project, "qualname", qualname, "tested_by")}


# Rows of the graph naming a node or a reference that is not there (migration 0024: no foreign
# key refuses them; the triggers remove what a deleted node or reference leaves).
DANGLING = (
    "SELECT 'reference', r.id FROM graph_refs r WHERE NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = r.src) "
    "UNION ALL SELECT 'edge source', e.id FROM graph_edges e "
    "WHERE NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = e.src) "
    "UNION ALL SELECT 'edge target', e.id FROM graph_edges e "
    "WHERE NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = e.dst) "
    "UNION ALL SELECT 'edge reference', e.id FROM graph_edges e "
    "WHERE e.ref_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM graph_refs r WHERE r.id = e.ref_id)"
)


def dangling(conn) -> list[tuple[str, int]]:
    """(what, id) of every reference or edge naming a missing node or reference: none in a sound store."""
    return conn.execute(DANGLING).fetchall()
