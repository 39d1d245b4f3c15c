"""Graph rows: nodes, references, edges and the state of non-file graph sources.

Only storage here: which node a reference resolves to is decided in ``kenning.graph``;
this module reads nodes, edges and source states, ``store.graph_refs`` the references and the
candidate nodes resolution reads, ``store.graph_write`` writes the rows it is given, inside the
sync's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from kenning.store import fold
from kenning.store.db import in_batches
from kenning.store.postgres import graph as pg
from kenning.store.postgres.connection import is_pg

if TYPE_CHECKING:
    from kenning.store.handle import EngineConnection

NODE_COLUMNS = "id, kind, key, name, qualname, path, line_start, line_end, fact_id"
_LINK_ORDER = "CASE e.link WHEN 'declared' THEN 0 WHEN 'extracted' THEN 1 ELSE 2 END"
# Between edges of one type and link: the far node's key, then the edge's source, never the
# ids first (they follow the sync's batches): a walk picks the same of two equal-length paths
# on every engine and after any sync (PostgreSQL: ``store.postgres.graph.EDGE_TIES``).
EDGE_TIES = "n.key, e.source_uri, coalesce(e.line, -1), e.id"
# The ids of the edges SQLite derives where the graph is read (migration 0025's view): a test's
# ``tested_by`` is its call's edge id plus MIRROR_IDS, a ``defines`` its symbol's node id plus
# DEFINES_IDS (above any stored edge's id).
MIRROR_IDS = 1 << 40
DEFINES_IDS = 1 << 41
Candidate = tuple[int, str | None, str]  # (node id, path, qualname)


@dataclass(frozen=True)
class Node:
    """A graph node: a file, symbol, decision, task, evidence, verdict or commit (defined here,
    not in ``records.py``, which ``kenning search`` imports and which never needs a node)."""

    id: int
    kind: str
    key: str
    name: str
    qualname: str
    path: str | None
    line_start: int | None
    line_end: int | None
    fact_id: int | None

    @property
    def label(self) -> str:
        if self.kind == "symbol":
            return self.qualname or self.name
        if self.kind == "file":
            return self.path or self.name
        return self.name


@dataclass(frozen=True)
class Edge:
    """A typed graph edge with its link strength (declared, extracted, heuristic) and source."""

    id: int
    src: Node
    dst: Node
    type: str
    link: str
    source_kind: str
    source_uri: str
    fingerprint: str | None
    line: int | None


class RefRow(NamedTuple):
    """A stored reference, with the path of the node it starts from (a named tuple: a cold
    sync resolves one per import, call and link)."""

    id: int
    src: int
    type: str
    target_kind: str
    target: str
    hint: str | None
    qualified: bool
    reverse: bool
    link: str
    line: int | None
    source_kind: str | None  # these four None when read with ``sources=False``
    source_uri: str | None
    fingerprint: str | None
    origin: str | None
    src_path: str | None
    tested: bool = False  # a call from a test: also resolved into a tested_by edge


@dataclass(frozen=True)
class SourceState:
    """What the last sync saw of a non-file source (``ledger``, ``git``)."""

    name: str
    size: int | None
    mtime_ns: int | None
    fingerprint: str | None
    cursor: str | None


def _node(row: Sequence) -> Node:
    return Node(*row)


# -- reading -------------------------------------------------------------------------------


def graph_built(conn: sqlite3.Connection) -> bool:
    if is_pg(conn):
        return pg.graph_built(conn)
    return (
        conn.execute(
            "SELECT 1 FROM graph_edges UNION ALL SELECT 1 FROM graph_nodes WHERE kind = 'symbol' LIMIT 1"
        ).fetchone()
        is not None
    )


# Named node lookups (``nodes_by``): what ``graph.walk.find_nodes`` tries, in its order.
_LOOKUPS = {
    "key": ("key = ?", 1),
    "fact_id": ("fact_id = ?", 1),
    "file_path": ("path = ? AND kind IN ('file', 'decision')", 1),
    "record_name": ("name = ? AND kind IN ('decision', 'task', 'evidence', 'verdict')", 1),
    "decision_name": ("name = ? AND kind = 'decision'", 1),
    "qualname": ("qualname = ? AND kind IN ('symbol', 'file')", 1),
    "qualname_suffix": (f"kind = 'symbol' AND {fold.like_sql('qualname')}", 1),
    "symbol_name": ("name = ? AND kind = 'symbol'", 1),
    "commit_prefix": ("kind = 'commit' AND key LIKE ?", 1),
    "path_suffix": (f"kind IN ('file', 'decision') AND {fold.like_sql('path')}", 1),
    "name_nocase": (f"{fold.equal_sql('name')} AND kind IN ('decision', 'task', 'symbol')", 1),
}
LOOKUPS = tuple(_LOOKUPS)


def nodes_by(conn: sqlite3.Connection, lookup: str, value: str | int, *, limit: int) -> list[Node]:
    """Nodes matching one named lookup (``LOOKUPS``), by id. ``qualname_suffix``,
    ``path_suffix`` and ``commit_prefix`` take the plain text: escaping is done here."""
    if is_pg(conn):
        return [_node(r) for r in pg.nodes_by(conn, lookup, value, limit=limit)]
    where, _ = _LOOKUPS[lookup]
    match lookup:
        case "qualname_suffix":
            value = "%." + fold.like_escaped(fold.fold(str(value)))
        case "path_suffix":
            value = "%/" + fold.like_escaped(fold.fold(str(value)))
        case "commit_prefix":
            value = f"commit:{value}%"
        case "name_nocase":
            value = fold.fold(str(value))
    rows = conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE {where} ORDER BY id LIMIT ?", (value, limit)
    ).fetchall()
    return [_node(r) for r in rows]


def edges_of(conn: sqlite3.Connection, node: Node) -> list[tuple[Edge, bool]]:
    """(edge, forward) for the outgoing then incoming edges of ``node``, by type then link
    strength (declared, extracted, heuristic) then the other node's key, the source and id."""
    found: list[tuple[Edge, bool]] = []
    if is_pg(conn):
        for row in pg.edges_of(conn, node.id):
            forward, other = row[0], _node(row[8:])
            src, dst = (node, other) if forward else (other, node)
            found.append((Edge(row[1], src, dst, *row[2:8]), forward))
        return found
    cols = ", ".join(f"n.{c.strip()}" for c in NODE_COLUMNS.split(","))
    for forward, near, far in ((True, "src", "dst"), (False, "dst", "src")):
        rows = conn.execute(
            f"SELECT e.id, e.type, e.link, e.source_kind, e.source_uri, e.fingerprint, e.line, {cols} "
            f"FROM graph_edges_sourced e JOIN graph_nodes n ON n.id = e.{far} WHERE e.{near} = ? "
            f"ORDER BY e.type, {_LINK_ORDER}, {EDGE_TIES}",
            (node.id,),
        ).fetchall()
        for row in rows:
            other = _node(tuple(row)[7:])
            src, dst = (node, other) if forward else (other, node)
            found.append((Edge(row[0], src, dst, row[1], row[2], row[3], row[4], row[5], row[6]), forward))
    return found


def edges_near(
    conn: sqlite3.Connection, nodes: Sequence[Node], *, depth: int, limit: int
) -> dict[int, list[tuple[Edge, bool]]]:
    """``edges_of`` for the nodes within ``depth`` edges of ``nodes`` (either direction), at
    most the nearest ``limit`` of them, by node id: what a walk will read next, fetched at once
    where each read costs a round trip (PostgreSQL: one recursive query). Each node's list is
    complete; a node left out is read with ``edges_of``. SQLite reads in-process: ``{}``."""
    if not is_pg(conn) or not nodes:
        return {}
    found: dict[int, list[tuple[Edge, bool]]] = {}
    for row in pg.edges_near(conn, [n.id for n in nodes], depth, limit):
        near, forward = _node(row[:9]), row[9]
        edges = found.setdefault(near.id, [])
        if forward is not None:  # None: a node without edges
            other = _node(row[17:])
            src, dst = (near, other) if forward else (other, near)
            edges.append((Edge(row[10], src, dst, *row[11:17]), forward))
    return found


def has_nodes(conn: sqlite3.Connection) -> bool:
    if is_pg(conn):
        return pg.has_nodes(conn)
    return conn.execute("SELECT 1 FROM graph_nodes LIMIT 1").fetchone() is not None


def counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(nodes, edges), the edges SQLite derives where the graph is read counted (migration 0025:
    a ``defines`` per symbol node beside its file's node, a ``tested_by`` per edge resolved from
    a test's call; about 25 ms on Django)."""
    if is_pg(conn):
        return pg.counts(conn)
    return (
        conn.execute("SELECT count(*) FROM graph_nodes").fetchone()[0],
        conn.execute(
            "SELECT (SELECT count(*) FROM graph_edges) + (SELECT count(*) FROM graph_nodes "
            "WHERE kind = 'symbol' AND path IN (SELECT path FROM graph_nodes WHERE kind = 'file')) + "
            "(SELECT count(*) FROM graph_edges e CROSS JOIN graph_refs r ON r.id = e.ref_id "
            "AND r.tested = 1 AND r.reverse = 0 AND r.type <> 'tested_by' AND r.type = e.type)"
        ).fetchone()[0],
    )


def origins_present(conn: sqlite3.Connection, origins: Sequence[str]) -> set[str]:
    """Which of ``origins`` produced nodes or references."""
    if is_pg(conn):
        return pg.origins_present(conn, origins)
    found: set[str] = set()
    for chunk in in_batches(origins, 300):  # each bound three times
        marks = ",".join("?" * len(chunk))
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT origin FROM graph_nodes WHERE origin IN ({marks}) AND origin <> '' "
                f"UNION SELECT path FROM graph_nodes WHERE path IN ({marks}) AND origin = '' "
                f"UNION SELECT origin FROM graph_refs WHERE origin IN ({marks}) AND origin <> ''",
                chunk * 3,
            )
        )
    return found


def node_exists(conn: sqlite3.Connection, key: str) -> bool:
    if is_pg(conn):
        return pg.node_exists(conn, key)
    return conn.execute("SELECT 1 FROM graph_nodes WHERE key = ?", (key,)).fetchone() is not None


def file_nodes(conn: sqlite3.Connection) -> list[Candidate]:
    """(id, path, qualname) of every file node, by id."""
    if is_pg(conn):
        return pg.file_nodes(conn)
    rows = conn.execute("SELECT id, path, qualname FROM graph_nodes WHERE kind = 'file' ORDER BY id")
    return [(r[0], r[1], r[2]) for r in rows]


def nodes_of_origin(conn: sqlite3.Connection, origin: str) -> list[tuple[str, str, str, str | None]]:
    """(kind, name, qualname, path) of the nodes ``origin`` produced."""
    if is_pg(conn):
        return pg.nodes_of_origin(conn, origin)
    return [
        tuple(r)
        for r in conn.execute(
            "SELECT kind, name, qualname, path FROM graph_nodes WHERE origin = ? AND origin <> '' "
            "UNION ALL SELECT kind, name, qualname, path FROM graph_nodes WHERE path = ? AND origin = ''",
            (origin, origin),
        )
    ]


def nodes_by_id(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, Node]:
    if is_pg(conn):
        return {r[0]: _node(r) for r in pg.nodes_by_id(conn, ids)}
    found: dict[int, Node] = {}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE id IN ({marks})", chunk):
            found[row[0]] = _node(row)
    return found


def source_states(conn: EngineConnection) -> dict[str, SourceState]:
    if is_pg(conn):
        return {r[0]: SourceState(*r) for r in pg.source_states(conn)}
    return {
        r[0]: SourceState(*r)
        for r in conn.execute("SELECT name, size, mtime_ns, fingerprint, cursor FROM graph_sources")
    }
