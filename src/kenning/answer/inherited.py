"""The calls of a method a project's class inherits from outside the project: "what calls
OwnerRepository.save" in spring-petclinic, whose ``OwnerRepository`` extends Spring Data's
``JpaRepository`` and declares no ``save``. No node is named so, and the question was searched as
words (the three constructors that take an ``OwnerRepository`` came first); yet each of the ten
``this.owners.save(owner)`` calls is stored, a reference on a value the parser typed
``OwnerRepository`` (its hint) that resolution linked to nothing. Those references answer: each
caller, its call's source and line, through the class's node (no edge is written: the method
is nowhere in the project)."""

from __future__ import annotations

from kenning.answer.naming import resolve
from kenning.graph import walk
from kenning.ingest.relations import SELF_HINT
from kenning.store import graph as graph_store
from kenning.store import graph_refs
from kenning.store.graph import Edge, Node, RefRow
from kenning.store.handle import Connection


def calls_on(conn: Connection, name: str) -> tuple[list[Node], list[walk.Hit]]:
    """For a typed ``Type.method`` no node is named: the class nodes ``Type`` names and the calls
    of ``method`` written on a value of that class, one hit a caller, first call first, each a
    step walked back from the class (an edge of the reference's own id, negated: no edge is
    stored). Nothing when ``Type`` is no class of the project's."""
    owner, _, method = name.replace("::", ".").rpartition(".")
    if not owner or not method.isidentifier():
        return [], []
    classes = [node for node in resolve(conn, owner) if node.kind == "symbol"]
    if not classes:
        return [], []
    names = {node.name.rpartition(".")[2] for node in classes}
    rows = graph_refs.ref_rows(conn, graph_refs.refs_targeting(conn, "symbol", method))
    calls = [row for row in rows if row.type == "calls" and _on(row, names)]
    callers = graph_store.nodes_by_id(conn, sorted({row.src for row in calls}))
    hits: list[walk.Hit] = []
    seen: set[int] = set()
    for row in calls:
        caller = callers.get(row.src)
        if caller is None or caller.id in seen:
            continue
        seen.add(caller.id)
        edge = Edge(
            -row.id, caller, classes[0], "calls", row.link, row.source_kind or "file", row.source_uri or "",
            row.fingerprint, row.line,
        )  # fmt: skip
        hits.append(walk.Hit(caller, (walk.Step(edge, False),)))
    return classes, hits


def _on(row: RefRow, names: set[str]) -> bool:
    """Whether the reference is a call on a value of one of the classes ``names``: its hint's
    first name is the class (``self:.OwnerRepository``; the names after it, its bases)."""
    if not row.hint or not row.qualified:
        return False
    first = row.hint.split()[0].removeprefix(SELF_HINT)
    return first.rpartition(".")[2] in names
