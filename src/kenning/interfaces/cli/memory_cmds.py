"""`kenning memory …`: the agent-memory layers for people (same core and renderer as MCP)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from kenning.citation import facts_not_found, format_citation
from kenning.interfaces.cli.common import (
    Bounded,
    emit,
    json_option,
    no_embed_option,
    now,
    parse_fact_id,
    project_option,
    resolve_project,
    text_or_stdin,
)
from kenning.interfaces.render import saved_payload, saved_text

if TYPE_CHECKING:
    from kenning.memory.layers import Scope


@click.group()
def memory() -> None:
    """Agent memory: index, search, get, timeline and save observations."""


def _types(type_: str | None) -> Scope:
    from kenning.memory.layers import Scope

    return Scope((type_,) if type_ else ())


@memory.command("index")
@click.argument("query", required=False)
@click.option("--type", "type_", default=None, help="Only facts of this type (observation, decision, doc, …).")
@click.option("--limit", type=Bounded(1, 20), default=20, show_default=True, help="Most rows.")
@project_option
@json_option
def index(query: str | None, type_: str | None, limit: int, project_path: Path | None, as_json: bool) -> None:
    """Compact index, one row per fact (~15 tokens); without QUERY, the newest saved memories."""
    from kenning.interfaces.memory_render import index_text
    from kenning.memory.layers import find, recent
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    conn = open_store(project)
    try:
        if query:
            answer, _ = find(conn, project, query, _types(type_), limit, now=now())
        else:
            answer = recent(conn, project, _types(type_), limit, now=now())
    finally:
        conn.close()
    emit(answer.to_json(), as_json, lambda: index_text(answer))


@memory.command("search")
@click.argument("query")
@click.option("--type", "type_", default=None, help="Only facts of this type.")
@click.option("--limit", type=Bounded(1, 20), default=10, show_default=True, help="Most hits.")
@click.option(
    "--syntax",
    type=click.Choice(["natural", "fts"]),
    default="natural",
    show_default=True,
    help='natural: any text, made safe; fts: FTS5 syntax (AND/OR/NOT, "phrase", prefix*).',
)
@click.option(
    "--strict",
    "strict_",
    is_flag=True,
    help="Only strong matches (every significant term present); says how many weak ones were withheld.",
)
@project_option
@json_option
def search(
    query: str, type_: str | None, limit: int, syntax: str, strict_: bool, project_path: Path | None, as_json: bool
) -> None:
    """Hits with snippets (~60 tokens each); --strict withholds weak matches."""
    from kenning.interfaces.memory_render import scored_text, search_text
    from kenning.memory.layers import find
    from kenning.memory.strictness import strict
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    conn = open_store(project)
    try:
        if strict_:
            if syntax != "natural":
                raise click.UsageError("--strict takes natural-language queries only")
            result = strict(conn, project, query, _types(type_), limit, now=now())
            payload = {**result.answer.to_json(), "withheld_weak": result.withheld}
            emit(
                payload,
                as_json,
                lambda: scored_text(
                    result.answer, title="strict search", withheld=result.withheld, pool_full=result.pool_full
                ),
            )
            return
        answer, _ = find(conn, project, query, _types(type_), limit, now=now(), syntax=syntax)
    finally:
        conn.close()
    emit(answer.to_json(), as_json, lambda: search_text(answer))


@memory.command("get")
@click.argument("ids", nargs=-1, required=True)
@click.option("--full", is_flag=True, help="Whole bodies (up to 20,000 characters) instead of 520.")
@project_option
@json_option
def get(ids: tuple[str, ...], full: bool, project_path: Path | None, as_json: bool) -> None:
    """Full records by id (42, "42" or kn://project/42; kn://global/3 or another registered
    project's citation is read from that store); long bodies cut with a marker. None found:
    NotFound (exit 1); some found: the others are listed as missing (exit 0)."""
    from kenning.interfaces.cli import cited
    from kenning.interfaces.memory_render import details_text
    from kenning.records import FACT_SCHEMA

    project, found, missing, _ = cited.records(ids, project_path)
    if not found:
        raise facts_not_found(missing, project.name)
    text, cuts = details_text(found, missing, full=full)
    payload = {
        "schema": FACT_SCHEMA,
        "facts": [{**d.fact.to_json(), "freshness": d.freshness.to_json(), "session_id": d.session_id} for d in found],
        "missing": missing,
        "cut": cuts,
    }
    emit(payload, as_json, text)


@memory.command("timeline")
@click.argument("anchor")
@click.option("--before", type=Bounded(0, 3), default=2, show_default=True, help="Rows before.")
@click.option("--after", type=Bounded(0, 3), default=2, show_default=True, help="Rows after.")
@project_option
@json_option
def timeline(anchor: str, before: int, after: int, project_path: Path | None, as_json: bool) -> None:
    """Memories saved around ANCHOR (or, for a file excerpt, its neighbours in the file)."""
    from kenning.interfaces.memory_render import timeline_text
    from kenning.memory.timeline import around
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    anchor_id = parse_fact_id(anchor, project)
    conn = open_store(project)
    try:
        entries = around(conn, project, [anchor_id], before, after, now=now())
    finally:
        conn.close()
    rows = [
        {
            "id": e.fact.id,
            "citation": e.fact.citation,
            "type": e.fact.type,
            "title": e.fact.title,
            "date": e.fact.dates.source or e.fact.dates.indexed,
            "offset": e.offset,
        }
        for e in entries
    ]
    emit(
        {"anchor": anchor_id, "timeline": rows},
        as_json,
        lambda: timeline_text(entries, f"timeline around #{anchor_id}"),
    )


@memory.command("save")
@click.argument("text")
@click.option("--title", default=None, help="Title (default: the first line).")
@click.option("--type", "type_", default="observation", show_default=True, help="observation, decision, failure, …")
@click.option("--tags", default="", help="Comma-separated tags.")
@click.option("--why", default=None, help="Why it matters.")
@click.option("--how-to-apply", default=None, help="When and how to use it.")
@click.option("--importance", type=Bounded(1, 10), default=None, help="1-10.")
@click.option("--memory-type", type=click.Choice(["durable", "working"]), default=None, help="durable or working.")
@click.option("--session", "session_id", default=None, help="The session it was learned in.")
@click.option(
    "--producer", type=click.Choice(["human", "agent"]), default="human", show_default=True, help="Who wrote it."
)
@no_embed_option
@project_option
@json_option
def save(
    text: str,
    title: str | None,
    type_: str,
    tags: str,
    why: str | None,
    how_to_apply: str | None,
    importance: int | None,
    memory_type: str | None,
    session_id: str | None,
    producer: str,
    no_embed: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Save an observation (TEXT `-`: read from standard input; an identical active note
    answers "already saved as #N")."""
    from kenning import dense
    from kenning.memory.observations import Observation
    from kenning.memory.observations import save as run
    from kenning.store.db import open_store

    text = text_or_stdin(text)
    project = resolve_project(project_path)
    obs = Observation(
        text=text,
        title=title,
        type=type_,
        tags=tuple(t.strip() for t in tags.split(",") if t.strip()),
        importance=importance,
        why=why,
        how_to_apply=how_to_apply,
        memory_type=memory_type,
        session_id=session_id,
        producer=producer,
        origin="cli",
    )
    conn = open_store(project, create=True)
    try:
        saved = run(conn, project.name, obs, now=now())
        embedded = None if no_embed else dense.embed_saved(conn, project, [saved.fact_id])
    finally:
        conn.close()
    citation = format_citation(project.name, saved.fact_id)
    emit(
        saved_payload(citation, saved.fact_id, saved.created, saved.tags_added, embedded),
        as_json,
        saved_text(f"#{saved.fact_id} ({citation})", saved.created, saved.tags_added, embedded),
    )


@memory.command("summary")
@click.option("--session", "session_id", required=True, help="The session summarised.")
@click.option("--request", default="", help="What was asked.")
@click.option("--investigated", default="", help="What was looked at.")
@click.option("--learned", default="", help="What was learned.")
@click.option("--completed", default="", help="What was done.")
@click.option("--next-steps", default="", help="What comes next.")
@no_embed_option
@project_option
@json_option
def summary(
    session_id: str,
    request: str,
    investigated: str,
    learned: str,
    completed: str,
    next_steps: str,
    no_embed: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Save a session summary (request, investigated, learned, completed, next steps)."""
    from kenning import dense
    from kenning.interfaces.render import saved_note
    from kenning.memory.sessions import save_summary
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    conn = open_store(project, create=True)
    try:
        fact_id = save_summary(
            conn,
            project.name,
            session_id,
            {
                "request": request,
                "investigated": investigated,
                "learned": learned,
                "completed": completed,
                "next_steps": next_steps,
            },
            now=now(),
            producer="human",
        )
        embedded = None if no_embed else dense.embed_saved(conn, project, [fact_id])
    finally:
        conn.close()
    citation = format_citation(project.name, fact_id)
    payload = {"id": fact_id, "citation": citation} | ({} if embedded is None else {"dense": embedded})
    emit(payload, as_json, f"summary saved as #{fact_id} ({citation})" + saved_note(embedded))
