"""``store.graph`` and ``store.graph_write`` on PostgreSQL: the same functions, rows returned as
tuples in the SQLite module's column order (``store.graph`` makes its ``Node``, ``Edge`` and
``RefRow`` of them); every query filters on the handle's project. Rows are stored whole
(migration 0007), so nothing is coalesced at read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.store.postgres.connection import PgConnection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NODE_COLUMNS = "id, kind, key, name, qualname, path, line_start, line_end, fact_id"
_N = ", ".join(f"n.{c.strip()}" for c in NODE_COLUMNS.split(","))
NEAR_NODE = ", ".join(f"m.{c.strip()}" for c in NODE_COLUMNS.split(","))
_LINK_ORDER = "CASE e.link WHEN 'declared' THEN 0 WHEN 'extracted' THEN 1 ELSE 2 END"
# ``store.graph.EDGE_TIES``: content before ids, compared byte by byte as SQLite does.
EDGE_TIES = 'n.key COLLATE "C", e.source_uri COLLATE "C", coalesce(e.line, -1), e.id'
_LOOKUPS = {  # store.graph._LOOKUPS, in PostgreSQL's SQL
    "key": "key = %s",
    "fact_id": "fact_id = %s",
    "file_path": "path = %s AND kind IN ('file', 'decision')",
    "record_name": "name = %s AND kind IN ('decision', 'task', 'evidence', 'verdict')",
    "decision_name": "name = %s AND kind = 'decision'",
    "qualname": "qualname = %s AND kind IN ('symbol', 'file')",
    "qualname_suffix": "kind = 'symbol' AND qualname ILIKE %s",
    "symbol_name": "name = %s AND kind = 'symbol'",
    "commit_prefix": "kind = 'commit' AND key ILIKE %s",
    "path_suffix": "kind IN ('file', 'decision') AND path ILIKE %s",
    "name_nocase": "lower(name) = lower(%s) AND kind IN ('decision', 'task', 'symbol')",
}


def like(text: str) -> str:
    """``text`` matched literally by ``LIKE`` (backslash is PostgreSQL's default escape)."""
    return re.sub(r"([\\%_])", r"\\\1", text)


# -- reading -------------------------------------------------------------------------------


def graph_built(conn: PgConnection) -> bool:
    return conn.execute("SELECT 1 FROM graph_edges WHERE project = %s LIMIT 1", (conn.project,)).fetchone() is not None


def nodes_by(conn: PgConnection, lookup: str, value: str | int, *, limit: int) -> list[tuple[Any, ...]]:
    match lookup:
        case "qualname_suffix":
            value = "%." + like(str(value))
        case "path_suffix":
            value = "%/" + like(str(value))
        case "commit_prefix":
            value = f"commit:{like(str(value))}%"
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND {_LOOKUPS[lookup]} ORDER BY id LIMIT %s",
        (conn.project, value, limit),
    ).fetchall()


def edges_of(conn: PgConnection, node_id: int) -> list[tuple[Any, ...]]:
    """(forward, edge id, type, link, source kind, source uri, fingerprint, line, *other node)
    for the outgoing then incoming edges of ``node_id``, by type, link strength, then content
    (``EDGE_TIES``)."""
    return conn.execute(
        "SELECT e.forward, e.id, e.type, e.link, e.source_kind, e.source_uri, e.fingerprint, e.line, "
        f"{_N} FROM (SELECT true AS forward, dst AS far, * FROM graph_edges WHERE project = %s AND src = %s "
        "UNION ALL SELECT false, src, * FROM graph_edges WHERE project = %s AND dst = %s) e "
        "JOIN graph_nodes n ON n.id = e.far "
        f'ORDER BY e.forward DESC, e.type COLLATE "C", {_LINK_ORDER}, {EDGE_TIES}',
        (conn.project, node_id, conn.project, node_id),
    ).fetchall()


def edges_near(conn: PgConnection, start_ids: Sequence[int], depth: int, limit: int) -> list[tuple[Any, ...]]:
    """``edges_of`` for the nodes within ``depth`` edges of the starts (either direction), the
    nearest ``limit`` of them, in one statement: (near node, forward, edge fields, far node), by
    near node then as ``edges_of`` (a node without edges: one row, the rest NULL). A recursive
    CTE, bounded by the depth, cycle-safe (``UNION`` keeps one row per node and depth) and read
    breadth-first: the recursion stops once ``limit`` rows are read."""
    return conn.execute(
        "WITH RECURSIVE reach (id, depth) AS ("
        "  SELECT unnest(%s::bigint[]), 0"
        "  UNION"
        "  SELECT nb.id, r.depth + 1 FROM reach r CROSS JOIN LATERAL ("
        "    SELECT dst AS id FROM graph_edges WHERE project = %s AND src = r.id"
        "    UNION ALL SELECT src FROM graph_edges WHERE project = %s AND dst = r.id) nb"
        "  WHERE r.depth < %s"
        "), near AS (SELECT DISTINCT id FROM (SELECT id FROM reach LIMIT %s) first_rows) "
        f"SELECT {NEAR_NODE}, e.forward, e.id, e.type, e.link, e.source_kind, e.source_uri, e.fingerprint, e.line, "
        f"{_N} FROM near JOIN graph_nodes m ON m.id = near.id AND m.project = %s LEFT JOIN LATERAL ("
        "  SELECT true AS forward, dst AS far, * FROM graph_edges WHERE project = %s AND src = near.id"
        "  UNION ALL SELECT false, src, * FROM graph_edges WHERE project = %s AND dst = near.id) e ON true "
        "LEFT JOIN graph_nodes n ON n.id = e.far "
        f'ORDER BY m.id, e.forward DESC, e.type COLLATE "C", {_LINK_ORDER}, {EDGE_TIES}',
        (list(start_ids), conn.project, conn.project, depth, limit, conn.project, conn.project, conn.project),
    ).fetchall()


def has_nodes(conn: PgConnection) -> bool:
    return conn.execute("SELECT 1 FROM graph_nodes WHERE project = %s LIMIT 1", (conn.project,)).fetchone() is not None


def counts(conn: PgConnection) -> tuple[int, int]:
    row = conn.execute(
        "SELECT (SELECT count(*) FROM graph_nodes WHERE project = %s), "
        "(SELECT count(*) FROM graph_edges WHERE project = %s)",
        (conn.project, conn.project),
    ).fetchone()
    return int(row[0]), int(row[1])


def origins_present(conn: PgConnection, origins: Sequence[str]) -> set[str]:
    wanted = list(origins)
    return {
        r[0]
        for r in conn.execute(
            "SELECT origin FROM graph_nodes WHERE project = %s AND origin = ANY(%s) "
            "UNION SELECT origin FROM graph_refs WHERE project = %s AND origin = ANY(%s)",
            (conn.project, wanted, conn.project, wanted),
        )
    }


def node_exists(conn: PgConnection, key: str) -> bool:
    return (
        conn.execute("SELECT 1 FROM graph_nodes WHERE project = %s AND key = %s", (conn.project, key)).fetchone()
        is not None
    )


def nodes_of_origin(conn: PgConnection, origin: str) -> list[tuple[str, str, str, str | None]]:
    return [
        tuple(r)
        for r in conn.execute(
            "SELECT kind, name, qualname, path FROM graph_nodes WHERE project = %s AND origin = %s",
            (conn.project, origin),
        )
    ]


def nodes_by_id(conn: PgConnection, ids: Sequence[int]) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND id = ANY(%s)", (conn.project, list(ids))
    ).fetchall()


def refs_targeting(conn: PgConnection, kind: str, target: str) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT id FROM graph_refs WHERE project = %s AND target_kind = %s AND target = %s ORDER BY id",
            (conn.project, kind, target),
        )
    ]


def refs_targeting_many(conn: PgConnection, by_kind: dict[str, list[str]]) -> list[int]:
    found: set[int] = set()
    for kind, targets in by_kind.items():
        found.update(
            r[0]
            for r in conn.execute(
                "SELECT r.id FROM unnest(%s::text[]) AS t(target) JOIN graph_refs r ON r.target = t.target "
                "WHERE r.project = %s AND r.target_kind = %s",
                (targets, conn.project, kind),
            )
        )
    return sorted(found)


def ref_rows(conn: PgConnection, ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """``RefRow`` fields, by id: the references, then the paths of the nodes they start from,
    each joined to the ids given as a table. In a cold sync's transaction the planner's
    statistics predate the rows just written: it scanned every project's references testing
    ``id = ANY(…)`` (the whole array) on each, 0.6–0.9 s per 5,000 references on Django."""
    rows = conn.execute(
        "SELECT r.id, r.src, r.type, r.target_kind, r.target, r.hint, r.qualified, r.reverse, r.link, r.line, "
        "r.source_kind, r.source_uri, r.fingerprint, r.origin, r.tested "
        "FROM unnest(%s::bigint[]) AS i(id) JOIN graph_refs r ON r.id = i.id WHERE r.project = %s ORDER BY r.id",
        (list(ids), conn.project),
    ).fetchall()
    paths = dict(
        conn.execute(
            "SELECT n.id, n.path FROM unnest(%s::bigint[]) AS i(id) JOIN graph_nodes n ON n.id = i.id "
            "WHERE n.project = %s",
            (list({row[1] for row in rows}), conn.project),
        ).fetchall()
    )
    return [(*row[:14], paths[row[1]], row[14]) for row in rows]


def method_candidates(conn: PgConnection, name: str) -> list[tuple[int, str | None, str]]:
    rows = conn.execute(
        "SELECT id, path, qualname, key FROM graph_nodes WHERE project = %s AND name = %s AND kind = 'symbol' "
        "ORDER BY id",
        (conn.project, name),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows if "." in r[3].rsplit(":", 1)[-1]]


def file_nodes(conn: PgConnection) -> list[tuple[int, str | None, str]]:
    rows = conn.execute(
        "SELECT id, path, qualname FROM graph_nodes WHERE project = %s AND kind = 'file' ORDER BY id", (conn.project,)
    ).fetchall()
    return [(int(r[0]), r[1], r[2]) for r in rows]


def candidates(conn: PgConnection, kind: str, target: str) -> list[tuple[int, str | None, str]]:
    args: tuple[str, ...]
    match kind:
        case "file":
            where, args = "path = %s AND kind IN ('file', 'decision')", (target,)
        case "stem":
            where = "kind = 'file' AND (path = %s OR path LIKE %s OR path LIKE %s OR path = %s)"
            args = (target, like(target) + ".%", like(target) + "/index.%", target + "/mod.rs")
        case "module":
            where, args = "qualname = %s AND kind = 'file'", (target,)
        case _:
            where, args = "name = %s AND kind = %s", (target, kind)
    return [
        (r[0], r[1], r[2])
        for r in conn.execute(
            f"SELECT id, path, qualname FROM graph_nodes WHERE project = %s AND {where} ORDER BY id",
            (conn.project, *args),
        )
    ]


# ``candidates_many``: the column a target kind is matched against, and the rest of the filter.
_MANY = {
    "method": ("name", "kind = 'symbol'"),
    "file": ("path", "kind IN ('file', 'decision')"),
    "module": ("qualname", "kind = 'file'"),
}  # each filter tests the node's kind only: written after `n.`


def candidates_many(conn: PgConnection, by_kind: dict[str, list[str]]) -> list[tuple[Any, ...]]:
    """(kind, target, id, path, qualname) of the candidates of every target, by kind; one query
    per kind (``store.graph_refs.candidates_many``)."""
    found: list[tuple[Any, ...]] = []
    for kind, targets in by_kind.items():
        if kind == "stem":
            rows = conn.execute(
                "SELECT t.target, n.id, n.path, n.qualname "
                "FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(target, dotted, indexed) "
                "JOIN graph_nodes n ON n.project = %s AND n.kind = 'file' "
                "AND (n.path = t.target OR n.path LIKE t.dotted OR n.path LIKE t.indexed "
                "OR n.path = t.target || '/mod.rs') ORDER BY n.id",
                (
                    targets,
                    [like(t) + ".%" for t in targets],
                    [like(t) + "/index.%" for t in targets],
                    conn.project,
                ),
            ).fetchall()
            found += [(kind, *row) for row in rows]
            continue
        column, where = _MANY.get(kind, ("name", "kind = %s"))
        extra = () if kind in _MANY else (kind,)
        rows = conn.execute(  # the targets as a table (``ref_rows`` says why)
            f"SELECT n.{column}, n.id, n.path, n.qualname, n.key "
            f"FROM unnest(%s::text[]) AS t(target) JOIN graph_nodes n ON n.{column} = t.target "
            f"WHERE n.project = %s AND n.{where} ORDER BY n.id",
            (targets, conn.project, *extra),
        ).fetchall()
        found += [(kind, *row[:4]) for row in rows if kind != "method" or "." in row[4].rsplit(":", 1)[-1]]
    return found


def ref_ids(conn: PgConnection) -> list[int]:
    return [r[0] for r in conn.execute("SELECT id FROM graph_refs WHERE project = %s ORDER BY id", (conn.project,))]


def source_states(conn: PgConnection) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT name, size, mtime_ns, fingerprint, cursor FROM graph_sources WHERE project = %s", (conn.project,)
    ).fetchall()
