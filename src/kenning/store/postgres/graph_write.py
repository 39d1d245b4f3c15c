"""``store.graph_write`` on PostgreSQL: the graph's writes inside the sync's transaction, every
row tagged with the handle's project and stored whole (migration 0007).

``GraphWriter`` hands out node and reference ids before the rows are written (an edge or a
reference may point at a buffered node): it reserves them from the tables' sequences, shared by
every project, in blocks, so two projects' syncs never collide and a project's ids still grow
in the order its rows were made. ``flush`` writes with ``COPY``.
"""

from __future__ import annotations

from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

NODE_ROW = "id, project, kind, key, name, qualname, path, line_start, line_end, fact_id, origin"
REF_ROW = (
    "id, project, origin, src, type, target_kind, target, hint, qualified, reverse, link, line, source_kind, "
    "source_uri, fingerprint, tested"
)
EDGE_ROW = "project, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id"
BLOCK_FIRST, BLOCK_MAX = 16, 4096  # ids reserved at once: a small sync wastes few, a cold one asks rarely


def add_node(
    conn: PgConnection,
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
    row = conn.execute(
        "INSERT INTO graph_nodes (project, kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (project, key) DO NOTHING RETURNING id",
        (conn.project, kind, key, name, qualname, path, lines[0], lines[1], fact_id, origin),
    ).fetchone()
    if row is None:
        row = conn.execute("SELECT id FROM graph_nodes WHERE project = %s AND key = %s", (conn.project, key)).fetchone()
    return int(row[0])


def delete_origin(conn: PgConnection, origin: str, *, nodes: bool = True) -> None:
    conn.execute("DELETE FROM graph_refs WHERE project = %s AND origin = %s", (conn.project, origin))
    if nodes:
        conn.execute("DELETE FROM graph_nodes WHERE project = %s AND origin = %s", (conn.project, origin))


def delete_nodes(conn: PgConnection, keys: Sequence[str]) -> None:
    conn.execute("DELETE FROM graph_nodes WHERE project = %s AND key = ANY(%s)", (conn.project, list(keys)))


def delete_ref_edges(conn: PgConnection, ref_ids: Sequence[int]) -> None:
    conn.execute("DELETE FROM graph_edges WHERE project = %s AND ref_id = ANY(%s)", (conn.project, list(ref_ids)))


def touch_source(conn: PgConnection, name: str, size: int, mtime_ns: int) -> None:
    conn.execute(
        "UPDATE graph_sources SET size = %s, mtime_ns = %s WHERE project = %s AND name = %s",
        (size, mtime_ns, conn.project, name),
    )


def put_source(conn: PgConnection, state: tuple[Any, ...], *, stamp: str) -> None:
    conn.execute(
        "INSERT INTO graph_sources (project, name, size, mtime_ns, fingerprint, cursor, updated_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (project, name) DO UPDATE SET size = EXCLUDED.size, "
        "mtime_ns = EXCLUDED.mtime_ns, fingerprint = EXCLUDED.fingerprint, cursor = EXCLUDED.cursor, "
        "updated_at = EXCLUDED.updated_at",
        (conn.project, *state, stamp),
    )


def delete_source(conn: PgConnection, name: str) -> None:
    conn.execute("DELETE FROM graph_sources WHERE project = %s AND name = %s", (conn.project, name))


class _Ids:
    """Ids reserved from a table's sequence, handed out in order."""

    def __init__(self, conn: PgConnection, table: str) -> None:
        self.conn, self.table = conn, table
        self.free: list[int] = []
        self.block = BLOCK_FIRST

    def take(self) -> int:
        if not self.free:
            rows = self.conn.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                (self.table, self.block),
            ).fetchall()
            self.free = sorted((int(r[0]) for r in rows), reverse=True)
            self.block = min(self.block * 2, BLOCK_MAX)
        return self.free.pop()

    def drop(self) -> None:
        """Forget the ids left: rows written meanwhile by others (``add_node``) come after them."""
        self.free = []


class GraphWriter:
    """``store.graph_write.GraphWriter``'s buffer for a PostgreSQL handle (same methods)."""

    def __init__(self, conn: PgConnection) -> None:
        self.conn = conn
        self._nodes: list[tuple[Any, ...]] = []
        self._node_ids: dict[str, int] = {}
        self._edges: list[tuple[Any, ...]] = []
        self._refs: list[tuple[Any, ...]] = []
        self._node_seq = _Ids(conn, "graph_nodes")
        self._ref_seq = _Ids(conn, "graph_refs")

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
        known = self._node_ids.get(key)
        if known is not None:
            return known
        node_id = self._node_seq.take()
        self._node_ids[key] = node_id
        row = (node_id, self.conn.project, kind, key, name, qualname, path, lines[0], lines[1], fact_id, origin)
        self._nodes.append(row)
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
        if src != dst:
            self._edges.append((self.conn.project, src, dst, type_, link, *source, line, origin, ref_id))

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
        ref_id = self._ref_seq.take()
        self._refs.append(
            (ref_id, self.conn.project, origin, src, type_, target_kind, target, hint, qualified, reverse, link, line)
            + (*source, tested)
        )
        return ref_id

    @property
    def buffered(self) -> int:
        return len(self._nodes) + len(self._refs) + len(self._edges)

    def flush_nodes(self) -> None:
        self.conn.copy("graph_nodes", NODE_ROW, self._nodes)
        self._nodes, self._node_ids = [], {}
        self._node_seq.drop()

    def flush(self) -> int:
        self.flush_nodes()
        self.conn.copy("graph_refs", REF_ROW, self._refs)
        self.conn.copy("graph_edges", EDGE_ROW, self._edges)
        written = len(self._edges)
        self._refs, self._edges = [], []
        return written
