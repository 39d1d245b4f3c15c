"""Graph rows written inside the sync's transaction: nodes, references, edges and the state of
non-file graph sources (``store.graph`` reads them)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from kenning.store.db import in_batches
from kenning.store.graph import RefRow, SourceState
from kenning.store.postgres import graph_write as pg
from kenning.store.postgres.connection import is_pg


def _derivable_fingerprint(source: tuple[str, str, str | None], origin: str) -> bool:
    """True for a file row whose fingerprint is its origin file's (the manifest's): stored NULL."""
    kind, uri, _ = source
    return kind == "file" and uri.startswith(origin) and uri[len(origin) : len(origin) + 1] in (":", "#", "")


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
    if is_pg(conn):
        return pg.add_node(
            conn, kind, key, name, origin=origin, qualname=qualname, path=path, lines=lines, fact_id=fact_id
        )
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
    if is_pg(conn):
        return pg.delete_origin(conn, origin, nodes=nodes)
    conn.execute("DELETE FROM graph_refs WHERE origin = ? AND origin <> ''", (origin,))
    if nodes:  # a node's origin is '' when it is its path (migration 0018)
        conn.execute("DELETE FROM graph_nodes WHERE origin = ? AND origin <> ''", (origin,))
        conn.execute("DELETE FROM graph_nodes WHERE path = ? AND origin = ''", (origin,))


def delete_nodes(conn: sqlite3.Connection, keys: Sequence[str]) -> None:
    """Drop the nodes of these keys; their references and edges go with them (cascades)."""
    if is_pg(conn):
        return pg.delete_nodes(conn, keys)
    for chunk in in_batches(keys):
        conn.execute(f"DELETE FROM graph_nodes WHERE key IN ({','.join('?' * len(chunk))})", chunk)


def delete_ref_edges(conn: sqlite3.Connection, ref_ids: Sequence[int]) -> None:
    """Drop the edges resolved from these references (before they are resolved again)."""
    if is_pg(conn):
        return pg.delete_ref_edges(conn, ref_ids)
    for chunk in in_batches(ref_ids):
        conn.execute(f"DELETE FROM graph_edges WHERE ref_id IN ({','.join('?' * len(chunk))})", chunk)


@contextmanager
def edge_indexes_built_after(conn: sqlite3.Connection) -> Iterator[None]:
    """Around the writing of many edges at once (a cold sync resolving every reference): the
    indexes of ``graph_edges`` dropped before and built again after, from their definitions as
    the schema holds them (the migrations stay their only copy), inside the caller's transaction,
    so a sync stopped meanwhile rolls back to the indexes as they were. SQLite builds an index
    over every row at once (one sort) for less than it maintains it row by row (Django: 191,732
    edges, 3 indexes). PostgreSQL unchanged: there a dropped index locks readers out of the
    table until the commit."""
    if is_pg(conn) or not conn.in_transaction:
        yield
        return
    indexes = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'graph_edges' AND sql IS NOT NULL "
        "ORDER BY name"
    ).fetchall()
    for name, _ in indexes:
        conn.execute(f'DROP INDEX "{name}"')
    yield  # on an exception the caller's transaction rolls back, the indexes with it
    for _, sql in indexes:
        conn.execute(sql)


def touch_source(conn: sqlite3.Connection, name: str, size: int, mtime_ns: int) -> None:
    if is_pg(conn):
        return pg.touch_source(conn, name, size, mtime_ns)
    conn.execute("UPDATE graph_sources SET size = ?, mtime_ns = ? WHERE name = ?", (size, mtime_ns, name))


def put_source(conn: sqlite3.Connection, state: SourceState, *, stamp: str) -> None:
    if is_pg(conn):
        return pg.put_source(
            conn, (state.name, state.size, state.mtime_ns, state.fingerprint, state.cursor), stamp=stamp
        )
    conn.execute(
        "INSERT OR REPLACE INTO graph_sources (name, size, mtime_ns, fingerprint, cursor, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (state.name, state.size, state.mtime_ns, state.fingerprint, state.cursor, stamp),
    )


def delete_source(conn: sqlite3.Connection, name: str) -> None:
    if is_pg(conn):
        return pg.delete_source(conn, name)
    conn.execute("DELETE FROM graph_sources WHERE name = ?", (name,))


class GraphWriter:
    """Buffers node, edge and reference rows and writes them with one ``executemany`` each.

    Node and reference ids are given here (the sync holds the write lock), so an edge or a
    reference can point at a node, and a reference be resolved, before the buffer is
    flushed. ``flush`` writes nodes first: references and edges point at them.

    Rows of one shape are written by a statement that names only the columns they fill:
    Python 3.11's ``sqlite3`` binds ``None`` through its adaptation protocol (an attribute
    look-up that fails, per parameter), about 0.37 µs each, as much as a whole row of five
    integers and strings; a column left out of the ``INSERT`` is NULL for nothing. So an edge
    resolved from a reference is written as its five columns (Django: 162,079 of them, 0.48 →
    0.25 s), a file's reference with a line without its URI and fingerprint. Each shape has
    its own buffer, written in a fixed order (references: the others, then those with a line;
    edges: those with their source, then the resolved); a row given after one of a shape written
    later has what is buffered written first, so the rows keep the order they were given in
    (edge ids follow it; reference ids, given here, are written ascending).
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        # PostgreSQL: its own buffer (ids from shared sequences, rows stored whole), same methods.
        self._pg = pg.GraphWriter(conn) if is_pg(conn) else None
        if self._pg is not None:
            return
        self._nodes: list[tuple] = []
        self._node_ids: dict[str, int] = {}  # key -> id, for the buffered nodes
        self._next_node: int | None = None  # read when first needed: add_node may write between flushes
        self._edges: list[tuple] = []  # every column but ref_id
        self._ref_edges: list[tuple] = []  # (src, dst, type, link, ref_id): resolved from a reference
        self._refs: list[tuple] = []
        self._line_refs: list[tuple] = []  # a file's references with a line: no URI, no fingerprint
        self._next_ref = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM graph_refs").fetchone()[0]
        self._origins: dict[int, str] = {}  # node id -> origin, for the nodes this writer made
        self._written = 0  # edges written by ``_switch`` since the last ``flush``

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
        if self._pg is not None:
            return self._pg.node(
                kind, key, name, origin=origin, qualname=qualname, path=path, lines=lines, fact_id=fact_id
            )
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
        if self._pg is not None:
            return self._pg.edge(src, dst, type_, link, source=source, origin=origin, line=line, ref_id=ref_id)
        if src == dst:
            return
        if ref_id is not None:  # the reference holds the source, line and origin
            self._ref_edges.append((src, dst, type_, link, ref_id))
            return
        if self._ref_edges:
            self._switch()  # written after ``_edges``: written first, to keep the order given
        kind, uri, fingerprint = source
        fingerprint = None if _derivable_fingerprint(source, origin) else fingerprint
        self._edges.append((src, dst, type_, link, kind, uri, fingerprint, line, origin))

    def defines(self, file: int, symbol: int, *, span: str, fingerprint: str | None, origin: str, line: int) -> None:
        """The ``defines`` edge from ``file`` to a symbol it holds, written where ``span`` (its
        ``path:start-end``) is the symbol node's own: PostgreSQL stores it, SQLite derives it
        where the graph is read (migration 0025)."""
        if self._pg is not None:
            source = ("file", span, fingerprint)
            self._pg.edge(file, symbol, "defines", "declared", source=source, origin=origin, line=line)

    # Whether ``ref_edge`` is handed the ``tested_by`` edge a test's call also gives (``Resolver``):
    # SQLite derives it from the call where the graph is read (migration 0025), PostgreSQL stores it.
    @property
    def stores_mirrors(self) -> bool:
        return self._pg is not None

    @property
    def ref_sources(self) -> bool:
        """Whether ``ref_edge`` needs the reference's source, line and origin (``ref_rows``
        ``sources``): PostgreSQL stores them on the edge, SQLite reads them from the reference."""
        return self._pg is not None

    def ref_edge(self, src: int, dst: int, type_: str, link: str, ref: RefRow) -> None:
        """``edge`` resolved from the stored reference ``ref`` (its source, line and origin), for
        the many a resolution writes: SQLite keeps them on the reference alone."""
        if self._pg is not None:
            assert ref.source_kind is not None and ref.source_uri is not None and ref.origin is not None
            source = (ref.source_kind, ref.source_uri, ref.fingerprint)
            return self._pg.edge(src, dst, type_, link, source=source, origin=ref.origin, line=ref.line, ref_id=ref.id)
        if src != dst:
            self._ref_edges.append((src, dst, type_, link, ref.id))
        return None

    def file_ref(
        self,
        src: int,
        origin: str,
        fingerprint: str | None,
        ref: tuple[str, str, str, int | None, str | None, bool, bool, str, bool],
    ) -> int:
        """``ref`` for a reference a file makes from its own node (``src``) at its own ``line``:
        its source ``("file", "<origin>:<line>-<line>" or "<origin>", fingerprint)``, stored
        as ``ref`` would store it without the work of telling which parts derive from the
        origin (a cold sync writes one per import, call and link). ``ref``: (type, target
        kind, target, line, hint, qualified, reverse, link, tested)."""
        type_, target_kind, target, line, hint, qualified, reverse, link, tested = ref
        if self._pg is not None:
            return self._pg.ref(
                src,
                type_,
                target_kind,
                target,
                hint=hint,
                qualified=qualified,
                reverse=reverse,
                link=link,
                line=line,
                source=("file", f"{origin}:{line}-{line}" if line else origin, fingerprint),
                origin=origin,
                tested=tested,
            )
        ref_id = self._next_ref
        self._next_ref += 1
        stored = "" if self._origins.get(src) == origin else origin
        head = (ref_id, stored, src, type_, target_kind, target, hint, int(qualified), int(reverse), link, line)
        if not line:  # the URI is the origin; the fingerprint is the origin's (``_derivable_fingerprint``)
            if self._line_refs:
                self._switch()  # written after ``_refs``: written first, to keep the id order
            self._refs.append((*head, "file", origin, None, int(tested)))
            return ref_id
        # The URI derives from the origin and the line, the fingerprint from the origin: both NULL.
        self._line_refs.append((*head, int(tested)))
        return ref_id

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
        if self._pg is not None:
            return self._pg.ref(
                src,
                type_,
                target_kind,
                target,
                hint=hint,
                qualified=qualified,
                reverse=reverse,
                link=link,
                line=line,
                source=source,
                origin=origin,
                tested=tested,
            )
        if self._line_refs:
            self._switch()  # written after ``_refs``: written first, to keep the id order
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

    def ref_edges(self, edges: Sequence[tuple[int, int, str, str, int]]) -> None:
        """Edges another resolver made from stored references, as ``ref_edge`` buffers them
        ((src, dst, type, link, ref id); SQLite: a cold sync's helper process, ``graph.helper``)."""
        if self._pg is not None:
            raise NotImplementedError("PostgreSQL resolves its references in one process")
        self._ref_edges.extend(edges)

    @property
    def buffered(self) -> int:
        """Rows waiting for ``flush``: a long pass flushes every so often to bound its memory."""
        if self._pg is not None:
            return self._pg.buffered
        return len(self._nodes) + len(self._refs) + len(self._line_refs) + len(self._edges) + len(self._ref_edges)

    def flush_nodes(self) -> None:
        if self._pg is not None:
            return self._pg.flush_nodes()
        if self._nodes:
            self.conn.executemany(
                "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)",
                self._nodes,
            )
        self._nodes, self._node_ids, self._next_node = [], {}, None

    def _switch(self) -> None:
        """Write what is buffered before rows of another shape are buffered (their order kept)."""
        self._written += self._write()

    def flush(self) -> int:
        """Write everything buffered; returns the number of edges written since the last flush."""
        if self._pg is not None:
            return self._pg.flush()
        written, self._written = self._written + self._write(), 0
        return written

    def _write(self) -> int:
        self.flush_nodes()
        if self._refs:
            self.conn.executemany(
                "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, "
                "line, source_kind, source_uri, fingerprint, tested) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                self._refs,
            )
        if self._line_refs:
            self.conn.executemany(
                "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, "
                "line, source_kind, tested) VALUES (?,?,?,?,?,?,?,?,?,?,?,'file',?)",
                self._line_refs,
            )
        if self._edges:
            self.conn.executemany(
                "INSERT INTO graph_edges (src, dst, type, link, source_kind, source_uri, fingerprint, line, origin) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                self._edges,
            )
        if self._ref_edges:
            self.conn.executemany(
                "INSERT INTO graph_edges (src, dst, type, link, ref_id) VALUES (?,?,?,?,?)", self._ref_edges
            )
        written = len(self._edges) + len(self._ref_edges)
        self._refs, self._line_refs, self._edges, self._ref_edges = [], [], [], []
        return written
