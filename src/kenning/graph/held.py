"""What a cold sync's resolution looks up, served from memory (``graph.build.resolve_held``).

A cold sync resolves every reference of the graph at once, after its last batch: the
candidates of each target (``store.graph.candidates_many``, a query per kind and chunk of
targets) and the ``BASES`` references naming a class (``graph.bases``, a query per class name
and its rows read back) would be read from the nodes and references it has just written. Here
every node is read in one statement and indexed by what a target is matched against, and the
``BASES`` references are taken from the rows the sync kept (``graph.build.Unresolved``): the
same rows, in the same order (by id), as those queries return."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.graph.narrow import Key
from kenning.ingest.relations import BASES
from kenning.store import graph as graph_store
from kenning.store.db import Connection
from kenning.store.graph import Candidate, RefRow


class NodeIndex:
    """``candidates_many`` over the nodes as they are when it is built: by path for ``file``
    (files and decisions), by dotted module for ``module`` (files), by name for ``method``
    (symbols whose key's qualified name is dotted) and for any other kind (that kind's nodes);
    ``stem`` (path globs, few) still asks the store."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        named: dict[tuple[str, str], list[Candidate]] = {}
        methods: dict[str, list[Candidate]] = {}
        files: dict[str, list[Candidate]] = {}
        modules: dict[str, list[Candidate]] = {}
        for node_id, kind, name, qualname, path, key in graph_store.every_node(conn):
            found = (node_id, path, qualname)
            named.setdefault((kind, name), []).append(found)
            if kind == "symbol":
                if "." in key.rsplit(":", 1)[-1]:
                    methods.setdefault(name, []).append(found)
            elif kind == "file" or kind == "decision":
                if path is not None:
                    files.setdefault(path, []).append(found)
                if kind == "file":
                    modules.setdefault(qualname, []).append(found)
        self._named = named
        self._by_kind = {"method": methods, "file": files, "module": modules}

    def candidates_many(self, keys: Sequence[Key]) -> dict[Key, list[Candidate]]:
        stems = [key for key in keys if key[0] == "stem"]
        found = graph_store.candidates_many(self.conn, stems) if stems else {}
        named, by_kind = self._named, self._by_kind
        for key in keys:
            kind, target = key
            table = by_kind.get(kind)
            if table is not None:
                found[key] = table.get(target, [])
            elif kind != "stem":
                found[key] = named.get(key, [])
        return found


def bases_by_short(rows: Sequence[RefRow]) -> dict[str, list[RefRow]]:
    """The ``BASES`` references among ``rows`` (ascending ids), by the short class name they
    target: what ``graph.bases`` reads back per name, when ``rows`` are every reference."""
    found: dict[str, list[RefRow]] = {}
    for row in rows:
        if row.target_kind == BASES:
            found.setdefault(row.target, []).append(row)
    return found
