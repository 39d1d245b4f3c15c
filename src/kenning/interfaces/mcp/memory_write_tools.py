"""Memory writes over MCP: save_memory, supersede, confirm, forget."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.citation import format_citation
from kenning.errors import ScopeDenied
from kenning.interfaces.mcp.context import ALLOWED_PROJECTS, DESTRUCTIVE, WRITE, ServerContext, reply
from kenning.interfaces.mcp.memory_params import FactRef, fact_id
from kenning.interfaces.mcp.outputs import FactOut, ForgottenOut, SavedOut, SupersededOut
from kenning.interfaces.render import saved_payload, saved_text
from kenning.registry import GLOBAL_NAME

Reason = Annotated[str, Field(min_length=1, max_length=500, description="Why (kept with the lifecycle change).")]


def register(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(
        annotations=WRITE,
        description=(
            "Use to keep what you learn (decision, correction, resolved failure, handoff); served later as "
            "`unverified`, saved once. No secrets. scope='global': for all your projects."
        ),
    )
    def save_memory(
        text: Annotated[str, Field(min_length=1, max_length=20_000)],
        title: Annotated[str | None, Field(max_length=200, description="Default: first line.")] = None,
        type: Annotated[
            str, Field(max_length=40, pattern=r"^[a-z_]{1,40}$", description="decision, failure, convention, …")
        ] = "observation",
        tags: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(max_length=20)] = [],  # noqa: B006 (schema default)
        why: Annotated[str | None, Field(max_length=2000)] = None,
        how_to_apply: Annotated[str | None, Field(max_length=2000)] = None,
        importance: Annotated[int | None, Field(ge=1, le=10)] = None,
        memory_type: Annotated[
            Literal["durable", "working"] | None, Field(description="working: for this task.")
        ] = None,
        session_id: Annotated[
            str | None,
            Field(
                max_length=128,
                pattern=r"^[A-Za-z0-9._:-]+$",
            ),
        ] = None,
        scope: Literal["project", "global"] = "project",
        project: Annotated[str | None, Field(max_length=64)] = None,
    ) -> Annotated[CallToolResult, SavedOut]:
        from kenning import dense
        from kenning.memory.layers import check_project
        from kenning.memory.observations import Observation, save

        if scope == "global" or project == GLOBAL_NAME:  # project='global': the older spelling, still read
            from kenning.across.transverse import embed_global, remember_global
            from kenning.config import kenning_home

            if ALLOWED_PROJECTS.get() is not None:  # a token is bound to projects, never to the user's own notes
                raise ScopeDenied(
                    "scope='global' writes the user's transverse memory: not over HTTP",
                    hint="save it in this project (omit scope)",
                )
            store, saved = remember_global(
                kenning_home(),
                text,
                now=ctx.clock(),
                title=title,
                type_=type,
                tags=tuple(tags),
                origin="mcp",
                producer="agent",
            )
            name, embedded, sync = store.name, embed_global(kenning_home()), "kenning sync --global"
        else:
            check_project(ctx.project, project)
            obs = Observation(
                text=text,
                title=title,
                type=type,
                tags=tuple(tags),
                importance=importance,
                why=why,
                how_to_apply=how_to_apply,
                memory_type=memory_type,
                session_id=session_id,
            )
            with ctx.conn(create=True) as conn:
                saved = save(conn, ctx.project.name, obs, now=ctx.clock())
                # The server keeps its models loaded: embedding one note costs milliseconds, and
                # keeps a complete index complete (answers stay hybrid).
                embedded = dense.embed_saved(conn, ctx.project, [saved.fact_id])
            name, sync = ctx.project.name, "kenning sync"
        citation = format_citation(name, saved.fact_id)
        return reply(
            saved_text(f"#{saved.fact_id} ({citation})", saved.created, saved.tags_added, embedded, sync=sync),
            saved_payload(citation, saved.fact_id, saved.created, saved.tags_added, embedded),
            framed=False,
        )

    @server.tool(
        annotations=WRITE,
        description=(
            "Use when a memory or note was replaced: marks `old` superseded by the active fact `new`; `old` is no "
            "longer served by default. An excerpt of a project file is refused: change the file instead."
        ),
    )
    def supersede(old: FactRef, new: FactRef, reason: Reason) -> Annotated[CallToolResult, SupersededOut]:
        from kenning.lifecycle import supersede as run

        with ctx.conn() as conn:
            old_fact, new_fact = run(
                conn,
                ctx.project.name,
                fact_id(old, ctx.project),
                fact_id(new, ctx.project),
                now=ctx.clock(),
                reason=reason,
            )
        return reply(
            f"{old_fact.citation} superseded by {new_fact.citation} ({reason})",
            {"old": old_fact.to_json(), "new": new_fact.to_json(), "reason": reason},
            framed=False,
        )

    @server.tool(
        annotations=WRITE,
        description=(
            "Use after checking that a fact still holds: resets its age (a note older than 270 days is served as a "
            "hypothesis until confirmed)."
        ),
    )
    def confirm(id: FactRef) -> Annotated[CallToolResult, FactOut]:
        from kenning.lifecycle import confirm as run

        with ctx.conn() as conn:
            fact = run(conn, ctx.project.name, fact_id(id, ctx.project), now=ctx.clock())
        return reply(f"{fact.citation} confirmed on {fact.dates.confirmed}", fact.to_json(), framed=False)

    @server.tool(
        annotations=DESTRUCTIVE,
        description=(
            "Delete a memory or note for good (prefer supersede when it was replaced). An excerpt of a project "
            "file is refused: change the file instead."
        ),
    )
    def forget(target: FactRef, reason: Reason) -> Annotated[CallToolResult, ForgottenOut]:
        from kenning.lifecycle import forget as run

        with ctx.conn() as conn:
            fact = run(conn, ctx.project.name, fact_id(target, ctx.project))
        return reply(
            f"forgot {fact.citation}: {fact.title} ({reason})",
            {"forgotten": fact.id, "citation": fact.citation, "title": fact.title, "reason": reason},
            framed=False,
        )
