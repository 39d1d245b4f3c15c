"""Walking the graph: find nodes by what people type, then neighbours, impact, tests, touches
(a path between two nodes: ``graph.paths``).

Every result is a ``Hit``: a node and the typed edges that led to it from a start node.
Between the same two nodes with the same type, the strongest link is kept (declared, then
extracted, then heuristic): a heuristic edge is never shown as anything else.
"""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import islice

from kenning.ingest.test_files import is_test_path
from kenning.store import graph as graph_store
from kenning.store import sources
from kenning.store.dated import source_dates
from kenning.store.db import Connection
from kenning.store.graph import Edge, Node

__all__ = [
    "EDGE_TYPES",
    "MAX_HOPS",
    "NODE_KINDS",
    "Edge",
    "Hit",
    "Node",
    "Step",
    "edges_of",
    "find_nodes",
    "graph_state",
    "GraphState",
    "impact",
    "neighbours",
    "overload_calls",
    "tests_of",
    "touches",
    "walk",
    "with_members",
]

EDGE_TYPES = (
    "depends_on",
    "evidence_of",
    "verdict_of",
    "supersedes",
    "imports",
    "calls",
    "defines",
    "tested_by",
    "links_to",
    "touches",
)
NODE_KINDS = ("file", "symbol", "task", "evidence", "verdict", "decision", "commit")
MAX_HOPS = 6
TYPE_ORDER = (
    "supersedes",
    "defines",
    "calls",
    "tested_by",
    "imports",
    "depends_on",
    "evidence_of",
    "verdict_of",
    "touches",
    "links_to",
)
_CITATION = re.compile(r"^kn://[A-Za-z0-9._-]+/(\d+)$")
_ADR = re.compile(r"^adr[-_ ]?0*(\d{1,5})$", re.I)


@dataclass(frozen=True)
class Step:
    edge: Edge
    forward: bool  # walked along the edge's direction (src -> dst)


@dataclass(frozen=True)
class Hit:
    node: Node
    steps: tuple[Step, ...]

    @property
    def hops(self) -> int:
        return len(self.steps)


class GraphState(Enum):
    """What a graph question finds: edges to walk; a synced project whose sources declare no
    relation (Markdown and text only: no code, ADR link, ledger record or commit); or a store
    no sync has filled yet."""

    BUILT = "built"
    EMPTY = "empty"
    NOT_BUILT = "not_built"


# What an answer says of each state but BUILT (graph commands, `kenning ask`, MCP, status).
NO_RELATIONS = "no code relations in this project: the last sync found nothing to link (the graph has no edge)"
NOT_BUILT = "graph not built"


def graph_state(conn: Connection) -> GraphState:
    if graph_store.graph_built(conn):
        return GraphState.BUILT
    return GraphState.EMPTY if sources.synced(conn) else GraphState.NOT_BUILT


def find_nodes(conn: Connection, text: str, *, limit: int = 8) -> list[Node]:
    """Nodes named by ``text``: a key, an excerpt's citation (``kn://project/42``), a path, an ADR
    or task id, a qualified or short symbol name, a commit sha prefix, or a path suffix — the
    first rule that matches wins."""
    raw = text.strip().strip("`'\"")
    if not raw:
        return []
    path = raw.removeprefix("./")
    adr = _ADR.match(raw)
    cited = _CITATION.match(raw)
    rules: list[tuple[str, str | int]] = [
        ("key", raw),
        *([("fact_id", int(cited.group(1)))] if cited else []),  # an excerpt's citation -> its nodes
        ("file_path", path),
        ("record_name", raw),
    ]
    if adr:
        rules.append(("decision_name", f"ADR-{int(adr.group(1)):04d}"))
    rules += [("qualname", raw), ("qualname_suffix", raw), ("symbol_name", raw)]
    if re.fullmatch(r"[0-9a-f]{7,40}", raw):
        rules.append(("commit_prefix", raw))
    if "/" in path or "." in path:
        rules.append(("path_suffix", path))
    rules.append(("name_nocase", raw))
    for lookup, value in rules:
        nodes = graph_store.nodes_by(conn, lookup, value, limit=limit)
        if nodes:
            return nodes
    return []


Allow = Callable[[Node, Step], bool]


def walk(
    conn: Connection,
    starts: Iterable[Node],
    *,
    hops: int,
    allow: Allow,
    keep: Callable[[Hit], bool] = lambda h: True,
    limit: int = 200,
) -> list[Hit]:
    """Breadth-first from ``starts`` up to ``hops`` edges, along the steps ``allow`` accepts;
    each node reached once, by its shortest path."""
    starts = list(starts)
    seen = {n.id for n in starts}
    queue = deque(Hit(n, ()) for n in starts)
    found: list[Hit] = []
    near: dict[int, list[Step]] = {}  # edges read ahead, by node (PostgreSQL: see ``_read_ahead``)
    ahead = True  # until the store says it does not read ahead (SQLite)
    while queue:
        hit = queue.popleft()
        if hit.hops >= hops:
            continue
        if ahead and hit.node.id not in near:
            fetched = _read_ahead(conn, hit, queue, hops)
            ahead = bool(fetched)
            near.update(fetched)
        steps = near.pop(hit.node.id, None)
        for step in edges_of(conn, hit.node) if steps is None else steps:
            other = step.edge.dst if step.forward else step.edge.src
            if other.id in seen or not allow(hit.node, step):
                continue
            seen.add(other.id)
            nxt = Hit(other, (*hit.steps, step))
            if keep(nxt):
                found.append(nxt)
                if len(found) >= limit:
                    return found
            queue.append(nxt)
    return found


def overload_calls(conn: Connection, starts: list[Node], *, forward: bool) -> list[Hit]:
    """The calls between a method's overloads among ``starts`` (``forward``: the callees, else the
    callers), which ``walk``, never leaving a start for another, leaves out: petclinic's
    ``getPet(String name)`` calls ``getPet(name, false)`` (a node each, ``graph.build``), so "who
    calls Owner.getPet" lists it. Only starts of one qualified name: the members a class stands
    for calling one another are not its callers."""
    by_id = {n.id: n for n in starts if n.kind == "symbol"}
    hits: list[Hit] = []
    for node in by_id.values():
        for step in edges_of(conn, node):
            other = step.edge.dst if step.forward else step.edge.src
            if step.edge.type != "calls" or step.forward != forward or other.id == node.id:
                continue
            if other.id in by_id and other.qualname == node.qualname and all(h.node.id != other.id for h in hits):
                hits.append(Hit(other, (step,)))
    return hits


READ_AHEAD = 500  # nodes whose edges one read-ahead fetches, nearest first
# Hops one read-ahead goes past the queue: a path found near its start does not pay for the
# whole neighbourhood (bench/pg_speed.py --graph 300, load 9-10: PostgreSQL path p95 212-268 ms
# with 1 hop, 320-556 ms reading node by node, 912 ms reading the whole neighbourhood at once).
READ_AHEAD_HOPS = 1


def _read_ahead(conn: Connection, hit: Hit, queue: deque[Hit], hops: int) -> dict[int, list[Step]]:
    """The edges of the nodes the walk reads next (the queue's, and theirs up to the hop bound),
    fetched at once where each read costs a round trip (``store.graph.edges_near``: one recursive
    query on PostgreSQL; nothing on SQLite, whose reads are in-process). Same steps, same order
    as ``edges_of``: the walk is the same, with fewer round trips."""
    frontier = [hit.node, *(h.node for h in islice(queue, READ_AHEAD - 1) if h.hops < hops)]
    depth = min(hops - 1 - hit.hops, READ_AHEAD_HOPS)
    found = graph_store.edges_near(conn, frontier, depth=depth, limit=READ_AHEAD)
    return {node_id: ordered(edges) for node_id, edges in found.items()}


def edges_of(conn: Connection, node: Node) -> list[Step]:
    """Outgoing then incoming edges of ``node``, strongest link first."""
    return ordered(graph_store.edges_of(conn, node))


def ordered(edges: list[tuple[Edge, bool]]) -> list[Step]:
    """Edges as steps, by type (``TYPE_ORDER``), the store's order kept within a type."""
    steps = [Step(edge, forward) for edge, forward in edges]
    steps.sort(key=lambda s: TYPE_ORDER.index(s.edge.type) if s.edge.type in TYPE_ORDER else len(TYPE_ORDER))
    return steps


def neighbours(
    conn: Connection,
    starts: list[Node],
    *,
    hops: int = 1,
    edge_types: tuple[str, ...] = (),
    kinds: tuple[str, ...] = (),
    limit: int = 200,
) -> list[Hit]:
    def allow(_: Node, step: Step) -> bool:
        return not edge_types or step.edge.type in edge_types

    def keep(hit: Hit) -> bool:
        return not kinds or hit.node.kind in kinds

    return walk(conn, starts, hops=hops, allow=allow, keep=keep, limit=limit)


def with_members(conn: Connection, starts: list[Node]) -> list[Node]:
    """``starts`` and the symbols a start symbol holds, in the order its file defines them: a
    class stands for its methods (and its nested classes' members), as a file stands for its
    symbols, so that what depends on a class, what it calls and its tests are those of its
    members (``SongRepository``: the callers of ``SongRepository.getById`` …). Found through the
    ``defines`` edges of the file that defines the start (each engine reads edges alike)."""
    found = list(starts)
    seen = {n.id for n in starts}
    for node in starts:
        if node.kind != "symbol":
            continue
        prefix = node.qualname + "."
        files = [s.edge.src for s in edges_of(conn, node) if s.edge.type == "defines" and not s.forward]
        for file in files:
            defined = [s.edge.dst for s in edges_of(conn, file) if s.edge.type == "defines" and s.forward]
            for member in defined:
                if member.id not in seen and member.qualname.startswith(prefix):
                    seen.add(member.id)
                    found.append(member)
    return found


def impact(conn: Connection, starts: list[Node], *, hops: int = 3, limit: int = 200) -> list[Hit]:
    """What depends on the start nodes: callers, importers, dependent tasks, tests, linking docs.
    A file stands for its symbols (``defines`` is walked from it, and not reported), a class for
    its members (``with_members``)."""
    starts = with_members(conn, starts)
    start_ids = {n.id for n in starts}

    def allow(at: Node, step: Step) -> bool:
        t = step.edge.type
        if step.forward:
            return t == "tested_by" or (t == "defines" and at.id in start_ids)
        return t in ("calls", "imports", "depends_on", "links_to")

    def keep(hit: Hit) -> bool:
        return hit.steps[-1].edge.type != "defines"

    return walk(conn, starts, hops=hops, allow=allow, keep=keep, limit=limit)


def importers(conn: Connection, starts: list[Node], *, hops: int = 3, limit: int = 200) -> list[Hit]:
    """The files importing the start nodes' files, and theirs: ``imports`` edges alone, walked
    backward; a symbol stands for its file (``defines`` walked back from it, and not reported)."""
    start_ids = {n.id for n in starts}

    def allow(at: Node, step: Step) -> bool:
        if step.edge.type == "defines":
            return not step.forward and at.id in start_ids and at.kind == "symbol"
        return step.edge.type == "imports" and not step.forward

    return walk(conn, starts, hops=hops, allow=allow, keep=lambda h: h.steps[-1].edge.type == "imports", limit=limit)


def tests_of(conn: Connection, starts: list[Node], *, hops: int = 2, limit: int = 200) -> list[Hit]:
    """The tests of the start nodes: the test functions and files that call or import them
    (``tested_by``). A file stands for the symbols it defines, a class for its members, and a
    type named as its file for that file (``_namesake_files``)."""
    starts = with_members(conn, [*starts, *_namesake_files(conn, starts)])
    start_ids = {n.id for n in starts}

    def allow(at: Node, step: Step) -> bool:
        t = step.edge.type
        if t == "defines" and at.id not in start_ids:  # a test file's own tests (``keep``)
            return step.forward and at.kind == "file" and is_test_path(at.path or "")
        return step.forward and (t == "tested_by" or t == "defines")

    def keep(hit: Hit) -> bool:
        return hit.steps[-1].edge.type == "tested_by" or _named_test_file_member(hit)

    return walk(conn, starts, hops=hops, allow=allow, keep=keep, limit=limit)


def tested_code(conn: Connection, starts: list[Node], *, hops: int = 2, limit: int = 200) -> list[Hit]:
    """What the start tests exercise, the other way of ``tests_of``: the code whose ``tested_by``
    edges reach them (the functions they call, the modules and files they import or test by their
    name). A test file stands for the tests it defines, a class for its members, and a type named
    as its file for that file (``OwnerControllerTests`` tests ``OwnerController.java``)."""
    starts = with_members(conn, [*starts, *_namesake_files(conn, starts)])
    start_ids = {n.id for n in starts}

    def allow(at: Node, step: Step) -> bool:
        if step.edge.type == "defines":  # a file's own tests
            return step.forward and at.id in start_ids and at.kind == "file"
        return step.edge.type == "tested_by" and not step.forward

    def keep(hit: Hit) -> bool:
        return hit.steps[-1].edge.type == "tested_by"

    return walk(conn, starts, hops=hops, allow=allow, keep=keep, limit=limit)


def _named_test_file_member(hit: Hit) -> bool:
    """Whether ``hit`` is a test of a test file that tests a file by its name
    (``OwnerControllerTests.java`` of ``OwnerController.java``: ``test_files.file_under_test``, a
    file's ``extracted`` ``tested_by`` edge to a file): those tests are its, where a test file that
    imports a module (``declared``) holds tests of other things too."""
    if len(hit.steps) < 2 or hit.steps[-1].edge.type != "defines":
        return False
    tested = hit.steps[-2].edge
    return tested.type == "tested_by" and tested.link == "extracted" and tested.src.kind == "file"


def _namesake_files(conn: Connection, starts: list[Node]) -> list[Node]:
    """The files of the start symbols named as their file, at its top level (Java's
    ``OwnerController`` in ``OwnerController.java``): the test class named after that file tests
    it (``test_files.file_under_test``), and so the type, which is all the file holds; and of those
    whose name goes on from the file's (a MediatR feature's ``CreateTodoItemCommandHandler`` in
    ``CreateTodoItem.cs``, which ``CreateTodoItemTests.cs`` tests: the file is the feature's)."""
    found: list[Node] = []
    for node in starts:
        if node.kind != "symbol" or not node.path or node.qualname != node.name:
            continue
        stem, suffix = posixpath.splitext(posixpath.basename(node.path))
        if _names_its_file(node.name, stem, ruby=suffix == ".rb"):
            found += [s.edge.src for s in edges_of(conn, node) if s.edge.type == "defines" and not s.forward]
    return found


def _names_its_file(name: str, stem: str, *, ruby: bool = False) -> bool:
    """Whether a type named ``name`` is named after its file ``stem``: the same (in Ruby, as Rails
    names a class's file: ``StoriesController`` in ``stories_controller.rb``), or the file's name and
    more words in CamelCase (``CreateTodoItemCommand`` in ``CreateTodoItem.cs``)."""
    if name == stem or ruby and name == "".join(part.capitalize() for part in stem.split("_")):
        return True
    return stem[:1].isupper() and len(name) > len(stem) and name.startswith(stem) and name[len(stem)].isupper()


def touches(conn: Connection, starts: list[Node], *, hops: int = 4, limit: int = 200) -> list[Hit]:
    """Tasks, evidence, verdicts, decisions and commits that reach the start nodes: touches,
    then evidence of those tasks, verdicts on that evidence, decisions linking or superseding.
    A symbol is reached through its file. At each hop the newest first (``_newest_first``)."""
    start_ids = {n.id for n in starts}
    reporting = {"task", "evidence", "verdict", "decision", "commit"}

    def allow(at: Node, step: Step) -> bool:
        t = step.edge.type
        if step.forward:  # from a start symbol up to the file that defines it
            return False
        if t == "defines":
            return at.id in start_ids and at.kind == "symbol"
        if t == "links_to":
            return step.edge.src.kind == "decision"
        return t in ("touches", "evidence_of", "verdict_of", "supersedes")

    def keep(hit: Hit) -> bool:
        return hit.node.kind in reporting

    return _newest_first(conn, walk(conn, starts, hops=hops, allow=allow, keep=keep, limit=TOUCHES_READ))[:limit]


# How many of what touches the start nodes are read and ordered by date before the answer's cut:
# a file of a long history has hundreds of commits (httpx/_client.py: 145), the last of them wanted.
TOUCHES_READ = 5000


def _newest_first(conn: Connection, hits: list[Hit]) -> list[Hit]:
    """``hits`` by hops, then by their fact's date, newest first (then as walked): the commits
    that touched a file come in the order ``git log`` gives, not by their ids' spelling."""
    dates = source_dates(conn, sorted({h.node.fact_id for h in hits if h.node.fact_id is not None}))
    order = sorted(range(len(hits)), key=lambda i: dates.get(hits[i].node.fact_id or 0, ""), reverse=True)
    order.sort(key=lambda i: hits[i].hops)  # stable: by hops, newest first within each
    return [hits[i] for i in order]
