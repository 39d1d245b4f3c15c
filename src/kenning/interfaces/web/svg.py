"""Pictures drawn on the server: a node's neighbourhood as rings, and small bar charts.

Only positions and labels are computed here; the templates write the SVG, so every label
goes through the same escaping as the rest of the page.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from kenning.records import Answer

WIDTH = 760
HEIGHT = 560
RINGS = (0, 160, 250)
LABEL_CHARS = 24
EDGE_COLOURS = {
    "defines": "#2f6fb3",
    "calls": "#b35c00",
    "imports": "#6a3fb3",
    "tested_by": "#1d7a3a",
    "depends_on": "#a3242a",
    "evidence_of": "#00707a",
    "verdict_of": "#7a5c00",
    "supersedes": "#555555",
    "links_to": "#8a3f78",
    "touches": "#3f5a8a",
    "extends": "#5b6b2f",  # a subclass to its base, in an inheritance answer (``graph.inheritance``)
}


@dataclass(frozen=True)
class PlacedNode:
    key: str  # what /graph?node= takes to centre on it
    kind: str
    label: str
    short: str
    x: float
    y: float
    ring: int
    lx: float  # where the label goes: outwards from the centre, anchored away from the node
    ly: float
    anchor: str


@dataclass(frozen=True)
class PlacedEdge:
    type: str
    link: str
    colour: str
    dashed: bool
    x1: float
    y1: float
    x2: float
    y2: float
    source: str
    target: str


@dataclass(frozen=True)
class Picture:
    view_box: str  # the drawing's extent, labels included
    nodes: tuple[PlacedNode, ...]
    edges: tuple[PlacedEdge, ...]
    legend: tuple[tuple[str, str], ...]


def _node_id(node: dict[str, Any]) -> tuple[str, str]:
    return node.get("kind", "?"), node.get("name", "?")


def neighbourhood(answer: Answer) -> Picture:
    """Rings around the start node(s) of a ``neighbours`` answer: every node met on a served
    path, every typed edge once, heuristic edges dashed."""
    nodes: dict[tuple[str, str], dict[str, Any]] = {}
    edges: dict[tuple[tuple[str, str], tuple[str, str], str], dict[str, Any]] = {}
    centres: list[tuple[str, str]] = []
    for excerpt in answer.excerpts:
        node = (excerpt.explain or {}).get("node")
        if node is None:
            continue
        nodes.setdefault(_node_id(node), node)
        if (excerpt.explain or {}).get("hops") == 0:
            centres.append(_node_id(node))
        for step in excerpt.path or ():
            a, b = _node_id(step["from"]), _node_id(step["to"])
            nodes.setdefault(a, step["from"])
            nodes.setdefault(b, step["to"])
            edges.setdefault((a, b, step["type"]), step)
    if not centres and nodes:
        centres = [next(iter(nodes))]
    ring = _rings(centres, [(a, b) for a, b, _ in edges])
    placed = _place(nodes, ring)
    drawn = []
    for (a, b, type_), step in edges.items():
        if a not in placed or b not in placed:
            continue
        pa, pb = placed[a], placed[b]
        x1, y1, x2, y2 = _shorten(pa.x, pa.y, pb.x, pb.y, 14)
        drawn.append(
            PlacedEdge(
                type_,
                step.get("link", "extracted"),
                EDGE_COLOURS.get(type_, "#444444"),
                step.get("link") == "heuristic",
                x1,
                y1,
                x2,
                y2,
                pa.label,
                pb.label,
            )
        )
    used = sorted({e.type for e in drawn})
    return Picture(
        _view_box(list(placed.values())),
        tuple(placed.values()),
        tuple(drawn),
        tuple((t, EDGE_COLOURS.get(t, "#444444")) for t in used),
    )


def _rings(centres: list[tuple[str, str]], links: list[tuple[tuple[str, str], tuple[str, str]]]) -> dict:
    around: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for a, b in links:
        around.setdefault(a, set()).add(b)
        around.setdefault(b, set()).add(a)
    ring = {c: 0 for c in centres}
    queue = deque(centres)
    while queue:
        here = queue.popleft()
        for there in sorted(around.get(here, ())):
            if there not in ring:
                ring[there] = ring[here] + 1
                queue.append(there)
    return ring


def _place(nodes: dict[tuple[str, str], dict[str, Any]], ring: dict) -> dict[tuple[str, str], PlacedNode]:
    cx, cy = WIDTH / 2, HEIGHT / 2
    by_ring: dict[int, list[tuple[str, str]]] = {}
    for key in nodes:
        by_ring.setdefault(min(ring.get(key, len(RINGS) - 1), len(RINGS) - 1), []).append(key)
    placed: dict[tuple[str, str], PlacedNode] = {}
    for level, keys in sorted(by_ring.items()):
        keys.sort()
        radius = RINGS[level] if level or len(keys) == 1 else 40
        offset = 0.0 if level % 2 == 0 else math.pi / max(len(keys), 1)
        for i, key in enumerate(keys):
            angle = offset - math.pi / 2 + 2 * math.pi * i / len(keys)
            node = nodes[key]
            label = node.get("name", "?")
            x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
            if radius == 0:
                lx, ly, anchor = x, y + 32, "middle"
            else:
                dx, dy = math.cos(angle), math.sin(angle)
                anchor = "start" if dx > 0.12 else "end" if dx < -0.12 else "middle"
                lx, ly = x + dx * 18, y + dy * 18 + (4 if anchor != "middle" else 14 if dy > 0 else -6)
            placed[key] = PlacedNode(
                label,
                node.get("kind", "?"),
                label,
                short_label(node),
                round(x, 1),
                round(y, 1),
                level,
                round(lx, 1),
                round(ly, 1),
                anchor,
            )
    return placed


def short_label(node: dict[str, Any]) -> str:
    """What fits beside a circle: a symbol's last two names, a path's last two parts."""
    name = str(node.get("name", "?"))
    match node.get("kind"):
        case "symbol":
            name = ".".join(name.split(".")[-2:])
        case "file":
            name = "/".join(name.split("/")[-2:])
    return name if len(name) <= LABEL_CHARS else "…" + name[-(LABEL_CHARS - 1) :]


def _view_box(nodes: list[PlacedNode]) -> str:
    """Room for every circle and its label, and no more."""
    if not nodes:
        return f"0 0 {WIDTH} {HEIGHT}"
    reach = LABEL_CHARS * 7 + 20  # a label's width at 12 px, beside its circle
    left = min(n.x for n in nodes) - reach
    top = min(n.y for n in nodes) - 40
    right = max(n.x for n in nodes) + reach
    bottom = max(n.y for n in nodes) + 40
    return f"{left:.0f} {top:.0f} {right - left:.0f} {bottom - top:.0f}"


def _shorten(x1: float, y1: float, x2: float, y2: float, by: float) -> tuple[float, float, float, float]:
    """The segment between two node centres, stopped short of both circles."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= 2 * by:
        return x1, y1, x2, y2
    dx, dy = (x2 - x1) / length * by, (y2 - y1) / length * by
    return round(x1 + dx, 1), round(y1 + dy, 1), round(x2 - dx, 1), round(y2 - dy, 1)


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None  # 0..1; None is "no data", drawn empty and said so
    width: float
    text: str


def bars(rows: list[tuple[str, float | None]], *, percent: bool, width: float = 320) -> list[Bar]:
    """Bars for values between 0 and 1: rates as percentages, scores (recall, MRR) as decimals."""
    return [
        Bar(
            label,
            value,
            0.0 if value is None else round(max(0.0, min(1.0, value)) * width, 1),
            "null" if value is None else (f"{100 * value:.1f}%" if percent else f"{value:.3f}"),
        )
        for label, value in rows
    ]
