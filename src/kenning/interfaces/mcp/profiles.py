"""Tool profiles: which tools a server lists. Every agent pays for the tool list on every
turn, so the default is small; the seeds' contracts are available by name
(``kenning mcp --tools xmemo,graph``). Figures: docs/benchmarks.md (token bench)."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.errors import ValidationError

PROFILES: dict[str, tuple[str, ...] | None] = {
    # one routed question, the three disclosure layers, save, core pack, one graph tool
    "default": (
        "memory_ask",
        "memory_index",
        "memory_search",
        "memory_get",
        "save_memory",
        "core_pack",
        "graph_impact",
    ),
    "xmemo": ("search_memory", "recall", "recall_context", "forget"),
    "guided": ("mem_search",),
    "graph": ("graph_neighbours", "graph_path", "graph_impact", "graph_touches"),
    "write": ("save_memory", "supersede", "confirm", "forget"),
    "all": None,
}


def resolve(spec: str | Sequence[str]) -> frozenset[str] | None:
    """The tool names of one or more profiles (``"default,graph"``); None means every tool."""
    names = [n.strip() for part in ([spec] if isinstance(spec, str) else spec) for n in part.split(",") if n.strip()]
    unknown = [n for n in names if n not in PROFILES]
    if unknown or not names:
        raise ValidationError(
            f"unknown tool profile(s): {', '.join(unknown) or '(none given)'}",
            hint=f"use one or more of {', '.join(PROFILES)} (comma-separated)",
        )
    if "all" in names:
        return None
    return frozenset(tool for n in names for tool in PROFILES[n] or ())
