"""Go's interfaces are satisfied, never named: a type implements an interface when its methods —
declared on ``T`` or ``*T`` in any file of its package (its folder) — include every method the
interface declares ("what implements Binding" on gin: ``jsonBinding``, ``formBinding``… which no
line names as such; walked: docs/benchmarks.md, "walks5"). The methods of an interface it
embeds (``io.Reader`` in ``ReadCloser``) are not read: a type declaring the others is taken.

Method names are compared, not their signatures, so each step is ``heuristic``: an ``implements``
edge from the type to the interface, not stored (its id is the type node's, negated), sourced by
the type's declaration (its file's fingerprint as the sync read it). Another interface whose
methods cover them is left out (it is no type of values); an interface that declares no method
of its own (one that only embeds others) has none found."""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from kenning.graph import walk
from kenning.store import facts as fact_store
from kenning.store import sources
from kenning.store.graph import Edge, Node
from kenning.store.graph_lookup import members_of, symbols_named
from kenning.store.handle import Connection

IMPLEMENTS = "implements"


def implementers(conn: Connection, project: str, starts: list[Node], *, limit: int = 200) -> list[walk.Hit]:
    """The types implementing the Go interfaces among ``starts``, each once, with the ``implements``
    step that leads to it (walked backward); [] for any other start."""
    pairs = []
    for interface in starts:
        methods = _method_set(conn, project, interface) if _is_go_symbol(interface) else set()
        if methods:
            pairs += [(node, interface) for node in _types_with(conn, project, interface, methods)]
    return _hits(conn, pairs, starts, forward=False, limit=limit)


def interfaces_of(conn: Connection, project: str, starts: list[Node], *, limit: int = 200) -> list[walk.Hit]:
    """The reverse: the Go interfaces each type among ``starts`` implements — those whose declared
    methods its package all declares on it — each once, with the ``implements`` step to it."""
    pairs = []
    for node in starts:
        if not _is_go_symbol(node):
            continue
        folder = posixpath.dirname(node.path or "")
        own = {
            n.name for n in _nodes(members_of(conn, node.qualname)) if n.path and posixpath.dirname(n.path) == folder
        }
        found = _interfaces_declaring(conn, project, own)
        pairs += [(node, interface) for interface in found if _method_set(conn, project, interface) <= own]
    return _hits(conn, pairs, starts, forward=True, limit=limit)


def _hits(
    conn: Connection, pairs: list[tuple[Node, Node]], starts: list[Node], *, forward: bool, limit: int
) -> list[walk.Hit]:
    """A hit for each (type, interface) pair's end found — the interface when walked ``forward``
    from the type, else the type — each once and none of ``starts``, at most ``limit``."""
    fingerprints = _fingerprints(conn, [node for node, _ in pairs])
    seen = {n.id for n in starts}
    hits: list[walk.Hit] = []
    for node, interface in pairs:
        found = interface if forward else node
        if found.id in seen:
            continue
        seen.add(found.id)
        hits.append(walk.Hit(found, (walk.Step(_step(node, interface, fingerprints), forward),)))
        if len(hits) >= limit:
            break
    return hits


def _interfaces_declaring(conn: Connection, project: str, methods: set[str]) -> list[Node]:
    """The Go interfaces declaring a method named in ``methods``."""
    owners = {
        (n.path, n.qualname.rpartition(".")[0])
        for n in _nodes(symbols_named(conn, sorted(methods)))
        if n.path and n.path.endswith(".go") and "." in n.qualname
    }
    names = sorted({owner for _, owner in owners if owner and "." not in owner})
    candidates = [n for n in _nodes(symbols_named(conn, names)) if (n.path, n.qualname) in owners]
    bodies = _bodies(conn, project, candidates)
    return [n for n in candidates if _declares_interface(n, bodies.get(n.id, ""))]


def _step(node: Node, interface: Node, fingerprints: dict[str, str]) -> Edge:
    """The ``implements`` step from ``node`` to ``interface``, sourced by ``node``'s declaration."""
    return Edge(
        -node.id, node, interface, IMPLEMENTS, "heuristic", "file",
        f"{node.path}:{node.line_start}-{node.line_end}", fingerprints.get(node.path or ""), node.line_start,
    )  # fmt: skip


def _fingerprints(conn: Connection, nodes: list[Node]) -> dict[str, str]:
    """Each node's file fingerprint as the last sync read it."""
    return {
        p: row.fingerprint for p, row in sources.manifest_for(conn, sorted({n.path for n in nodes if n.path})).items()
    }


def _declares_interface(node: Node, body: str) -> bool:
    return re.search(rf"\btype\s+{re.escape(node.qualname)}\s+interface\b", body) is not None


def _is_go_symbol(node: Node) -> bool:
    return node.kind == "symbol" and (node.path or "").endswith(".go") and "." not in node.qualname


def _method_set(conn: Connection, project: str, interface: Node) -> set[str]:
    """The names of the methods ``interface`` declares (its excerpts ``Name() string (in Binding)``),
    or an empty set when it is no interface."""
    if not _declares_interface(interface, _bodies(conn, project, [interface]).get(interface.id, "")):
        return set()
    return {n.name for n in _nodes(members_of(conn, interface.qualname)) if n.path == interface.path}


def _types_with(conn: Connection, project: str, interface: Node, methods: set[str]) -> list[Node]:
    """The types of the project whose package declares every method of ``methods`` on them."""
    declared: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in symbols_named(conn, sorted(methods)):
        node = Node(*row)
        owner, _, method = node.qualname.rpartition(".")
        if node.path and node.path.endswith(".go") and owner and "." not in owner:
            declared[(posixpath.dirname(node.path), owner)].add(method)
    covering = {key for key, have in declared.items() if methods <= have}
    covering.discard((posixpath.dirname(interface.path or ""), interface.qualname))
    if not covering:
        return []
    names = sorted({owner for _, owner in covering})
    types = [
        n
        for n in _nodes(symbols_named(conn, names))
        if n.path and n.path.endswith(".go") and (posixpath.dirname(n.path), n.qualname) in covering
    ]
    bodies = _bodies(conn, project, types)
    return [n for n in types if not _declares_interface(n, bodies.get(n.id, ""))]


def _nodes(rows: list[tuple]) -> list[Node]:
    return [Node(*row) for row in rows]


def _bodies(conn: Connection, project: str, nodes: list[Node]) -> dict[int, str]:
    """Each node's excerpt text (by node id), for the nodes that have one."""
    ids = [n.fact_id for n in nodes if n.fact_id is not None]
    facts = fact_store.get_many(conn, project, ids) if ids else {}
    return {n.id: facts[n.fact_id].body for n in nodes if n.fact_id in facts}
