"""Memory writes over MCP: save_memory, supersede, confirm, forget."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from kenning.citation import format_citation
from kenning.interfaces.mcp.context import ServerContext, guarded, reply
from kenning.interfaces.mcp.memory_params import FactRef, ProjectName, fact_id

WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
DESTRUCTIVE = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)
Reason = Annotated[str, Field(min_length=1, max_length=500, description="Why (kept with the lifecycle change).")]


def register(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(annotations=WRITE, description=(
        "Save a note (decision, correction, resolved failure, handoff fact) as an observation of this project. "
        "It has no re-readable source: it is served as `unverified` with its age, never `current`. An identical "
        "active note is not saved twice: the reply says `already saved as #N`. Keep it factual; no secrets."))
    @guarded
    def save_memory(
        text: Annotated[str, Field(min_length=1, max_length=20_000, description="The note, 1-20,000 characters.")],
        title: Annotated[str | None, Field(max_length=200, description="Title (default: first line).")] = None,
        type: Annotated[str, Field(pattern=r"^[a-z_]{1,40}$", description="observation, decision, failure, "
                                                                           "convention, …")] = "observation",
        tags: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]],
                        Field(max_length=20, description="Up to 20 tags.")] = [],  # noqa: B006 (schema default)
        why: Annotated[str | None, Field(max_length=2000, description="Why it matters.")] = None,
        how_to_apply: Annotated[str | None, Field(max_length=2000, description="When and how to use it.")] = None,
        importance: Annotated[int | None, Field(ge=1, le=10, description="1-10.")] = None,
        memory_type: Annotated[Literal["durable", "working"] | None,
                               Field(description="durable (holds) or working (for the task at hand).")] = None,
        session_id: Annotated[str | None, Field(max_length=128, pattern=r"^[A-Za-z0-9._:-]+$",
                                                description="The agent session it was learned in.")] = None,
        project: ProjectName = None,
    ) -> CallToolResult:
        from kenning.memory.layers import check_project
        from kenning.memory.observations import Observation, save

        check_project(ctx.project, project)
        obs = Observation(text=text, title=title, type=type, tags=tuple(tags), importance=importance, why=why,
                          how_to_apply=how_to_apply, memory_type=memory_type, session_id=session_id)
        with ctx.conn(create=True) as conn:
            saved = save(conn, ctx.project.name, obs, now=ctx.clock())
        citation = format_citation(ctx.project.name, saved.fact_id)
        message = f"saved as #{saved.fact_id} ({citation})" if saved.created else \
            f"already saved as #{saved.fact_id} ({citation}): nothing written"
        return reply(message, {"id": saved.fact_id, "citation": citation, "created": saved.created}, framed=False)

    @server.tool(annotations=WRITE, description=(
        "Mark fact `old` as superseded by fact `new` (both ids: 42, \"42\" or kn://…): `old` is no longer "
        "served by default. `new` must be active."))
    @guarded
    def supersede(old: FactRef, new: FactRef, reason: Reason) -> CallToolResult:
        from kenning.lifecycle import supersede as run

        with ctx.conn() as conn:
            old_fact, new_fact = run(conn, ctx.project.name, fact_id(old, ctx.project), fact_id(new, ctx.project),
                                     now=ctx.clock(), reason=reason)
        return reply(f"{old_fact.citation} superseded by {new_fact.citation} ({reason})",
                     {"old": old_fact.to_json(), "new": new_fact.to_json(), "reason": reason}, framed=False)

    @server.tool(annotations=WRITE, description=(
        "Record that a fact was reviewed and still holds: resets its age (an unverified note older than 270 "
        "days becomes a hypothesis; confirming it makes it unverified again, age 0)."))
    @guarded
    def confirm(id: FactRef) -> CallToolResult:
        from kenning.lifecycle import confirm as run

        with ctx.conn() as conn:
            fact = run(conn, ctx.project.name, fact_id(id, ctx.project), now=ctx.clock())
        return reply(f"{fact.citation} confirmed on {fact.dates.confirmed}", fact.to_json(), framed=False)

    @server.tool(annotations=DESTRUCTIVE, description=(
        "Delete a fact for good (not a supersede: nothing remains to read). Use after review, with a reason. "
        "A fact read from a file comes back at the next sync if the file still holds it."))
    @guarded
    def forget(target: FactRef, reason: Reason) -> CallToolResult:
        from kenning.lifecycle import forget as run

        with ctx.conn() as conn:
            fact = run(conn, ctx.project.name, fact_id(target, ctx.project))
        return reply(f"forgot {fact.citation}: {fact.title} ({reason})",
                     {"forgotten": fact.id, "citation": fact.citation, "title": fact.title, "reason": reason},
                     framed=False)
