"""MCP tools for the single question and the core pack: `memory_ask`, `core_pack`, and the
resource ``kn://<project>/core``."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.interfaces.mcp.context import ServerContext, guarded, reply
from kenning.interfaces.render import answer_text


def register(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(
        name="memory_ask",
        description=(
            "Ask one question about the project. A rule table picks the mode (lexical for identifiers, "
            "graph for relations, core pack for conventions and decisions, freshness report for what is "
            "stale) and the answer names the mode, the rule, the level and any degradation. "
            "scope: 'project' (this project) or 'all' (every registered project, confidential ones "
            "excluded, one list labelled by project)."
        ),
    )
    @guarded
    def memory_ask(
        question: Annotated[str, Field(description="The question, in English or French (at most 500 characters).")],
        scope: Annotated[Literal["project", "all"], Field(description="'project' or 'all'.")] = "project",
    ) -> CallToolResult:
        from kenning.answer.ask import ask_all, ask_project

        if scope == "all":
            from kenning import registry
            from kenning.config import kenning_home

            answer = ask_all(question, registry.list_entries(kenning_home()), now=ctx.clock())
        else:
            answer = ask_project(ctx.project, question, now=ctx.clock())
        return reply(answer_text(answer), answer.to_json())

    @server.tool(
        name="core_pack",
        description=(
            "The project core: context, conventions and active decisions within a fixed token budget, "
            "the same text an agent receives at session start. Cheap; read it before working here."
        ),
    )
    @guarded
    def core_pack() -> CallToolResult:
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
