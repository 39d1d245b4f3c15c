"""Graph tools: graph_neighbours, graph_path, graph_impact, graph_touches.

Each answers in the answer contract (structured content); the text is one or two lines per
result with the path of typed edges (`calls(extracted)`, `touches(heuristic)`…)."""

from __future__ import annotations

from typing import Annotated

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.interfaces.mcp.context import ServerContext, guarded, reply
from kenning.interfaces.render import answer_text

Node = Annotated[str, Field(description="A path (src/a.py), symbol (rrf_fuse, pkg.mod.Cls.run), task id (T-1, #12), "
                                        "ADR id (ADR-0007) or commit sha prefix.", max_length=300)]
Limit = Annotated[int, Field(ge=1, le=100, description="Most results.")]


def register(server: FastMCP, ctx: ServerContext) -> None:
    def run(query: str, node: str, *, other: str | None = None, **options: object) -> CallToolResult:
        from kenning.answer.graph import GraphOptions, run_query

        with ctx.conn() as conn:
            answer = run_query(conn, ctx.project, query, node, GraphOptions(**options), now=ctx.clock(), other=other)
        return reply(answer_text(answer), answer.to_json())

    @server.tool(description="What a node is linked to, 1-2 hops away (defines, calls, imports, tested_by, "
                             "touches, ...), each result with its path of typed, sourced edges.")
    @guarded
    def graph_neighbours(node: Node, hops: Annotated[int, Field(ge=1, le=2)] = 1,
                         edge_types: list[str] | None = None, kinds: list[str] | None = None,
                         limit: Limit = 20, include_superseded: bool = False) -> CallToolResult:
        return run("neighbours", node, hops=hops, edge_types=tuple(edge_types or ()), kinds=tuple(kinds or ()),
                   limit=limit, include_superseded=include_superseded)

    @server.tool(description="One shortest path of typed, sourced edges between two nodes (file, symbol, task, "
                            "decision, commit), e.g. how a task reaches a module; each edge says declared or heuristic.")
    @guarded
    def graph_path(node: Node, other: Node, include_superseded: bool = False) -> CallToolResult:
        return run("path", node, other=other, include_superseded=include_superseded)

    @server.tool(description="What depends on a node: callers, importers, tests, dependent tasks, linking docs.")
    @guarded
    def graph_impact(node: Node, limit: Limit = 20, include_superseded: bool = False) -> CallToolResult:
        return run("impact", node, limit=limit, include_superseded=include_superseded)

    @server.tool(description="Tasks, evidence, verdicts, decisions and commits that reach a file or symbol, "
                             "each as a path of typed edges with link (declared/heuristic/extracted) and source.")
    @guarded
    def graph_touches(node: Node, limit: Limit = 20, include_superseded: bool = False) -> CallToolResult:
        return run("touches", node, limit=limit, include_superseded=include_superseded)
