"""A path between two nodes (``kenning graph path``, "path between X and Y"): the shortest, and
among the shortest the one that reads as a chain.

Breadth-first, layer by layer, each node reached at its least number of hops; among the paths
of that length, the one with the fewest turns (an edge walked against the direction of the one
before: ``parse_low`` calls ``new`` calls ``push``, which ``parse_reader`` calls, turns once),
then the fewest ``heuristic`` edges. A file's ``defines`` step turns nothing. ripgrep, walked as
a new user: ``graph path parse_low parse_reader`` went ``parse_low → Parser::new → push ←
parse_reader`` through two guessed ``Vec::push`` calls, where ``parse_low`` calls ``args`` calls
``parse`` calls ``parse_reader``, as short, one guess, no turn."""

from __future__ import annotations

from collections.abc import Iterator

from kenning.graph.walk import MAX_HOPS, READ_AHEAD, Allow, Hit, Node, Step, edges_of, ordered, with_members
from kenning.store import graph as graph_store
from kenning.store.db import Connection

# (turns, heuristic edges) of a path: the lower the better, between paths of one length
Cost = tuple[int, int]
# a node, and the direction of the edge that reached it (None: a start, or reached by ``defines``)
State = tuple[int, bool | None]


def path_between(conn: Connection, a: list[Node], b: list[Node], *, max_hops: int = MAX_HOPS) -> list[Hit]:
    """The nodes along one shortest path from ``a`` to ``b`` (edges in either direction), the
    chain-like one (module docstring), each with the path so far, the start first (no edge yet);
    empty when no path within ``max_hops``. A class stands for its members at either end
    (``with_members``: a controller's method calls a repository's). A path of relations (calls,
    imports, tests, links…) comes first; one through the file two symbols share (``defines`` in
    and out: "both defined in SyncUtilities.kt") only when there is none, since it says nothing of
    how one reaches the other (spring-petclinic, walked: with no member at its ends,
    ``PetController`` reached ``OwnerRepository`` only through a snapshot commit touching both
    files)."""
    a, b = with_members(conn, a), with_members(conn, b)
    targets = {n.id for n in b}
    ends = targets | {n.id for n in a}

    def related(_: Node, step: Step) -> bool:  # a file given as an end is reached through what it defines
        return step.edge.type != "defines" or step.edge.src.id in ends

    end = _best(conn, a, targets, max_hops, related) or _best(conn, a, targets, max_hops, lambda _n, _s: True)
    if end is None:
        return []
    first = end.steps[0]  # a start is never a target's path: a path has at least one edge
    start = first.edge.src if first.forward else first.edge.dst
    return [Hit(start, ())] + [
        Hit(step.edge.dst if step.forward else step.edge.src, end.steps[: i + 1]) for i, step in enumerate(end.steps)
    ]


def _best(conn: Connection, starts: list[Node], targets: set[int], max_hops: int, allow: Allow) -> Hit | None:
    """The least-cost path to a target at the least number of hops. Each layer keeps, per node
    and the direction of the edge that reached it (a turn depends on it), the cheapest path: a
    path's cost is its prefix's plus its last edge's, so the cheapest in each state is built from
    the cheapest of the layer before. A layer is read cheapest first, and once a target is reached
    no path costing as much is read further (a cost never falls along a path): the layer that
    reaches a target is seldom read whole (Django: ``QuerySet.filter`` to ``HttpResponse``)."""
    seen = {n.id for n in starts}
    layer: dict[State, tuple[Cost, Hit]] = {(n.id, None): ((0, 0), Hit(n, ())) for n in starts}
    for _ in range(max_hops):
        reached: dict[State, tuple[Cost, Hit]] = {}
        best: tuple[Cost, Hit] | None = None
        for (_, heading), (cost, hit), steps in _cheapest_first(conn, layer):
            if best is not None and cost >= best[0]:
                break
            for step in steps:
                other = step.edge.dst if step.forward else step.edge.src
                if other.id in seen or not allow(hit.node, step):
                    continue
                turned = step.edge.type != "defines" and heading is not None and step.forward != heading
                after = (cost[0] + turned, cost[1] + (step.edge.link == "heuristic"))
                state = (other.id, heading if step.edge.type == "defines" else step.forward)
                if state not in reached or after < reached[state][0]:
                    reached[state] = (after, Hit(other, (*hit.steps, step)))
                    if other.id in targets and (best is None or after < best[0]):
                        best = reached[state]
        if best is not None:
            return best[1]
        if not reached:
            return None
        seen |= {node_id for node_id, _ in reached}
        layer = reached
    return None


def _cheapest_first(
    conn: Connection, layer: dict[State, tuple[Cost, Hit]]
) -> Iterator[tuple[State, tuple[Cost, Hit], list[Step]]]:
    """The layer's paths, cheapest first (then as reached), each with its node's steps, strongest
    link first (``walk.edges_of``): read ``READ_AHEAD`` nodes a query where each read costs a
    round trip (PostgreSQL), else one by one as they are taken."""
    order = sorted(layer.items(), key=lambda item: item[1][0])
    for start in range(0, len(order), READ_AHEAD):
        part = order[start : start + READ_AHEAD]
        nodes = list({hit.node.id: hit.node for _, (_, hit) in part}.values())
        near = graph_store.edges_near(conn, nodes, depth=0, limit=len(nodes))
        for state, found in part:
            node = found[1].node
            yield state, found, ordered(near[node.id]) if node.id in near else edges_of(conn, node)
