"""Memory tools: the three disclosure layers, strict / lenient / bounded search, writes,
chronology, raw tool uses, and facts as resources at ``kn://<project>/<id>``.

Each tool is a thin shell: validate (schema bounds, then typed core checks), call the core
in ``kenning.memory``, render with ``interfaces.memory_render``, return readable text framed
as data plus structured content in the answer contract.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated

import anyio.to_thread
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult
from pydantic import Field

from kenning.across.answers import PerStore, over_stores
from kenning.citation import facts_not_found, format_citation
from kenning.interfaces import memory_render as mr
from kenning.interfaces.mcp.context import READ, ServerContext, reply
from kenning.interfaces.mcp.foreign import cited_store
from kenning.interfaces.mcp.memory_params import (
    FactRef,
    FactRefs,
    IdRef,
    Limit,
    MemoryType,
    PathFilter,
    ProjectName,
    Projects,
    Query,
    TypeFilter,
    fact_id,
)
from kenning.interfaces.mcp.outputs import (
    AnswerOut,
    BudgetOut,
    FactsOut,
    SearchOut,
    StrictOut,
    TimelineOut,
    ToolUsesOut,
)
from kenning.interfaces.mcp.scope import cross_entries, requested
from kenning.interfaces.render import DATA_FRAME, badge
from kenning.records import FACT_SCHEMA, Answer, Excerpt, ScopeEntry
from kenning.search.serve import SYNC_RUNNING_NOTE, sync_running

if TYPE_CHECKING:
    from kenning.memory.layers import Scope


def register(server: FastMCP, ctx: ServerContext) -> None:
    from kenning.interfaces.mcp import memory_flow_tools, memory_write_tools

    _register_layers(server, ctx)
    _register_strictness(server, ctx)
    memory_write_tools.register(server, ctx)
    memory_flow_tools.register(server, ctx)
    _register_resource(server, ctx)


# What an empty memory_search says when its query reads as words, not FTS5 syntax: each word must
# then match (an agent passing the question it gave memory_index got "no_match" and no clue why).
WORDS_HINT = (
    "memory_search reads FTS5 syntax: every word of the query must match one excerpt; for a question in "
    "words use memory_index or memory_ask, or join the words with OR"
)
_OPERATORS = ("AND", "OR", "NOT", "NEAR")


def _in_words(query: str) -> bool:
    """Whether ``query`` is three words or more with no FTS5 operator, phrase or prefix mark."""
    words = query.split()
    return len(words) >= 3 and not any(w in _OPERATORS or '"' in w or w.endswith("*") for w in words)


def _scope(
    types: str | None = None, path: str | None = None, memory_type: str | None = None, prefer_working: bool = False
) -> Scope:
    from kenning.memory.layers import Scope

    return Scope((types,) if types else (), path or None, memory_type, prefer_working).check()


def _is_cross(ctx: ServerContext, project: str | None) -> bool:
    return requested(project, ctx)[0]


def _across(ctx: ServerContext, project: str | None, query: str, limit: int, per_store: PerStore) -> Answer:
    """One layer's answer over the registered projects named (``*``: all) and the transverse
    memory, read-only, fused by RRF; names not registered are listed as excluded."""
    home, entries, unknown = cross_entries(ctx, requested(project, ctx)[1])
    extra = [ScopeEntry(name, "not registered on this machine") for name in unknown]
    return over_stores(entries, query, per_store, limit, home=home, stores=ctx.stores, excluded=extra)


def _register_layers(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(
        annotations=READ,
        description=(
            "Start here to find facts. Layer 1 of 3: one ~15-token row per match (citation, type, importance, "
            "relevance, age, title); no query: newest memories. Then memory_search or memory_get."
        ),
    )
    def memory_index(
        query: Query | None = None, type_filter: TypeFilter = None, limit: Limit = 20, project: ProjectName = None
    ) -> Annotated[CallToolResult, AnswerOut]:
        from kenning.memory.layers import check_project, find, recent

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            if query:
                answer, _ = find(conn, ctx.project, query, _scope(type_filter), limit, now=ctx.clock())
            else:
                answer = recent(conn, ctx.project, _scope(type_filter), limit, now=ctx.clock())
        return reply(mr.index_text(answer), answer.to_json())

    @server.tool(
        annotations=READ,
        description=(
            "Layer 2 of 3, when titles are not enough: ~60-token hits with snippet, freshness and date, plus "
            'session rollups. FTS5 syntax: "phrases", prefix*, AND/OR/NOT.'
        ),
    )
    def memory_search(
        query: Query, type_filter: TypeFilter = None, limit: Limit = 10, project: Projects = None
    ) -> Annotated[CallToolResult, SearchOut]:
        from kenning.memory.layers import check_project, find

        if _is_cross(ctx, project):
            answer = _across(
                ctx,
                project,
                query,
                limit,
                lambda conn, p, n: find(conn, p, query, _scope(type_filter), n, now=ctx.clock(), syntax="fts")[0],
            )
            return reply(mr.search_text(answer, ()), {**answer.to_json(), "rollups": []})
        check_project(ctx.project, project)
        with ctx.conn() as conn:
            answer, _ = find(conn, ctx.project, query, _scope(type_filter), limit, now=ctx.clock(), syntax="fts")
            rollups: tuple[Excerpt, ...] = ()
            if type_filter in (None, "session_summary"):
                summaries, _ = find(
                    conn, ctx.project, query, _scope("session_summary"), 3, now=ctx.clock(), syntax="fts"
                )
                rollups = summaries.excerpts
        hits = tuple(ex for ex in answer.excerpts if ex.fact.type != "session_summary") if rollups else answer.excerpts
        if not answer.excerpts and _in_words(query):
            answer = dataclasses.replace(answer, notes=(*answer.notes, WORDS_HINT))
        structured = answer.to_json()
        structured["rollups"] = [ex.to_json() for ex in rollups]
        return reply(mr.search_text(dataclasses.replace(answer, excerpts=hits), rollups), structured)

    @server.tool(
        annotations=READ,
        description=(
            "Layer 3 of 3, for the ids you will cite: full records (~200 tokens each): body, "
            "freshness, lifecycle; bodies over 520 chars cut unless full=true."
        ),
    )
    def memory_get(
        ids: FactRefs, full: bool = False, project: ProjectName = None
    ) -> Annotated[CallToolResult, FactsOut]:
        from kenning.memory.layers import check_project, details

        check_project(ctx.project, project)
        with cited_store(ctx, ids) as (read, conn):  # a cross-project search's citations (foreign.py)
            wanted = [fact_id(raw, read) for raw in ids]
            found, missing = details(conn, read, wanted, now=ctx.clock())
        if not found:
            raise facts_not_found(missing, read.name)
        other = read.name if read is not ctx.project else None
        text, cuts = mr.details_text(found, missing, full=full, cited=other)
        structured = {
            "schema": FACT_SCHEMA,
            "facts": [
                {
                    **d.fact.to_json(),
                    "freshness": d.freshness.to_json(),
                    "session_id": d.session_id,
                    **({"summary": d.summary} if d.summary else {}),
                }
                for d in found
            ],
            "missing": missing,
            "cut": cuts,
        }
        return reply(text, structured)

    @server.tool(
        annotations=READ,
        description=(
            "Use to see what was saved just before and after one fact (or the excerpts around a file excerpt), "
            "0-3 rows each side."
        ),
    )
    def memory_timeline(
        anchor: FactRef,
        depth_before: Annotated[int, Field(ge=0, le=3, description="Rows before (0-3).")] = 2,
        depth_after: Annotated[int, Field(ge=0, le=3, description="Rows after (0-3).")] = 2,
        project: ProjectName = None,
    ) -> Annotated[CallToolResult, TimelineOut]:
        from kenning.memory.layers import check_project
        from kenning.memory.timeline import around

        check_project(ctx.project, project)
        with cited_store(ctx, [anchor]) as (read, conn):  # another project's citation (foreign.py)
            anchor_id = fact_id(anchor, read)
            entries = around(conn, read, [anchor_id], depth_before, depth_after, now=ctx.clock())
        rows = [
            {
                "id": e.fact.id,
                "citation": e.fact.citation,
                "type": e.fact.type,
                "title": e.fact.title,
                "date": e.fact.dates.source or e.fact.dates.indexed,
                "offset": e.offset,
                "freshness": e.freshness.to_json(),
            }
            for e in entries
        ]
        shown = f"#{anchor_id}" if read is ctx.project else format_citation(read.name, anchor_id)
        return reply(
            mr.timeline_text(entries, f"memory_timeline around {shown}"),
            {"anchor": anchor_id, "project": read.name, "timeline": rows},
        )

    @server.tool(
        annotations=READ,
        description=(
            "Rarely needed: the exact recorded input and output of 1-20 tool uses an earlier layer pointed to "
            "(each cut at 4,000 characters)."
        ),
    )
    def get_tool_uses(
        ids: Annotated[list[IdRef], Field(min_length=1, max_length=20, description="1-20 tool-use ids.")],
        project: ProjectName = None,
    ) -> Annotated[CallToolResult, ToolUsesOut]:
        from kenning.memory.layers import check_project
        from kenning.memory.sessions import get_tool_uses as fetch

        check_project(ctx.project, project)
        with ctx.conn() as conn:
            found, missing = fetch(conn, [str(i) for i in ids])
        return reply(mr.tool_uses_text(found, missing), {"tool_uses": [u.to_json() for u in found], "missing": missing})


def _register_strictness(server: FastMCP, ctx: ServerContext) -> None:
    @server.tool(
        annotations=READ,
        description=(
            "Strict search: use when only strong matches will do (every significant term starts a word); says "
            "how many weak matches it withheld. path_filter: source-path prefix."
        ),
    )
    def search_memory(
        query: Query,
        limit: Limit = 5,
        path_filter: PathFilter = None,
        memory_type: MemoryType = None,
        prefer_working: bool = False,
    ) -> Annotated[CallToolResult, StrictOut]:
        from kenning.memory.strictness import strict

        with ctx.conn() as conn:
            result = strict(
                conn, ctx.project, query, _scope(None, path_filter, memory_type, prefer_working), limit, now=ctx.clock()
            )
        structured = {
            **result.answer.to_json(),
            "withheld_weak": result.withheld,
            "withheld_may_be_more": result.pool_full,
        }
        return reply(
            mr.scored_text(
                result.answer, title="search_memory (strict)", withheld=result.withheld, pool_full=result.pool_full
            ),
            structured,
        )

    @server.tool(
        annotations=READ,
        description=(
            "Lenient recall: use when a partial match is acceptable; the best matches with their score "
            "(BM25 weighted by freshness, importance, recency). Same filters as search_memory."
        ),
    )
    def recall(
        query: Query,
        limit: Limit = 5,
        path_filter: PathFilter = None,
        memory_type: MemoryType = None,
        prefer_working: bool = False,
    ) -> Annotated[CallToolResult, AnswerOut]:
        from kenning.memory.strictness import lenient

        with ctx.conn() as conn:
            answer = lenient(
                conn, ctx.project, query, _scope(None, path_filter, memory_type, prefer_working), limit, now=ctx.clock()
            )
        return reply(mr.scored_text(answer, title="recall (lenient)"), answer.to_json())

    @server.tool(
        annotations=READ,
        description=(
            "Use to fill a token budget (chars ÷ 4) with the best matches, bodies included as far as they fit; "
            "states the tokens used, facts left out and bodies cut."
        ),
    )
    def recall_context(
        query: Query,
        max_tokens: Annotated[int, Field(ge=150, le=8000, description="Budget, 150-8000.")] = 1000,
        max_items: Annotated[int, Field(ge=1, le=20, description="Most items, 1-20.")] = 8,
        path_filter: PathFilter = None,
        memory_type: MemoryType = None,
        prefer_working: bool = False,
    ) -> Annotated[CallToolResult, BudgetOut]:
        from kenning.memory.bounded import pack
        from kenning.tokens import cut, estimate

        footer_room = 160
        shown, lost = cut(query, 60)
        header = f"recall_context for {shown!r}" + ("…" if lost else "")
        reserved = len(DATA_FRAME) + len(header) + footer_room + 3
        if sync_running(ctx.project):  # its note is said in the text too: room for it
            reserved += len(f"note: {SYNC_RUNNING_NOTE}") + 1
        with ctx.conn() as conn:
            result = pack(
                conn,
                ctx.project,
                query,
                _scope(None, path_filter, memory_type, prefer_working),
                max_tokens=max_tokens,
                max_items=max_items,
                reserved_chars=reserved,
                badge=badge,
                now=ctx.clock(),
            )
        body = "\n".join(result.items)
        notes = [f"note: {n}" for n in result.answer.notes]
        draft = "\n".join([DATA_FRAME, header, body, *notes])
        footer = (
            f"budget: {{used}}/{max_tokens} tokens used · {len(result.items)} of {result.matching} matching "
            f"fact(s) packed, {result.left_out} left out · {result.bodies_cut} body(ies) cut"
        )
        used = estimate(draft + "\n" + footer.format(used=max_tokens))
        footer = footer.format(used=used)
        if not body:
            body = "no item fits: raise max_tokens" if result.matching else "no results: no_match"
        text = "\n".join([header, body, *notes, footer])
        structured = {
            **result.answer.to_json(),
            "budget": {
                "max_tokens": max_tokens,
                "used_tokens": used,
                "matching": result.matching,
                "left_out": result.left_out,
                "bodies_cut": result.bodies_cut,
            },
        }
        return reply(text, structured)


def _register_resource(server: FastMCP, ctx: ServerContext) -> None:
    @server.resource(
        "kn://{project}/{fact}",
        name="fact",
        mime_type="text/plain",
        description="A fact as a full record, framed as data: this project's, or another one memory_get may read.",
    )
    async def fact_resource(project: str, fact: str) -> str:
        """Read in a worker thread, as a tool call runs (``context.off_the_loop``): the event
        loop keeps serving while a store is opened and read."""
        return await anyio.to_thread.run_sync(read_fact, project, fact)

    def read_fact(project: str, fact: str) -> str:
        """What ``memory_get`` gives for the same citation, through the same store
        (``foreign.cited_store``): another registered project's when the server may read it,
        refused with the same ``ScopeDenied`` when it may not."""
        from kenning.memory.layers import details

        cited = f"kn://{project}/{fact}"
        with cited_store(ctx, [cited]) as (read, conn):
            found, missing = details(conn, read, [fact_id(cited, read)], now=ctx.clock())
        if not found:
            raise facts_not_found(missing, read.name)
        text, _ = mr.details_text(found, missing, cited=read.name if read is not ctx.project else None)
        return f"{DATA_FRAME}\n{text}"
