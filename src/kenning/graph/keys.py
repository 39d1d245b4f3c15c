"""The keys a node answers to (``("file", path)``, ``("symbol", name)``, ``("module", dotted)`` …), and
the references that name them: a parser's reference buffered, an origin's nodes dropped (their keys
returned, so that the references naming them are resolved again), the references naming keys found."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from kenning.graph.aliases import SUFFIX, is_folder_module, suffixes_of
from kenning.graph.narrow import Key
from kenning.ingest.go_packages import PACKAGE as GO_PACKAGE
from kenning.ingest.grammars import suffix_of
from kenning.ingest.relations import Ref
from kenning.store import graph as graph_store
from kenning.store import graph_refs, graph_write
from kenning.store.db import Connection
from kenning.store.graph_write import GraphWriter


def keys_of(kind: str, name: str, qualname: str, path: str | None) -> set[Key]:
    """The reference targets a node answers to."""
    match kind:
        case "file":
            keys = {("file", path or name), ("stem", _stem(path or name))}
            keys |= {(SUFFIX, suffix) for suffix in suffixes_of(path or name)}  # alias imports
            if is_folder_module(path or name):  # ``lib/db/index.ts``, Rust's ``flags/mod.rs``: the folder
                keys.add(("stem", posixpath.dirname(path or name)))
            if not qualname:
                return keys
            if qualname.startswith(GO_PACKAGE):  # a Go file, named by its package: imports name it so
                return keys | {("module", qualname)}
            # a module is also named as a symbol of its package (``from app import greet``): a
            # file that comes or goes resolves those references again, module or symbol
            return keys | {("module", qualname), ("symbol", qualname.rpartition(".")[2])}
        case "decision":
            return {("decision", name)} | ({("file", path)} if path else set())
        case _:
            return {(kind, name)}


def stem_named(rows: list, target: str) -> list:
    """The file a path without its suffix names: the one whose suffix alone it leaves out
    (``./documentCreator``: ``documentCreator.ts``, not ``documentCreator.test.ts``, which its
    pattern matches too and came first; a test importing its module was linked to itself), else the
    first (``x/index.ts``, ``types.d.ts``)."""
    exact = [row for row in rows if _stem(row[1] or "") == target]
    return (exact or rows)[:1]


def _stem(path: str) -> str:
    suffix = suffix_of(path)
    return path[: -len(suffix)] if suffix else path


def add_ref(writer: GraphWriter, src: int, ref: Ref, *, source: tuple[str, str, str | None], origin: str) -> int:
    """Buffer a parser's reference from node ``src``; returns its id."""
    return writer.ref(
        src,
        ref.type,
        ref.target_kind,
        ref.target,
        hint=ref.hint,
        qualified=ref.qualified,
        reverse=ref.reverse,
        link=ref.link,
        line=ref.line,
        source=source,
        origin=origin,
        tested=ref.tested,
    )


def delete_origin(conn: Connection, origin: str) -> set[Key]:
    """Drop what ``origin`` produced; returns the keys of the nodes that went away (references
    elsewhere that pointed at them must be resolved again)."""
    gone: set[Key] = set()
    rows = graph_store.nodes_of_origin(conn, origin)
    for kind, name, qualname, path in rows:
        gone |= keys_of(kind, name, qualname, path)
    graph_write.delete_origin(conn, origin, nodes=bool(rows))
    return gone


def refs_targeting(conn: Connection, keys: Iterable[Key], skip: set[int]) -> list[int]:
    """The references naming any of ``keys``, but those in ``skip``, ascending (one look-up
    for all keys: PostgreSQL pays a round trip per query)."""
    return [ref_id for ref_id in graph_refs.refs_targeting_many(conn, sorted(keys)) if ref_id not in skip]
