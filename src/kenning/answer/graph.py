"""Graph answers in the answer contract: each excerpt is the fact behind a node, with the path
of typed, sourced edges that led to it, and each edge's own freshness (graph freshness)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kenning.answer.naming import resolve
from kenning.errors import ValidationError
from kenning.freshness import FileCheck, freshness_of, not_here
from kenning.graph import paths, walk
from kenning.ingest import git_history
from kenning.ingest.spans import split as split_spans
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, FreshnessState, Lifecycle
from kenning.refs import check_node_name
from kenning.search.serve import noting_sync
from kenning.search.snippet import make_snippet
from kenning.store import facts as fact_store
from kenning.store import lookups
from kenning.store.db import Connection
from kenning.store.graph import Node

LEVEL = 0
QUERIES = ("neighbours", "path", "impact", "touches")


@dataclass(frozen=True)
class GraphOptions:
    hops: int = 1
    edge_types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    limit: int = 20
    include_superseded: bool = False
    include_missing: bool = False


def run_query(
    conn: Connection,
    project: Project,
    query: str,
    node: str,
    options: GraphOptions,
    *,
    now: datetime,
    other: str | None = None,
    rule: str | None = None,
    mode: str = "graph",
) -> Answer:
    """One graph query (``neighbours``, ``path``, ``impact``, ``touches``) answered in the contract."""
    label = f"{query} {node}" + (f" {other}" if other else "")
    _validate(query, options)
    for name in (node, other):
        if name is not None:
            check_node_name(name, project.name)  # bounded; another project's kn:// citation refused
    rule = rule or f"graph.{query}"
    match walk.graph_state(conn):  # a graph with no edge: empty, or not built (then degraded)
        case walk.GraphState.NOT_BUILT:
            degraded, why = (walk.NOT_BUILT, *_history(project)), EmptyReason.INDEX_MISSING
            return Answer(label, mode, rule, LEVEL, (project.name,), degradations=degraded, empty_reason=why,
                          notes=("no sync has built the graph yet: run `kenning sync`",))  # fmt: skip
        case walk.GraphState.EMPTY:  # synced, and nothing in it declares a relation: true, not degraded
            return Answer(label, mode, rule, LEVEL, (project.name,), degradations=_history(project),
                          empty_reason=EmptyReason.NO_MATCH, notes=(walk.NO_RELATIONS,))  # fmt: skip
    starts = resolve(conn, node)
    ends = resolve(conn, other) if other is not None else []
    missing = [n for n, found in ((node, starts), (other, ends)) if n is not None and not found]
    if missing:
        return Answer(
            label,
            mode,
            rule,
            LEVEL,
            (project.name,),
            empty_reason=EmptyReason.NO_MATCH,
            notes=tuple(f"no graph node named {m!r}" for m in missing),
        )
    limit = max(options.limit * 4, 50)
    match query:
        case "neighbours":
            hits = [walk.Hit(n, ()) for n in starts] + walk.neighbours(
                conn, starts, hops=options.hops, edge_types=options.edge_types, kinds=options.kinds, limit=limit
            )
        case "impact":
            hits = walk.impact(conn, starts, hops=3, limit=limit)
        case "touches":
            hits = walk.touches(conn, starts, limit=limit)
        case "path":
            hits = paths.path_between(conn, starts, ends)
        case _:
            raise ValueError(query)
    notes = []
    if len(starts) > 1:
        notes.append(f"{len(starts)} nodes match {node!r}: " + ", ".join(_told_apart(starts[:5])))
    if query == "path" and not hits:
        notes.append(f"no path within {walk.MAX_HOPS} edges")
    return compose(conn, project, label, hits, options, now=now, rule=rule, mode=mode, notes=notes)


def _told_apart(nodes: list[Node]) -> list[str]:
    """Each node's label, with its file and line where two labels are alike (two classes named
    ``IndexController`` read "IndexController, IndexController")."""
    labels = [n.label for n in nodes]
    return [
        f"{label} ({n.path}:{n.line_start})"
        if labels.count(label) > 1 and n.path and n.line_start
        else f"{label} ({n.path})"
        if labels.count(label) > 1 and n.path
        else label
        for label, n in zip(labels, nodes, strict=True)
    ]


def _validate(query: str, options: GraphOptions) -> None:
    if query not in QUERIES:
        raise ValidationError(f"unknown graph query {query!r} (one of {', '.join(QUERIES)})")
    bad = [t for t in options.edge_types if t not in walk.EDGE_TYPES]
    if bad:
        raise ValidationError(f"unknown edge type(s): {', '.join(bad)}", hint=f"one of {', '.join(walk.EDGE_TYPES)}")
    bad = [k for k in options.kinds if k not in walk.NODE_KINDS]
    if bad:
        raise ValidationError(f"unknown node kind(s): {', '.join(bad)}", hint=f"one of {', '.join(walk.NODE_KINDS)}")
    if not 1 <= options.hops <= 2 or not 1 <= options.limit <= 200:
        raise ValidationError("hops must be 1 or 2 and limit between 1 and 200")


def _holding_excerpts(conn: Connection, project: str, hits: list[walk.Hit]) -> dict[int, int]:
    """``{index: fact id}`` for the hits whose own call (their path's last step, made in their
    node) lies outside their node's excerpt: a method overloaded in its file is one node, the
    first overload's excerpt (gson's four ``Gson.toJson``), and the call may be in another; a
    file's own lines are many excerpts (an RSpec ``it`` block, a JavaScript ``test(…)``), the
    file node's the first of them (lobsters' specs were cited by ``story_spec.rb:1-67`` for a call
    at line 390). The excerpt served is then the one of that file holding the call's line."""
    wanted: dict[int, tuple[str, int]] = {}
    for i, hit in enumerate(hits):
        node = hit.node
        if not hit.steps or node.kind not in ("symbol", "file") or not node.path:
            continue
        if node.kind == "symbol" and node.line_start is None:
            continue
        edge = hit.steps[-1].edge
        caller = edge.src if edge.type == "calls" else edge.dst if edge.type == "tested_by" else None
        line = edge.line
        if caller is None or caller.id != node.id or line is None:
            continue
        if node.line_start is None or not node.line_start <= line <= (node.line_end or node.line_start):
            wanted[i] = (node.path, line)
    if not wanted:
        return {}
    found: dict[int, int] = {}
    for i, (path, line) in wanted.items():
        ids = lookups.active_ids_above(conn, path, line)[-8:]  # the excerpts beginning last before it
        facts = fact_store.get_many(conn, project, ids)
        holding = [
            fid
            for fid in reversed(ids)
            if fid in facts
            and any(
                loc.path == path and loc.line_start is not None and loc.line_start <= line <= (loc.line_end or line)
                for loc in facts[fid].locations
            )
        ]
        if holding:
            found[i] = holding[0]
    return found


def compose(
    conn: Connection,
    project: Project,
    label: str,
    hits: list[walk.Hit],
    options: GraphOptions,
    *,
    now: datetime,
    rule: str | None,
    mode: str = "graph",
    notes: list[str] | None = None,
    starts: list[Node] | None = None,
) -> Answer:
    notes = list(notes or [])
    files = FileCheck(project.root, conn, split_spans)
    notes += _changed_starts(conn, project, starts or [], files, now)
    filtered: Counter[str] = Counter()
    excerpts: list[Excerpt] = []
    changed_edges: set[int] = set()
    # One excerpt once: two nodes whose text is the same (a test copied into two files) stand for
    # one fact with a location in each (spring-petclinic's `graph impact` listed it twice).
    served: set[int] = set()
    batch = max(options.limit * 2, 10)
    for start in range(0, len(hits), batch):  # facts are read only for the hits that may be served
        if len(excerpts) >= options.limit:
            filtered["limit"] += len(hits) - start
            break
        part = hits[start : start + batch]
        held = _holding_excerpts(conn, project.name, part)
        fact_ids = [held.get(i) or h.node.fact_id for i, h in enumerate(part)]
        facts = fact_store.get_many(conn, project.name, [f for f in fact_ids if f])
        files.preload(
            {loc.path for f in facts.values() for loc in f.locations}
            | {_edge_path(s.edge.source_uri) for h in part for s in h.steps if s.edge.source_kind == "file"}
        )
        files.preload_commits(  # "what commits touched FILE": each a git process, asked one by one
            {f.source.uri for f in facts.values() if f.source.kind == "commit"}
            | {s.edge.source_uri for h in part for s in h.steps if s.edge.source_kind == "commit"}
        )
        for hit, fact_id in zip(part, fact_ids, strict=True):
            fact = facts.get(fact_id) if fact_id else None
            if fact is None:
                filtered["no_excerpt"] += 1
                continue
            if fact.lifecycle is not Lifecycle.ACTIVE and not options.include_superseded:
                filtered[fact.lifecycle.value] += 1
                continue
            fresh = freshness_of(fact, now=now, files=files)
            if fresh.state is FreshnessState.SOURCE_MISSING and not options.include_missing:
                filtered["source_missing"] += 1
                continue
            if fact.id in served:
                continue
            if len(excerpts) >= options.limit:
                filtered["limit"] += 1
                continue
            served.add(fact.id)
            path = tuple(_edge_json(s, files, changed_edges) for s in hit.steps)
            excerpts.append(
                Excerpt(
                    fact,
                    fresh,
                    make_snippet(fact.body, ()),
                    round(1.0 / (1 + hit.hops), 6),
                    len(excerpts) + 1,
                    explain={"node": node_json(hit.node), "hops": hit.hops},
                    path=path,
                )
            )
    if changed_edges and not files.elsewhere():  # else not changed: not here (the answer's degradation)
        notes.append(
            f"graph freshness: {len(changed_edges)} edge(s) come from sources changed since the last sync "
            "(run `kenning sync`)"
        )
    empty = None
    if not excerpts:
        empty = EmptyReason.ALL_FILTERED if filtered else EmptyReason.NO_MATCH
    answer = Answer(
        label,
        mode,
        rule,
        LEVEL,
        (project.name,),
        excerpts=tuple(excerpts),
        empty_reason=empty,
        filtered=dict(filtered),
        notes=tuple(notes),
        degradations=_history(project),
    )
    return noting_sync(not_here(answer), project)


def _changed_starts(
    conn: Connection, project: Project, starts: list[Node], files: FileCheck, now: datetime
) -> list[str]:
    """A note naming the start nodes whose own excerpt changed or went since the last sync (a
    function renamed before a resync: the graph still answers for its old name, from the edges the
    last sync wrote)."""
    ids = [n.fact_id for n in starts[:5] if n.fact_id is not None]
    facts = fact_store.get_many(conn, project.name, ids) if ids else {}
    changed = []
    for node in starts[:5]:
        fact = facts.get(node.fact_id) if node.fact_id is not None else None
        if fact is None:
            continue
        state = freshness_of(fact, now=now, files=files).state
        if state in (FreshnessState.STALE, FreshnessState.SOURCE_MISSING):
            changed.append(f"{node.label} ({state.value})")
    if not changed:
        return []
    shown = ", ".join(changed)
    return [
        f"what the question names changed since the last sync: {shown}; "
        "the graph answers from that sync (run `kenning sync`)"
    ]


def _history(project: Project) -> tuple[str, ...]:
    """Commits are nodes: history the last sync could not read is a degradation of the answer
    (none outside a repository: there is no history to read)."""
    found = git_history.degradation(git_history.problem(project.root))
    return (found,) if found is not None else ()


def node_json(node: Node) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": node.kind, "name": node.label}
    if node.path:
        out["path"] = node.path
    if node.line_start:
        out["lines"] = [node.line_start, node.line_end]
    return out


def _edge_json(step: walk.Step, files: FileCheck, changed: set[int]) -> dict[str, Any]:
    e = step.edge
    state = _edge_freshness(e, files)
    if state != FreshnessState.CURRENT.value:
        changed.add(e.id)
    out: dict[str, Any] = {
        "type": e.type,
        "link": e.link,
        "from": node_json(e.src),
        "to": node_json(e.dst),
        "walked": "forward" if step.forward else "backward",
        "source": {"kind": e.source_kind, "uri": e.source_uri, "fingerprint": e.fingerprint},
        "freshness": state,
    }
    if e.line is not None:
        out["line"] = e.line
    return out


def _edge_path(uri: str) -> str:
    base = uri.split("#", 1)[0]
    head, sep, tail = base.rpartition(":")
    return head if sep and tail.replace("-", "").isdigit() else base


def _edge_freshness(edge: walk.Edge, files: FileCheck) -> str:
    match edge.source_kind:
        case "file":
            current, _ = files.located(_edge_path(edge.source_uri), edge.source_uri)
            if current is None:
                return FreshnessState.SOURCE_MISSING.value
            return FreshnessState.CURRENT.value if current == edge.fingerprint else FreshnessState.STALE.value
        case "commit":
            return (
                FreshnessState.CURRENT.value
                if files.commit_exists(edge.source_uri)
                else FreshnessState.SOURCE_MISSING.value
            )
    return FreshnessState.UNVERIFIED.value
