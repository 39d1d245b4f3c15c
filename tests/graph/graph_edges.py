"""Reading a synced project's graph edges in tests."""

from __future__ import annotations

from kenning.store import graph as graph_store
from kenning.store.db import open_store


def callees(project, caller: str) -> set[tuple[str, str]]:
    """The (qualified name, link) of every node the node ``caller`` calls."""
    conn = open_store(project)
    try:
        (node,) = graph_store.nodes_by(conn, "qualname", caller, limit=1)
        return {
            (e.dst.qualname, e.link) for e, forward in graph_store.edges_of(conn, node) if forward and e.type == "calls"
        }
    finally:
        conn.close()


def file_testers(project, path: str) -> set[tuple[str, str, str]]:
    """(kind, qualified name, link) of what tests the file at ``path`` itself (its ``tested_by``
    edges, not its symbols')."""
    conn = open_store(project)
    try:
        (node,) = graph_store.nodes_by(conn, "file_path", path, limit=1)
        return {
            (e.dst.kind, e.dst.qualname, e.link)
            for e, forward in graph_store.edges_of(conn, node)
            if forward and e.type == "tested_by"
        }
    finally:
        conn.close()
