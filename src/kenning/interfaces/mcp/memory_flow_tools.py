"""``mem_search``: the guided (three calls) and automatic (one call) progressive searches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.errors import SkippedStep, ValidationError
from kenning.interfaces import memory_render as mr
from kenning.interfaces.mcp.context import READ, ServerContext, reply
from kenning.interfaces.mcp.memory_params import IdRef, ProjectName, Query, TypeFilter
from kenning.interfaces.mcp.outputs import GuidedOut
from kenning.tokens import estimate

if TYPE_CHECKING:
    from kenning.memory.guided import AutoResult, ContextStep, DetailStep, Ended, IndexStep

DESCRIPTION = """Use to search memory step by step instead of fetching full records.
mode="guided": step 1 returns an index and a cursor (`Continue with:`); step 2, mem_search(continuation=<cursor>, \
selectedIds=[ids from the index]), returns the context around them and a new cursor; step 3, the same with ids from \
the context (≤ maxDetails), returns full records. Pass cursors unchanged (they expire after 15 minutes) and only ids \
the previous step showed; selectedIds=[] ends. Stop as soon as a step answers.
mode="auto": index → context → ≤ maxDetails records in one call."""


def register(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(annotations=READ, description=DESCRIPTION)
    def mem_search(
        mode: Literal["guided", "auto"] = "guided",
        query: Query | None = None,
        project: ProjectName = None,
        limit: Annotated[int | None, Field(ge=1, le=20, description="Index rows, 1-20 (default 20).")] = None,
        maxDetails: Annotated[int | None, Field(ge=1, le=5, description="Records at the end, 1-5 (default 3).")] = None,
        depthBefore: Annotated[
            int | None, Field(ge=0, le=3, description="Context rows before, 0-3 (default 1).")
        ] = None,
        depthAfter: Annotated[int | None, Field(ge=0, le=3, description="Context rows after, 0-3 (default 1).")] = None,
        continuation: Annotated[
            str | None, Field(max_length=40, description="The cursor from `Continue with:`.")
        ] = None,
        selectedIds: Annotated[
            list[IdRef] | None,
            Field(max_length=20, description="Ids chosen from the previous step; [] ends the search."),
        ] = None,
        step: Annotated[
            Literal[2, 3] | None, Field(description="Optional: the step you mean to run (checked against the cursor).")
        ] = None,
        type_filter: TypeFilter = None,
    ) -> Annotated[CallToolResult, GuidedOut]:
        from kenning.memory import guided
        from kenning.memory.layers import Scope, check_project

        given = {"limit": limit, "max_details": maxDetails, "depth_before": depthBefore, "depth_after": depthAfter}
        if continuation is not None:
            if mode == "auto":
                raise ValidationError(
                    'mode="auto" takes no continuation', hint='drop continuation, or use mode="guided"'
                )
            if selectedIds is None:
                raise ValidationError(
                    "a continuation needs selectedIds",
                    hint="pass selectedIds=[ids from the previous step], or [] to end",
                )
            asked = guided.Asked(
                tuple(str(i) for i in selectedIds), step, query, project, (type_filter,) if type_filter else None, given
            )
            with ctx.conn() as conn:
                outcome = guided.proceed(conn, ctx.project, continuation, asked, now=ctx.clock())
            return _render_continuation(outcome)
        if selectedIds is not None or step is not None:
            raise SkippedStep(
                f"step {step or 2} needs the cursor of the step before it; this call has none",
                hint='start with step 1: mem_search(query=..., mode="guided")',
            )
        check_project(ctx.project, project)
        if query is None:
            raise ValidationError("a new search needs a query", hint='mem_search(query="…", mode="guided")')
        options = guided.Options(**{k: v for k, v in given.items() if v is not None}).check()
        scope = Scope((type_filter,) if type_filter else ())
        with ctx.conn() as conn:
            if mode == "auto":
                return _render_auto(guided.auto(conn, ctx.project, query, options, scope, now=ctx.clock()))
            first = guided.start(conn, ctx.project, query, options, scope, now=ctx.clock())
        return _render_index(first)


def _render_index(first: IndexStep) -> CallToolResult:
    lines = [
        f"mem-search step 1 of 3 · index · {len(first.answer.excerpts)} candidate(s)",
        *mr.index_text(first.answer).splitlines()[1:],
    ]
    if first.token is None:
        lines.append("Next: nothing matched; no detail to fetch. Try other words or stop.")
    else:
        lines += [
            f"Continue with: {first.token}",
            "Next: stop if titles answer; else mem_search(continuation=<cursor>, selectedIds=[≤5 ids])",
        ]
    return reply("\n".join(lines), {"step": 1, "continuation": first.token, **first.answer.to_json()})


def _render_continuation(outcome: ContextStep | DetailStep | Ended) -> CallToolResult:
    from kenning.memory.guided import ContextStep, DetailStep, Ended

    match outcome:
        case Ended():
            return reply(
                "mem-search ended: this cursor is closed.\nNext: start a new search with "
                "mem_search(query=...) if needed.",
                {"step": None, "ended": True},
                framed=False,
            )
        case ContextStep():
            rows = mr.timeline_text(outcome.entries, "").splitlines()[1:]
            lines = [
                "mem-search step 2 of 3 · context · > marks an anchor",
                *rows,
                f"Continue with: {outcome.token}",
                f"Next: stop if this answers; else continuation=<cursor>, selectedIds=[≤{outcome.max_details} ids]",
            ]
            structured = {
                "step": 2,
                "continuation": outcome.token,
                "anchors": list(outcome.anchors),
                "context": [
                    {
                        "id": e.fact.id,
                        "citation": e.fact.citation,
                        "type": e.fact.type,
                        "title": e.fact.title,
                        "anchor": e.anchor,
                        "offset": e.offset,
                    }
                    for e in outcome.entries
                ],
            }
            return reply("\n".join(lines), structured)
        case DetailStep():
            text, cuts = mr.details_text(outcome.details, [])
            lines = [
                f"mem-search step 3 of 3 · {len(outcome.details)} record(s)",
                text,
                "Next: answer from these records.",
            ]
            structured = {
                "step": 3,
                "facts": [{**d.fact.to_json(), "freshness": d.freshness.to_json()} for d in outcome.details],
                "cut": cuts,
            }
            return reply("\n".join(lines), structured)
    raise AssertionError(outcome)


def _render_auto(result: AutoResult) -> CallToolResult:
    text, cuts = mr.details_text(result.details, []) if result.details else ("no results: no_match", {})
    steps = (
        f"mem-search auto · performed: index ({len(result.index.excerpts)} candidate(s)) → context "
        f"({len(result.context)} row(s) around {len(result.anchors)} anchor(s)) → details "
        f"({len(result.details)} record(s))"
    )
    budget = f"budget: ~{estimate(text)} tokens of records; {cuts.get('bodies_cut', 0)} body(ies) cut"
    lines = [
        steps,
        text,
        budget,
        "Next: review the evidence before answering; automatic selection does not guarantee these records "
        'answer the question. Use mode="guided" to choose other candidates.',
    ]
    structured = {
        "mode": "auto",
        **result.index.to_json(),
        "anchors": list(result.anchors),
        "context_ids": [e.fact.id for e in result.context],
        "facts": [{**d.fact.to_json(), "freshness": d.freshness.to_json()} for d in result.details],
    }
    return reply("\n".join(lines), structured)
