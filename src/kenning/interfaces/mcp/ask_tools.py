"""MCP tools for the single question and the core pack: `memory_ask`, `core_pack`, and the
resource ``kn://<project>/core``."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.across.answers import ask_all
from kenning.interfaces.mcp.context import READ, ServerContext, reply
from kenning.interfaces.mcp.memory_params import Limit
from kenning.interfaces.mcp.outputs import AnswerOut, PackOut
from kenning.interfaces.mcp.scope import cross_entries
from kenning.interfaces.render import answer_text
from kenning.interfaces.serve import ask_kept


def register(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(
        name="memory_ask",
        annotations=READ,
        description=(
            "One question (English or French) if unsure which tool fits: routed to search, graph, "
            "core pack or stale report. scope='all': every project you may read."
        ),
    )
    def memory_ask(
        question: Annotated[str, Field(min_length=1, max_length=500)],
        scope: Literal["project", "all"] = "project",
        limit: Limit = 10,
    ) -> Annotated[CallToolResult, AnswerOut]:
        if scope == "all":
            home, entries, _ = cross_entries(ctx)
            answer = ask_all(question, entries, now=ctx.clock(), limit=limit, home=home, stores=ctx.stores)
        else:
            answer = ask_kept(ctx.connections, question, now=ctx.clock(), limit=limit)
        return reply(answer_text(answer, option="limit"), answer.to_json())

    @server.tool(
        name="core_pack",
        annotations=READ,
        description=("Read first: the project's context, conventions and active decisions, in a fixed token budget."),
    )
    def core_pack() -> Annotated[CallToolResult, PackOut]:
        text, structured = pack_payload(ctx)
        return reply(text, structured)

    @server.resource(
        f"kn://{ctx.project.name}/core",
        name="core",
        description="The project core pack (context, conventions, active decisions), as Markdown.",
        mime_type="text/markdown",
    )
    def core_resource() -> str:
        return pack_payload(ctx)[0]


def pack_payload(ctx: ServerContext) -> tuple[str, dict]:
    """(text, structured content). An absent pack gives the not-built line, never silence."""
    from kenning.pack.manifest import read_manifest, read_text
    from kenning.pack.session import NOT_BUILT, summary

    manifest, text = read_manifest(ctx.project.state_dir), read_text(ctx.project.state_dir)
    if manifest is None or text is None:
        return NOT_BUILT, {"built": False, "status": NOT_BUILT}
    return f"{summary(manifest)}\n\n{text.rstrip()}", {"built": True, "status": summary(manifest), "manifest": manifest}
