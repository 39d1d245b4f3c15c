"""Graph rows: nodes, references and edges, and the resolution of a reference to its target.

A reference names its target ("calls `rrf_fuse`", "imports `kenning.search`", "touches
`src/a.py`"); resolution finds the node(s) and writes the edge with its ``link``:

- ``declared`` references (imports, links, ledger fields, ADR status lines, commit files)
  keep ``declared``;
- a call or a test reference is ``extracted`` when one target is certain (imported from a
  known module, defined in the same file, or the only symbol of that name called as a plain
  name), ``heuristic`` otherwise (an attribute call, or up to ``MAX_AMBIGUOUS`` homonyms).
"""

from __future__ import annotations

import posixpath
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from kenning.ingest.relations import Ref
from kenning.records import Lifecycle
from kenning.store import facts as fact_store
from kenning.store.db import in_batches

MAX_AMBIGUOUS = 5
Key = tuple[str, str]  # (target kind, target) a node answers to


@dataclass(frozen=True)
class Node:
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


NODE_COLUMNS = "id, kind, key, name, qualname, path, line_start, line_end, fact_id"


def node_from_row(row: sqlite3.Row | tuple) -> Node:
    return Node(*row)


def keys_of(kind: str, name: str, qualname: str, path: str | None) -> set[Key]:
    """The reference targets a node answers to."""
    match kind:
        case "file":
            keys = {("file", path or name), ("stem", _stem(path or name))}
            if PurePosixPath(path or name).stem == "index":
                keys.add(("stem", posixpath.dirname(path or name)))
            return keys | ({("module", qualname)} if qualname else set())
        case "decision":
            return {("decision", name)} | ({("file", path)} if path else set())
        case _:
            return {(kind, name)}


def _stem(path: str) -> str:
    suffix = PurePosixPath(path).suffix
    return path[: -len(suffix)] if suffix else path


def add_node(conn: sqlite3.Connection, kind: str, key: str, name: str, *, origin: str, qualname: str = "",
             path: str | None = None, lines: tuple[int | None, int | None] = (None, None),
             fact_id: int | None = None) -> int:
    cur = conn.execute(
        "INSERT INTO graph_nodes (kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
        "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(key) DO NOTHING RETURNING id",
        (kind, key, name, qualname, path, lines[0], lines[1], fact_id, origin),
    ).fetchone()
    if cur is None:  # the same key from another origin (a commit read twice): keep the first
        return conn.execute("SELECT id FROM graph_nodes WHERE key = ?", (key,)).fetchone()[0]
    return int(cur[0])


class Writer:
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

    def node(self, kind: str, key: str, name: str, *, origin: str, qualname: str = "", path: str | None = None,
             lines: tuple[int | None, int | None] = (None, None), fact_id: int | None = None) -> int:
        """Like ``add_node`` (the first node with a key wins), for keys no other origin can hold:
        those of a file's own nodes (``file:``, ``decision:``, ``symbol:`` + its path) once
        ``delete_origin`` dropped them."""
        known = self._node_ids.get(key)
        if known is not None:
            return known
        if self._next_node is None:
            self._next_node = self.conn.execute("SELECT coalesce(max(id), 0) + 1 FROM graph_nodes").fetchone()[0]
        node_id = self._next_node
        self._next_node += 1
        self._node_ids[key] = node_id
        self._nodes.append((node_id, kind, key, name, qualname, path, lines[0], lines[1], fact_id, origin))
        return node_id

    def edge(self, src: int, dst: int, type_: str, link: str, *, source: tuple[str, str, str | None], origin: str,
             line: int | None = None, ref_id: int | None = None) -> None:
        if src != dst:
            self._edges.append((src, dst, type_, link, *source, line, origin, ref_id))

    def ref(self, src: int, ref: Ref, *, source: tuple[str, str, str | None], origin: str) -> int:
        ref_id = self._next_ref
        self._next_ref += 1
        self._refs.append((ref_id, origin, src, ref.type, ref.target_kind, ref.target, ref.hint, int(ref.qualified),
                           int(ref.reverse), ref.link, ref.line, *source))
        return ref_id

    def flush_nodes(self) -> None:
        if self._nodes:
            self.conn.executemany(
                "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, line_start, line_end, fact_id, origin) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)", self._nodes)
        self._nodes, self._node_ids, self._next_node = [], {}, None

    def flush(self) -> int:
        self.flush_nodes()
        if self._refs:
            self.conn.executemany(
                "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, "
                "line, source_kind, source_uri, fingerprint) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", self._refs)
        if self._edges:
            self.conn.executemany(
                "INSERT INTO graph_edges (src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, "
                "ref_id) VALUES (?,?,?,?,?,?,?,?,?,?)", self._edges)
        written = len(self._edges)
        self._refs, self._edges = [], []
        return written


def delete_origin(conn: sqlite3.Connection, origin: str) -> set[Key]:
    """Drop what ``origin`` produced; returns the keys of the nodes that went away (references
    elsewhere that pointed at them must be resolved again)."""
    gone: set[Key] = set()
    rows = conn.execute("SELECT kind, name, qualname, path FROM graph_nodes WHERE origin = ?", (origin,)).fetchall()
    for kind, name, qualname, path in rows:
        gone |= keys_of(kind, name, qualname, path)
    # Edges need no delete of their own: a resolved edge goes with its reference (ref_id), a
    # `defines` edge with its nodes (both ends belong to the origin).
    conn.execute("DELETE FROM graph_refs WHERE origin = ?", (origin,))
    if rows:
        conn.execute("DELETE FROM graph_nodes WHERE origin = ?", (origin,))
    return gone


def refs_targeting(conn: sqlite3.Connection, keys: Iterable[Key], skip: set[int]) -> list[int]:
    found: list[int] = []
    for kind, target in keys:
        for (ref_id,) in conn.execute(
            "SELECT id FROM graph_refs WHERE target_kind = ? AND target = ?", (kind, target)
        ):
            if ref_id not in skip:
                found.append(ref_id)
    return found


class Resolver:
    """Resolves references in a batch, caching candidate lookups for the batch's duration."""

    def __init__(self, conn: sqlite3.Connection, stamp: str) -> None:
        self.conn = conn
        self.stamp = stamp
        self.writer = Writer(conn)
        self._cache: dict[Key, _Candidates] = {}
        self._superseding: list[tuple[int, int]] = []

    def resolve(self, ref_ids: list[int], *, again: bool = False) -> None:
        if again:
            for chunk in in_batches(ref_ids):
                self.conn.execute(
                    f"DELETE FROM graph_edges WHERE ref_id IN ({','.join('?' * len(chunk))})", chunk
                )
        for chunk in in_batches(ref_ids):
            rows = self.conn.execute(
                "SELECT r.id, r.src, r.type, r.target_kind, r.target, r.hint, r.qualified, r.reverse, r.link, "
                "r.line, r.source_kind, r.source_uri, r.fingerprint, r.origin, n.path "
                f"FROM graph_refs r JOIN graph_nodes n ON n.id = r.src WHERE r.id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            for row in rows:
                self._resolve_one(row)
        self.writer.flush()
        for newer, older in self._superseding:
            mark_superseded(self.conn, newer=newer, older=older, stamp=self.stamp)
        self._superseding = []

    def _resolve_one(self, row: sqlite3.Row) -> None:
        (ref_id, src, type_, kind, target, hint, qualified, reverse, link, line, skind, suri, fp, origin,
         src_path) = tuple(row)
        if kind == "symbol" and qualified and not hint:
            # `obj.get()` on an unknown receiver can only reach a method, never a module-level
            # function that happens to share the name.
            candidates = self._methods(target)
        else:
            candidates = self._candidates(kind, target)
        if kind == "symbol":
            chosen, link = _narrow(candidates, target, hint, bool(qualified), src_path)
        else:
            chosen = candidates.rows[:1]
        for node_id, _, _ in chosen:
            a, b = (node_id, src) if reverse else (src, node_id)
            self.writer.edge(a, b, type_, link, source=(skind, suri, fp), origin=origin, line=line, ref_id=ref_id)
            if type_ == "supersedes":
                self._superseding.append((a, b))

    def _methods(self, target: str) -> _Candidates:
        key = ("method", target)
        if key not in self._cache:
            rows = self.conn.execute(
                "SELECT id, path, qualname, key FROM graph_nodes WHERE name = ? AND kind = 'symbol' ORDER BY id",
                (target,),
            ).fetchall()
            self._cache[key] = _Candidates([(r[0], r[1], r[2]) for r in rows if "." in r[3].rsplit(":", 1)[-1]])
        return self._cache[key]

    def _candidates(self, kind: str, target: str) -> _Candidates:
        key = (kind, target)
        if key not in self._cache:
            match kind:
                case "file":
                    sql, args = ("SELECT id, path, qualname FROM graph_nodes WHERE path = ? "
                                 "AND kind IN ('file', 'decision')"), (target,)
                case "stem":
                    sql, args = ("SELECT id, path, qualname FROM graph_nodes WHERE kind = 'file' AND "
                                 "(path = ? OR path GLOB ? OR path GLOB ?)"), (target, _glob(target) + ".*",
                                                                            _glob(target) + "/index.*")
                case "module":
                    sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE qualname = ? AND kind = 'file'", (target,)
                case _:
                    sql, args = "SELECT id, path, qualname FROM graph_nodes WHERE name = ? AND kind = ?", (target, kind)
            self._cache[key] = _Candidates([tuple(r) for r in self.conn.execute(sql + " ORDER BY id", args)])
        return self._cache[key]


class _Candidates:
    """The nodes a target names, indexed by qualified name and by path."""

    def __init__(self, rows: list[tuple[int, str | None, str]]) -> None:
        self.rows = rows
        self.by_qualname: dict[str, list] = {}
        self.by_path: dict[str | None, list] = {}
        for row in rows:
            self.by_qualname.setdefault(row[2], []).append(row)
            self.by_path.setdefault(row[1], []).append(row)


def _glob(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def _narrow(found: _Candidates, target: str, hint: str | None, qualified: bool,
            src_path: str | None) -> tuple[list, str]:
    cands = found.rows
    if not cands:
        return [], "heuristic"
    if hint:
        exact = found.by_qualname.get(f"{hint}.{target}", [])
        if len(exact) == 1:
            return exact, "extracted"
        hinted = exact or [c for c in cands if c[2].startswith(hint + ".")]
        if len(hinted) == 1:
            return hinted, "extracted"
        cands = hinted or cands
    same = found.by_path.get(src_path, []) if cands is found.rows else [c for c in cands if c[1] == src_path]
    if len(same) == 1:
        return same, "extracted"
    if len(cands) == 1:
        return cands, "heuristic" if qualified else "extracted"
    if len(cands) <= MAX_AMBIGUOUS:
        return cands, "heuristic"
    return [], "heuristic"


def mark_superseded(conn: sqlite3.Connection, *, newer: int, older: int, stamp: str) -> None:
    """The older decision's excerpts stop being served by default (lifecycle superseded)."""
    rows = conn.execute("SELECT id, kind, path, fact_id FROM graph_nodes WHERE id IN (?, ?)", (newer, older)).fetchall()
    by_id = {r[0]: r for r in rows}
    if newer not in by_id or older not in by_id or not by_id[older][2]:
        return
    successor = by_id[newer][3]
    for (fact_id,) in conn.execute(
        "SELECT DISTINCT f.id FROM facts f JOIN locations l ON l.fact_id = f.id "
        "WHERE l.path = ? AND f.lifecycle = 'active'",
        (by_id[older][2],),
    ).fetchall():
        if fact_id != successor:
            fact_store.set_lifecycle(conn, fact_id, Lifecycle.SUPERSEDED, when=stamp,
                                     reason="superseded by a later decision", superseded_by=successor)
