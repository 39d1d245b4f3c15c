"""Memory tools: the three disclosure layers, strict / lenient / bounded search, writes,
chronology, raw tool uses, and facts as resources at ``kn://<project>/<id>``.

Each tool is a thin shell: validate (schema bounds, then typed core checks), call the core
in ``kenning.memory``, render with ``interfaces.memory_render``, return readable text framed
as data plus structured content in the answer contract.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from kenning.errors import NotFound
from kenning.interfaces import memory_render as mr
from kenning.interfaces.mcp.context import ServerContext, guarded, reply
from kenning.interfaces.mcp.memory_params import (
    FactRef, FactRefs, Limit, MemoryType, PathFilter, ProjectName, Query, TypeFilter, fact_id,
)
from kenning.interfaces.render import DATA_FRAME, badge
from kenning.records import FACT_SCHEMA

READ = ToolAnnotations(readOnlyHint=True, openWorldHint=False)


def register(server: FastMCP, ctx: ServerContext) -> None:
    from kenning.interfaces.mcp import memory_flow_tools, memory_write_tools

    _register_layers(server, ctx)
    _register_strictness(server, ctx)
    memory_write_tools.register(server, ctx)
    memory_flow_tools.register(server, ctx)
    _register_resource(server, ctx)


def _scope(types: str | None = None, path: str | None = None, memory_type: str | None = None,
           prefer_working: bool = False):
    from kenning.memory.layers import Scope

    return Scope((types,) if types else (), path or None, memory_type, prefer_working).check()


def _register_layers(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(annotations=READ, description=(
        "Layer 1 of 3, the cheapest (~15 tokens a row): a compact index of facts matching `query` "
        "(or, without a query, the newest saved memories). One row per fact: citation kn://…, type, "
        "importance, relevance (score ÷ best score), age in days, title. Start here; then memory_search for "
        "snippets or memory_get for the records you need."))
    @guarded
    def memory_index(query: Query | None = None, type_filter: TypeFilter = None, limit: Limit = 20,
                     project: ProjectName = None) -> CallToolResult:
        from kenning.memory.layers import check_project, find, recent

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            if query:
                answer, _ = find(conn, ctx.project, query, _scope(type_filter), limit, now=ctx.clock())
            else:
                answer = recent(conn, ctx.project, _scope(type_filter), limit, now=ctx.clock())
        return reply(mr.index_text(answer), answer.to_json())

    @server.tool(annotations=READ, description=(
        "Layer 2 of 3 (~60 tokens a hit): hits with a snippet, badge and date, plus a 'Session rollups' "
        "section when session summaries match. `query` accepts FTS5 syntax: terms, \"phrases\", prefix*, "
        "AND / OR / NOT, parentheses; invalid syntax is an error, never an empty result."))
    @guarded
    def memory_search(query: Query, type_filter: TypeFilter = None, limit: Limit = 10,
                      project: ProjectName = None) -> CallToolResult:
        from kenning.memory.layers import check_project, find

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            answer, _ = find(conn, ctx.project, query, _scope(type_filter), limit, now=ctx.clock(), syntax="fts")
            rollups = ()
            if type_filter in (None, "session_summary"):
                summaries, _ = find(conn, ctx.project, query, _scope("session_summary"), 3, now=ctx.clock(),
                                    syntax="fts")
                rollups = summaries.excerpts
        hits = tuple(ex for ex in answer.excerpts if ex.fact.type != "session_summary") if rollups else answer.excerpts
        structured = answer.to_json()
        structured["rollups"] = [ex.to_json() for ex in rollups]
        return reply(mr.search_text(dataclasses.replace(answer, excerpts=hits), rollups), structured)

    @server.tool(annotations=READ, description=(
        "Layer 3 of 3 (~200 tokens a record): full records for 1-20 ids (42, \"42\" or kn://<project>/42): "
        "body, why, how to apply, tags, session, freshness and lifecycle. Bodies over 520 characters are cut "
        "with a [cut: …] marker unless full=true (then up to 20,000); a reply stops at 16,000 characters and "
        "names the records it left out."))
    @guarded
    def memory_get(ids: FactRefs, full: bool = False, project: ProjectName = None) -> CallToolResult:
        from kenning.memory.layers import check_project, details

        check_project(ctx.project, project)
        wanted = [fact_id(raw, ctx.project) for raw in ids]
        with ctx.conn() as conn:
            found, missing = details(conn, ctx.project, wanted, now=ctx.clock())
        text, cuts = mr.details_text(found, missing, full=full)
        structured = {"schema": FACT_SCHEMA, "facts": [
            {**d.fact.to_json(), "freshness": d.freshness.to_json(), "session_id": d.session_id,
             **({"summary": d.summary} if d.summary else {})} for d in found], "missing": missing, "cut": cuts}
        return reply(text, structured)

    @server.tool(annotations=READ, description=(
        "Chronological context around one fact: the memories saved just before and after it, or for a fact "
        "read from a file the excerpts just above and below it. depth_before / depth_after: 0-3 rows."))
    @guarded
    def memory_timeline(anchor: FactRef,
                        depth_before: Annotated[int, Field(ge=0, le=3, description="Rows before (0-3).")] = 2,
                        depth_after: Annotated[int, Field(ge=0, le=3, description="Rows after (0-3).")] = 2,
                        project: ProjectName = None) -> CallToolResult:
        from kenning.memory.layers import check_project
        from kenning.memory.timeline import around

        check_project(ctx.project, project)
        anchor_id = fact_id(anchor, ctx.project)
        with ctx.conn() as conn:
            entries = around(conn, ctx.project, [anchor_id], depth_before, depth_after, now=ctx.clock())
        rows = [{"id": e.fact.id, "citation": e.fact.citation, "type": e.fact.type, "title": e.fact.title,
                 "date": e.fact.dates.source or e.fact.dates.indexed, "offset": e.offset,
                 "freshness": e.freshness.to_json()} for e in entries]
        return reply(mr.timeline_text(entries, f"memory_timeline around #{anchor_id}"),
                     {"anchor": anchor_id, "timeline": rows})

    @server.tool(annotations=READ, description=(
        "The exceptional last layer: exact recorded tool input and output (from `kenning hook post-tool-use`) "
        "for 1-20 tool-use ids (the row id or the client's tool_use_id). Ask only for the ids an earlier layer "
        "pointed to; each input and response is cut at 4,000 characters with a marker."))
    @guarded
    def get_tool_uses(ids: Annotated[list[int | str], Field(min_length=1, max_length=20,
                                                            description="1-20 tool-use ids.")],
                      project: ProjectName = None) -> CallToolResult:
        from kenning.memory.layers import check_project
        from kenning.memory.sessions import get_tool_uses as fetch

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            found, missing = fetch(conn, [str(i) for i in ids])
        return reply(mr.tool_uses_text(found, missing),
                     {"tool_uses": [u.to_json() for u in found], "missing": missing})


def _register_strictness(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(annotations=READ, description=(
        "Strict search: serves only strong matches, where every significant query term (stop words dropped) "
        "starts a word of the fact, and says how many weak matches it withheld. Use recall when a partial "
        "match is acceptable. path_filter: source-path prefix; memory_type: durable or working; "
        "prefer_working ranks recent working memories higher."))
    @guarded
    def search_memory(query: Query, limit: Limit = 5, path_filter: PathFilter = None,
                      memory_type: MemoryType = None, prefer_working: bool = False) -> CallToolResult:
        from kenning.memory.strictness import strict

        with ctx.conn() as conn:
            result = strict(conn, ctx.project, query, _scope(None, path_filter, memory_type, prefer_working),
                            limit, now=ctx.clock())
        structured = {**result.answer.to_json(), "withheld_weak": result.withheld,
                      "withheld_may_be_more": result.pool_full}
        return reply(mr.scored_text(result.answer, title="search_memory (strict)", withheld=result.withheld,
                                    pool_full=result.pool_full), structured)

    @server.tool(annotations=READ, description=(
        "Lenient recall: the best matches there are, partial ones included, each with its score (BM25-based, "
        "weighted by freshness, importance and, with prefer_working, recency). Same filters as search_memory."))
    @guarded
    def recall(query: Query, limit: Limit = 5, path_filter: PathFilter = None, memory_type: MemoryType = None,
               prefer_working: bool = False) -> CallToolResult:
        from kenning.memory.strictness import lenient

        with ctx.conn() as conn:
            answer = lenient(conn, ctx.project, query, _scope(None, path_filter, memory_type, prefer_working),
                             limit, now=ctx.clock())
        return reply(mr.scored_text(answer, title="recall (lenient)"), answer.to_json())

    @server.tool(annotations=READ, description=(
        "A context pack within a token budget (tokens estimated as characters ÷ 4): the best matches, each a "
        "citation line and as much body as fits. The whole reply stays within max_tokens; it states the "
        "tokens used, how many matching facts it left out and how many bodies it cut."))
    @guarded
    def recall_context(query: Query,
                       max_tokens: Annotated[int, Field(ge=150, le=8000, description="Budget, 150-8000.")] = 1000,
                       max_items: Annotated[int, Field(ge=1, le=20, description="Most items, 1-20.")] = 8,
                       path_filter: PathFilter = None, memory_type: MemoryType = None,
                       prefer_working: bool = False) -> CallToolResult:
        from kenning.memory.bounded import pack
        from kenning.tokens import cut, estimate

        footer_room = 160
        shown, lost = cut(query, 60)
        header = f"recall_context for {shown!r}" + ("…" if lost else "")
        reserved = len(DATA_FRAME) + len(header) + footer_room + 3
        with ctx.conn() as conn:
            result = pack(conn, ctx.project, query, _scope(None, path_filter, memory_type, prefer_working),
                          max_tokens=max_tokens, max_items=max_items, reserved_chars=reserved, badge=badge,
                          now=ctx.clock())
        body = "\n".join(result.items)
        draft = "\n".join([DATA_FRAME, header, body])
        footer = (f"budget: {{used}}/{max_tokens} tokens used · {len(result.items)} of {result.matching} matching "
                  f"fact(s) packed, {result.left_out} left out · {result.bodies_cut} body(ies) cut")
        used = estimate(draft + "\n" + footer.format(used=max_tokens))
        footer = footer.format(used=used)
        if not body:
            body = ("no item fits: raise max_tokens" if result.matching else "no results: no_match")
        text = "\n".join([header, body, footer])
        structured = {**result.answer.to_json(), "budget": {"max_tokens": max_tokens, "used_tokens": used,
                                                            "matching": result.matching,
                                                            "left_out": result.left_out,
                                                            "bodies_cut": result.bodies_cut}}
        return reply(text, structured)


def _register_resource(server: FastMCP, ctx: ServerContext) -> None:
    @server.resource("kn://{project}/{fact}", name="fact", mime_type="text/plain",
                     description="A fact of this project as a full record, framed as data.")
    def fact_resource(project: str, fact: str) -> str:
        from kenning.memory.layers import check_project, details

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            found, missing = details(conn, ctx.project, [fact_id(fact, ctx.project)], now=ctx.clock())
        if missing:
            raise NotFound(f"no fact #{missing[0]} in project {ctx.project.name!r}")
        text, _ = mr.details_text(found, missing)
        return f"{DATA_FRAME}\n{text}"
