"""Capabilities the bench measures when they are present: the declared graph, the router,
the core pack. Each is imported lazily; an absent one gives ``None`` and a note saying why,
never a silent zero.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from kenning.project import Project
from kenning.store import bench as bench_store
from kenning.store.handle import Connection, StoreError


@dataclass(frozen=True)
class DeclaredEdge:
    source: str  # label of the source node, as a person would name it
    target: str
    type: str
    fact_ids: tuple[int, ...]  # excerpts that state the edge (the expected answer)


@dataclass(frozen=True)
class Found:
    value: Any
    note: str | None


def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def declared_edges(conn: Connection) -> Found:
    """Declared edges of the graph (``graph_edges`` with ``link = 'declared'``), each with the
    excerpts of its two ends as the expected answer."""
    if _module("kenning.graph.walk") is None:
        return Found(None, "kenning.graph is not available in this build: no edge questions")
    try:
        rows = bench_store.declared_edges(conn)
    except StoreError as exc:
        return Found(None, f"graph not built ({exc}): no edge questions")
    edges = [
        DeclaredEdge(str(a), str(b), str(kind), tuple(int(i) for i in (fa, fb) if i is not None))
        for a, b, kind, fa, fb in rows
    ]
    if not edges:
        return Found([], "the graph holds no declared edge: no edge questions")
    return Found(edges, None)


def router_agreement() -> Found:
    """Agreement of ``kenning.route.rules.route`` with ``kenning.route.examples.EXAMPLES``
    (question, mode, rule), routed as at level 0: no dense index, core within budget."""
    rules = _module("kenning.route.rules")
    examples = _module("kenning.route.examples")
    if rules is None or examples is None or not hasattr(rules, "route") or not hasattr(examples, "EXAMPLES"):
        return Found(None, "router not available (kenning.route.rules.route / kenning.route.examples.EXAMPLES)")
    table = list(examples.EXAMPLES)
    if not table:
        return Found(None, "the router's example table is empty")
    mode_ok = rule_ok = 0
    disagreements = []
    for question, mode, rule in table:
        got = rules.route(question, dense_available=False, core_fits=True)
        mode_ok += got.mode == mode
        rule_ok += got.rule == rule
        if got.mode != mode or got.rule != rule:
            disagreements.append({"question": question, "expected": [mode, rule], "got": [got.mode, got.rule]})
    return Found(
        {
            "examples": len(table),
            "mode_agreement": round(mode_ok / len(table), 4),
            "rule_agreement": round(rule_ok / len(table), 4),
            "disagreements": disagreements,
        },
        None,
    )


def core_cost(project: Project, conn: Connection) -> Found:
    """Estimated size of the core pack built now from the store, against its budget."""
    if _module("kenning.pack.build") is None:
        return Found(None, "kenning.pack is not available in this build: core cost not measured")
    from kenning.pack.build import build, settings
    from kenning.tokens import estimate as estimate_tokens

    tokens = estimate_tokens(build(conn, project).text)
    budget = settings(project).budget_tokens
    return Found(
        {
            "estimated_tokens": int(tokens),
            "budget_tokens": int(budget),
            "ratio": round(tokens / budget, 4) if budget else None,
            "within_budget": tokens <= budget,
            "estimate": "characters / 4",
        },
        None,
    )
