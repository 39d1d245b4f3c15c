"""What resolution reads of the graph's rows: the references (by id, by target, all of them) and
the nodes a reference's target may name (``candidates``), on either engine. Which node a
reference resolves to is decided in ``kenning.graph``; nodes, edges and source states are read in
``store.graph``."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kenning.store.db import in_batches
from kenning.store.graph import Candidate, RefRow
from kenning.store.postgres import graph as pg
from kenning.store.postgres.connection import is_pg

# Graph rows leave out what they repeat (migration 0013): a reference's URI is
# ``origin:line-line`` when NULL; a file row's fingerprint is the manifest's for its origin; an
# edge resolved from a reference takes its source, line and origin from it (edges are read
# through the view ``graph_edges_sourced``, which spells them out).
# A reference's origin is stored as '' when it is its source node's (migration 0017), a node's
# when it is the node's path (0018).
_REF_ORIGIN = "coalesce(nullif(r.origin, ''), nullif(n.origin, ''), n.path)"
_REF_URI = f"coalesce(r.source_uri, {_REF_ORIGIN} || ':' || r.line || '-' || r.line)"


def refs_targeting(conn: sqlite3.Connection, kind: str, target: str) -> list[int]:
    """Ids of the references naming ``(kind, target)``."""
    if is_pg(conn):
        return pg.refs_targeting(conn, kind, target)
    return [
        r[0] for r in conn.execute("SELECT id FROM graph_refs WHERE target_kind = ? AND target = ?", (kind, target))
    ]


def refs_targeting_many(conn: sqlite3.Connection, keys: Sequence[tuple[str, str]]) -> list[int]:
    """Ids of the references naming any of ``keys`` (``(kind, target)``), ascending: one query
    per kind and chunk of targets where ``refs_targeting`` costs one per key."""
    if is_pg(conn):
        return pg.refs_targeting_many(conn, _by_kind(keys))
    found: set[int] = set()
    for kind, targets in _by_kind(keys).items():
        for chunk in in_batches(targets):
            found.update(
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM graph_refs WHERE target_kind = ? AND target IN ({','.join('?' * len(chunk))})",
                    (kind, *chunk),
                )
            )
    return sorted(found)


def _by_kind(keys: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    by_kind: dict[str, list[str]] = {}
    for kind, target in dict.fromkeys(keys):
        by_kind.setdefault(kind, []).append(target)
    return by_kind


def ref_rows(conn: sqlite3.Connection, ids: Sequence[int], *, sources: bool = True) -> list[RefRow]:
    """The references with these ids, by id (resolution writes their edges in this order: both
    engines number the edges alike, and a walk breaks ties between edges by id).
    ``sources=False``: the source kind, URI, fingerprint and origin may be left None, for a
    writer that keeps them on the reference alone (``GraphWriter.ref_sources``); SQLite then
    reads neither the manifest nor the origins (a cold sync reads back every reference)."""
    if is_pg(conn):
        return [RefRow._make(r) for r in pg.ref_rows(conn, ids)]
    found: list[RefRow] = []
    for chunk in in_batches(ids):
        found += _ref_rows(conn, f"r.id IN ({','.join('?' * len(chunk))})", chunk, sources)
    found.sort(key=lambda r: r.id)
    return found


def ref_rows_between(conn: sqlite3.Connection, first: int, last: int) -> list[RefRow]:
    """``ref_rows(sources=False)`` of the references whose ids run from ``first`` to ``last``,
    read along the table (a cold sync's helper reads its share back: ``graph.helper``)."""
    if is_pg(conn):
        return ref_rows(conn, range(first, last + 1), sources=False)
    return sorted(_ref_rows(conn, "r.id BETWEEN ? AND ?", (first, last), False), key=lambda r: r.id)


def _ref_rows(conn: sqlite3.Connection, where: str, params: Sequence[object], sources: bool) -> list[RefRow]:
    columns = (
        f"r.source_kind, {_REF_URI}, coalesce(r.fingerprint, m.fingerprint), {_REF_ORIGIN}"
        if sources
        else "NULL, NULL, NULL, NULL"
    )
    manifest = f"LEFT JOIN manifest m ON m.path = {_REF_ORIGIN} " if sources else ""
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples: a cold sync's helper reads about 60,000 back (``graph.helper``)
    return [
        RefRow._make((*row[:6], bool(row[6]), bool(row[7]), *row[8:15], bool(row[15])))
        for row in cursor.execute(
            "SELECT r.id, r.src, r.type, r.target_kind, r.target, r.hint, r.qualified, r.reverse, r.link, "
            f"r.line, {columns}, n.path, r.tested FROM graph_refs r JOIN graph_nodes n ON n.id = r.src "
            f"{manifest}WHERE {where}",
            params,
        )
    ]


def method_candidates(conn: sqlite3.Connection, name: str) -> list[Candidate]:
    """Symbols named ``name`` that are methods (their key's qualname is dotted), by id."""
    if is_pg(conn):
        return pg.method_candidates(conn, name)
    rows = conn.execute(
        "SELECT id, path, qualname, key FROM graph_nodes WHERE name = ? AND kind = 'symbol' ORDER BY id",
        (name,),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows if "." in r[3].rsplit(":", 1)[-1]]


def candidates(conn: sqlite3.Connection, kind: str, target: str) -> list[Candidate]:
    """The nodes a reference target names: a path (``file``), a path without suffix
    (``stem``), a dotted module (``module``), or a name of another kind; by id."""
    if is_pg(conn):
        return pg.candidates(conn, kind, target)
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
                    "(path = ? OR path GLOB ? OR path GLOB ? OR path = ?)"
                ),  # ``x.py``, ``x/index.ts``, Rust's ``x/mod.rs`` (``graph.aliases.is_folder_module``)
                (target, _glob(target) + ".*", _glob(target) + "/index.*", target + "/mod.rs"),
            )
        case "module":
            sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE qualname = ? AND kind = 'file'", (target,)
        case _:
            sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE name = ? AND kind = ?", (target, kind)
    return [tuple(r) for r in conn.execute(sql + " ORDER BY id", args)]


# ``candidates_many``: per target kind, the column a target is matched against and the rest of
# the filter; ``method`` is ``method_candidates``, any kind not named here a node name of that kind.
_MANY = {
    "method": ("name", "kind = 'symbol'"),
    "file": ("path", "kind IN ('file', 'decision')"),
    "module": ("qualname", "kind = 'file'"),
}


def candidates_many(
    conn: sqlite3.Connection, keys: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], list[Candidate]]:
    """``candidates`` of many ``(kind, target)`` keys at once (kind ``method``:
    ``method_candidates``), each by id; a key that names nothing maps to ``[]``. One query per
    kind and chunk of targets (PostgreSQL: one per kind), where the one-key look-ups cost one
    each: resolution asks for every target of a batch of references together."""
    found: dict[tuple[str, str], list[Candidate]] = {key: [] for key in keys}
    by_kind = _by_kind(keys)
    if is_pg(conn):
        for kind, target, *row in pg.candidates_many(conn, by_kind):
            found[(kind, target)].append(tuple(row))
        return found
    for kind, targets in by_kind.items():
        if kind == "stem":  # path globs: one query each
            for target in targets:
                found[(kind, target)] = candidates(conn, kind, target)
            continue
        column, where = _MANY.get(kind, ("name", "kind = ?"))
        extra = () if kind in _MANY else (kind,)
        for chunk in in_batches(targets):
            rows = conn.execute(
                f"SELECT id, path, qualname, {column}, key FROM graph_nodes "
                f"WHERE {where} AND {column} IN ({','.join('?' * len(chunk))}) ORDER BY id",
                (*extra, *chunk),
            )
            for node_id, path, qualname, target, key in rows:
                if kind != "method" or "." in key.rsplit(":", 1)[-1]:
                    found[(kind, target)].append((node_id, path, qualname))
    return found


def ref_ids(conn: sqlite3.Connection) -> list[int]:
    """The ids of every reference, ascending (a cold sync resolves them all at once)."""
    if is_pg(conn):
        return pg.ref_ids(conn)
    return [r[0] for r in conn.execute("SELECT id FROM graph_refs ORDER BY id")]


def _glob(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)
