"""Graph tools: graph_neighbours, graph_path, graph_impact, graph_touches.

Each answers in the answer contract (structured content); the text is one or two lines per
result with the path of typed edges (`calls(extracted)`, `touches(heuristic)`…). A node given
as another project's citation (``kn://beta/12``, from a cross-project search) is answered from
that project's store when the caller may read it, refused as ``memory_get`` refuses it otherwise
(``foreign.py``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.citation import cited_project
from kenning.interfaces.mcp.context import READ, ServerContext, reply
from kenning.interfaces.mcp.foreign import cited_store
from kenning.interfaces.mcp.outputs import AnswerOut
from kenning.interfaces.render import answer_text
from kenning.refs import unquoted
from kenning.store.db import SERVER_LEVEL

Node = Annotated[
    str, Field(min_length=1, max_length=300, description="Path, symbol, task (T-1, #12), ADR-0007 or commit sha.")
]
Limit = Annotated[int, Field(ge=1, le=100)]
Names = Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]] | None, Field(max_length=20)]
Out = Annotated[CallToolResult, AnswerOut]


def register(server: FastMCP, ctx: ServerContext) -> None:
    def run(
        query: str,
        node: str,
        *,
        other: str | None = None,
        hops: int = 1,
        edge_types: tuple[str, ...] = (),
        kinds: tuple[str, ...] = (),
        limit: int = 20,
        include_superseded: bool = False,
    ) -> CallToolResult:
        from kenning.answer.graph import GraphOptions, run_query

        options = GraphOptions(hops, edge_types, kinds, limit, include_superseded)
        names = [unquoted(name) for name in (node, other) if name is not None]
        with cited_store(ctx, [n for n in names if cited_project(n)]) as (read, conn):  # citations: foreign.py
            answer = run_query(conn, read, query, node, options, now=ctx.clock(), other=other)
        if read.config.store:
            answer = replace(answer, level=SERVER_LEVEL)
        return reply(answer_text(answer, option="limit"), answer.to_json())

    @server.tool(
        annotations=READ,
        description="Use to see what a file, symbol, task or decision is linked to "
        "(defines, calls, imports, tested_by, touches…), 1-2 hops, each with its typed, sourced edges.",
    )
    def graph_neighbours(
        node: Node,
        hops: Annotated[int, Field(ge=1, le=2)] = 1,
        edge_types: Names = None,
        kinds: Names = None,
        limit: Limit = 20,
        include_superseded: bool = False,
    ) -> Out:
        return run(
            "neighbours",
            node,
            hops=hops,
            edge_types=tuple(edge_types or ()),
            kinds=tuple(kinds or ()),
            limit=limit,
            include_superseded=include_superseded,
        )

    @server.tool(
        annotations=READ,
        description="Use to explain how two nodes connect (e.g. a task and a module): "
        "one shortest path of typed edges, each declared or heuristic.",
    )
    def graph_path(node: Node, other: Node, include_superseded: bool = False) -> Out:
        return run("path", node, other=other, include_superseded=include_superseded)

    @server.tool(
        annotations=READ,
        description="Use before changing a file or symbol: what depends on it "
        "(callers, importers, tests, dependent tasks, linking docs).",
    )
    def graph_impact(node: Node, limit: Limit = 20, include_superseded: bool = False) -> Out:
        return run("impact", node, limit=limit, include_superseded=include_superseded)

    @server.tool(
        annotations=READ,
        description="Use to learn why a file or symbol is as it is: the tasks, "
        "decisions, verdicts and commits that reach it, each with its typed path and source.",
    )
    def graph_touches(node: Node, limit: Limit = 20, include_superseded: bool = False) -> Out:
        return run("touches", node, limit=limit, include_superseded=include_superseded)
