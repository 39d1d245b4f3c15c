"""Graph rows: nodes, references, edges and the state of non-file graph sources.

Only storage here: which node a reference resolves to is decided in ``kenning.graph``;
this module reads candidate rows and writes the rows it is given.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from kenning.store.db import in_batches

NODE_COLUMNS = "id, kind, key, name, qualname, path, line_start, line_end, fact_id"
_LINK_ORDER = "CASE e.link WHEN 'declared' THEN 0 WHEN 'extracted' THEN 1 ELSE 2 END"
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
    source_kind: str
    source_uri: str
    fingerprint: str | None
    origin: str
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
    return conn.execute("SELECT 1 FROM graph_edges LIMIT 1").fetchone() is not None


# Named node lookups (``nodes_by``): what ``graph.walk.find_nodes`` tries, in its order.
_LOOKUPS = {
    "key": ("key = ?", 1),
    "fact_id": ("fact_id = ?", 1),
    "file_path": ("path = ? AND kind IN ('file', 'decision')", 1),
    "record_name": ("name = ? AND kind IN ('decision', 'task', 'evidence', 'verdict')", 1),
    "decision_name": ("name = ? AND kind = 'decision'", 1),
    "qualname": ("qualname = ? AND kind IN ('symbol', 'file')", 1),
    "qualname_suffix": ("kind = 'symbol' AND qualname LIKE ? ESCAPE '\\'", 1),
    "symbol_name": ("name = ? AND kind = 'symbol'", 1),
    "commit_prefix": ("kind = 'commit' AND key LIKE ?", 1),
    "path_suffix": ("kind IN ('file', 'decision') AND path LIKE ? ESCAPE '\\'", 1),
    "name_nocase": ("lower(name) = lower(?) AND kind IN ('decision', 'task', 'symbol')", 1),
}
LOOKUPS = tuple(_LOOKUPS)


def nodes_by(conn: sqlite3.Connection, lookup: str, value: str | int, *, limit: int) -> list[Node]:
    """Nodes matching one named lookup (``LOOKUPS``), by id. ``qualname_suffix``,
    ``path_suffix`` and ``commit_prefix`` take the plain text: escaping is done here."""
    where, _ = _LOOKUPS[lookup]
    match lookup:
        case "qualname_suffix":
            value = "%." + _like(str(value))
        case "path_suffix":
            value = "%/" + _like(str(value))
        case "commit_prefix":
            value = f"commit:{value}%"
    rows = conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE {where} ORDER BY id LIMIT ?", (value, limit)
    ).fetchall()
    return [_node(r) for r in rows]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# Graph rows leave out what they repeat (migration 0013): a reference's URI is
# ``origin:line-line`` when NULL; a file row's fingerprint is the manifest's for its origin; an
# edge resolved from a reference takes its source, line and origin from it (edges are read
# through the view ``graph_edges_sourced``, which spells them out).
# A reference's origin is stored as '' when it is its source node's (migration 0017), a node's
# when it is the node's path (0018).
_REF_ORIGIN = "coalesce(nullif(r.origin, ''), nullif(n.origin, ''), n.path)"
_REF_URI = f"coalesce(r.source_uri, {_REF_ORIGIN} || ':' || r.line || '-' || r.line)"


def _derivable_fingerprint(source: tuple[str, str, str | None], origin: str) -> bool:
    """True for a file row whose fingerprint is its origin file's (the manifest's): stored NULL."""
    kind, uri, _ = source
    return kind == "file" and uri.startswith(origin) and uri[len(origin) : len(origin) + 1] in (":", "#", "")


def edges_of(conn: sqlite3.Connection, node: Node) -> list[tuple[Edge, bool]]:
    """(edge, forward) for the outgoing then incoming edges of ``node``, by type then link
    strength (declared, extracted, heuristic) then id."""
    cols = ", ".join(f"n.{c.strip()}" for c in NODE_COLUMNS.split(","))
    found: list[tuple[Edge, bool]] = []
    for forward, near, far in ((True, "src", "dst"), (False, "dst", "src")):
        rows = conn.execute(
            f"SELECT e.id, e.type, e.link, e.source_kind, e.source_uri, e.fingerprint, e.line, {cols} "
            f"FROM graph_edges_sourced e JOIN graph_nodes n ON n.id = e.{far} WHERE e.{near} = ? "
            f"ORDER BY e.type, {_LINK_ORDER}, e.id",
            (node.id,),
        ).fetchall()
        for row in rows:
            other = _node(tuple(row)[7:])
            src, dst = (node, other) if forward else (other, node)
            found.append((Edge(row[0], src, dst, row[1], row[2], row[3], row[4], row[5], row[6]), forward))
    return found


def counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(nodes, edges)."""
    return (
        conn.execute("SELECT count(*) FROM graph_nodes").fetchone()[0],
        conn.execute("SELECT count(*) FROM graph_edges").fetchone()[0],
    )


def origins_present(conn: sqlite3.Connection, origins: Sequence[str]) -> set[str]:
    """Which of ``origins`` produced nodes or references."""
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
    return conn.execute("SELECT 1 FROM graph_nodes WHERE key = ?", (key,)).fetchone() is not None


def nodes_of_origin(conn: sqlite3.Connection, origin: str) -> list[tuple[str, str, str, str | None]]:
    """(kind, name, qualname, path) of the nodes ``origin`` produced."""
    return [
        tuple(r)
        for r in conn.execute(
            "SELECT kind, name, qualname, path FROM graph_nodes WHERE origin = ? AND origin <> '' "
            "UNION ALL SELECT kind, name, qualname, path FROM graph_nodes WHERE path = ? AND origin = ''",
            (origin, origin),
        )
    ]


def nodes_by_id(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, Node]:
    found: dict[int, Node] = {}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE id IN ({marks})", chunk):
            found[row[0]] = _node(row)
    return found


def refs_targeting(conn: sqlite3.Connection, kind: str, target: str) -> list[int]:
    """Ids of the references naming ``(kind, target)``."""
    return [
        r[0] for r in conn.execute("SELECT id FROM graph_refs WHERE target_kind = ? AND target = ?", (kind, target))
    ]


def ref_rows(conn: sqlite3.Connection, ids: Sequence[int]) -> list[RefRow]:
    found: list[RefRow] = []
    for chunk in in_batches(ids):
        for row in conn.execute(
            "SELECT r.id, r.src, r.type, r.target_kind, r.target, r.hint, r.qualified, r.reverse, r.link, "
            f"r.line, r.source_kind, {_REF_URI}, coalesce(r.fingerprint, m.fingerprint), {_REF_ORIGIN}, n.path, "
            "r.tested FROM graph_refs r JOIN graph_nodes n ON n.id = r.src "
            f"LEFT JOIN manifest m ON m.path = {_REF_ORIGIN} "
            f"WHERE r.id IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            found.append(RefRow._make((*row[:6], bool(row[6]), bool(row[7]), *row[8:15], bool(row[15]))))
    return found


def method_candidates(conn: sqlite3.Connection, name: str) -> list[Candidate]:
    """Symbols named ``name`` that are methods (their key's qualname is dotted), by id."""
    rows = conn.execute(
        "SELECT id, path, qualname, key FROM graph_nodes WHERE name = ? AND kind = 'symbol' ORDER BY id",
        (name,),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows if "." in r[3].rsplit(":", 1)[-1]]


def candidates(conn: sqlite3.Connection, kind: str, target: str) -> list[Candidate]:
    """The nodes a reference target names: a path (``file``), a path without suffix
    (``stem``), a dotted module (``module``), or a name of another kind; by id."""
    args: tuple[str, ...]
    match kind:
        case "file":
            sql, args = (
                ("SELECT id, path, qualname FROM graph_nodes WHERE path = ? AND kind IN ('file', 'decision')"),
                (target,),
            )
        case "stem":
            sql, args = (
                (
                    "SELECT id, path, qualname FROM graph_nodes WHERE kind = 'file' AND "
                    "(path = ? OR path GLOB ? OR path GLOB ?)"
                ),
                (target, _glob(target) + ".*", _glob(target) + "/index.*"),
            )
        case "module":
            sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE qualname = ? AND kind = 'file'", (target,)
        case _:
            sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE name = ? AND kind = ?", (target, kind)
    return [tuple(r) for r in conn.execute(sql + " ORDER BY id", args)]


def _glob(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def source_states(conn: sqlite3.Connection) -> dict[str, SourceState]:
    return {
        r[0]: SourceState(*r)
        for r in conn.execute("SELECT name, size, mtime_ns, fingerprint, cursor FROM graph_sources")
    }


# -- writing (inside the sync's transaction) ------------------------------------------------


def add_node(
    conn: sqlite3.Connection,
    kind: str,
    key: str,
    name: str,
    *,
    origin: str,
    qualname: str = "",
    path: str | None = None,
    lines: tuple[int | None, int | None] = (None, None),
    fact_id: int | None = None,
) -> int:
    """A node's id; the first node written with a key wins (a commit read twice keeps the first)."""
    cur = conn.execute(
        "INSERT INTO graph_nodes (kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
        "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(key) DO NOTHING RETURNING id",
        (kind, key, name, qualname, path, lines[0], lines[1], fact_id, "" if origin == path else origin),
    ).fetchone()
    if cur is None:
        return conn.execute("SELECT id FROM graph_nodes WHERE key = ?", (key,)).fetchone()[0]
    return int(cur[0])


def delete_origin(conn: sqlite3.Connection, origin: str, *, nodes: bool = True) -> None:
    """Drop the references and (``nodes``) the nodes ``origin`` produced; edges go with their
    reference (``ref_id``) or their nodes. References stored with origin '' (their source
    node's) go with that node: ``graph_refs.src`` cascades."""
    conn.execute("DELETE FROM graph_refs WHERE origin = ? AND origin <> ''", (origin,))
    if nodes:  # a node's origin is '' when it is its path (migration 0018)
        conn.execute("DELETE FROM graph_nodes WHERE origin = ? AND origin <> ''", (origin,))
        conn.execute("DELETE FROM graph_nodes WHERE path = ? AND origin = ''", (origin,))


def delete_ref_edges(conn: sqlite3.Connection, ref_ids: Sequence[int]) -> None:
    """Drop the edges resolved from these references (before they are resolved again)."""
    for chunk in in_batches(ref_ids):
        conn.execute(f"DELETE FROM graph_edges WHERE ref_id IN ({','.join('?' * len(chunk))})", chunk)


def touch_source(conn: sqlite3.Connection, name: str, size: int, mtime_ns: int) -> None:
    conn.execute("UPDATE graph_sources SET size = ?, mtime_ns = ? WHERE name = ?", (size, mtime_ns, name))


def put_source(conn: sqlite3.Connection, state: SourceState, *, stamp: str) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO graph_sources (name, size, mtime_ns, fingerprint, cursor, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (state.name, state.size, state.mtime_ns, state.fingerprint, state.cursor, stamp),
    )


def delete_source(conn: sqlite3.Connection, name: str) -> None:
    conn.execute("DELETE FROM graph_sources WHERE name = ?", (name,))


class GraphWriter:
    """Buffers node, edge and reference rows and writes them with one ``executemany`` each.

    Node and reference ids are given here (the sync holds the write lock), so an edge or a
    reference can point at a node, and a reference be resolved, before the buffer is
    flushed. ``flush`` writes nodes first: references and edges point at them.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._nodes: list[tuple] = []
        self._node_ids: dict[str, int] = {}  # key -> id, for the buffered nodes
        self._next_node: int | None = None  # read when first needed: add_node may write between flushes
        self._edges: list[tuple] = []
        self._refs: list[tuple] = []
        self._next_ref = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM graph_refs").fetchone()[0]
        self._origins: dict[int, str] = {}  # node id -> origin, for the nodes this writer made

    def node(
        self,
        kind: str,
        key: str,
        name: str,
        *,
        origin: str,
        qualname: str = "",
        path: str | None = None,
        lines: tuple[int | None, int | None] = (None, None),
        fact_id: int | None = None,
    ) -> int:
        """Like ``add_node`` (the first node with a key wins), for keys no other origin can hold."""
        known = self._node_ids.get(key)
        if known is not None:
            return known
        if self._next_node is None:
            self._next_node = self.conn.execute("SELECT coalesce(max(id), 0) + 1 FROM graph_nodes").fetchone()[0]
        node_id = self._next_node
        self._next_node += 1
        self._node_ids[key] = node_id
        self._origins[node_id] = origin
        stored = "" if origin == path else origin  # '': the node's path (migration 0018)
        self._nodes.append((node_id, kind, key, name, qualname, path, lines[0], lines[1], fact_id, stored))
        return node_id

    def edge(
        self,
        src: int,
        dst: int,
        type_: str,
        link: str,
        *,
        source: tuple[str, str, str | None],
        origin: str,
        line: int | None = None,
        ref_id: int | None = None,
    ) -> None:
        if src == dst:
            return
        if ref_id is not None:  # the reference holds the source, line and origin
            self._edges.append((src, dst, type_, link, None, None, None, None, None, ref_id))
            return
        kind, uri, fingerprint = source
        fingerprint = None if _derivable_fingerprint(source, origin) else fingerprint
        self._edges.append((src, dst, type_, link, kind, uri, fingerprint, line, origin, None))

    def ref(
        self,
        src: int,
        type_: str,
        target_kind: str,
        target: str,
        *,
        hint: str | None,
        qualified: bool,
        reverse: bool,
        link: str,
        line: int | None,
        source: tuple[str, str, str | None],
        origin: str,
        tested: bool = False,
    ) -> int:
        ref_id = self._next_ref
        self._next_ref += 1
        kind, uri, fingerprint = source
        self._refs.append(
            (
                ref_id,
                "" if self._origins.get(src) == origin else origin,  # '': the source node's (0017)
                src,
                type_,
                target_kind,
                target,
                hint,
                int(qualified),
                int(reverse),
                link,
                line,
                kind,
                None if uri == f"{origin}:{line}-{line}" else uri,
                None if _derivable_fingerprint(source, origin) else fingerprint,
                int(tested),
            )
        )
        return ref_id

    @property
    def buffered(self) -> int:
        """Rows waiting for ``flush``: a long pass flushes every so often to bound its memory."""
        return len(self._nodes) + len(self._refs) + len(self._edges)

    def flush_nodes(self) -> None:
        if self._nodes:
            self.conn.executemany(
                "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)",
                self._nodes,
            )
        self._nodes, self._node_ids, self._next_node = [], {}, None

    def flush(self) -> int:
        """Write everything buffered; returns the number of edges written."""
        self.flush_nodes()
        if self._refs:
            self.conn.executemany(
                "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, "
                "line, source_kind, source_uri, fingerprint, tested) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                self._refs,
            )
        if self._edges:
            self.conn.executemany(
                "INSERT INTO graph_edges (src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, "
                "ref_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
                self._edges,
            )
        written = len(self._edges)
        self._refs, self._edges = [], []
        return written
