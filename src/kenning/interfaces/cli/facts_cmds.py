"""Fact commands: search, get, remember, supersede, confirm, forget, stale."""

from __future__ import annotations

from pathlib import Path

import click

from kenning.citation import facts_not_found, format_citation
from kenning.config import Project
from kenning.interfaces.cli.common import (
    Bounded,
    emit,
    emit_answer,
    json_option,
    no_embed_option,
    now,
    parse_fact_id,
    project_option,
    resolve_project,
    text_or_stdin,
)
from kenning.interfaces.cli.plain import DEFAULT_LIMIT, LIMIT_RANGE, SYNTAXES, answer_code, search_output
from kenning.interfaces.render import answer_text, fact_text, saved_payload, saved_text
from kenning.records import FACT_SCHEMA
from kenning.store.handle import Connection


@click.command()
@click.argument("query")
@click.option(
    "--limit", type=Bounded(*LIMIT_RANGE), default=DEFAULT_LIMIT, show_default=True, help="Most excerpts to return."
)
@click.option("--type", "types", multiple=True, help="Only facts of this type (repeatable): doc, code, decision, …")
@click.option("--include-superseded", is_flag=True, help="Also serve superseded facts, marked as such.")
@click.option("--include-missing", is_flag=True, help="Also serve facts whose source no longer reads.")
@click.option(
    "--syntax",
    type=click.Choice(SYNTAXES),
    default="natural",
    show_default=True,
    help='natural: any text, made safe; fts: FTS5 syntax (AND/OR/NOT, "phrase", prefix*).',
)
@click.option("--explain", is_flag=True, help="Show where each score came from.")
@click.option(
    "--since",
    default=None,
    metavar="YYYY-MM-DD",
    help="Only facts dated from this day (source date, else indexing day).",
)
@click.option("--until", default=None, metavar="YYYY-MM-DD", help="Only facts dated until this day.")
@click.option(
    "--all-projects",
    is_flag=True,
    help="Search every registered project (read-only; confidential ones "
    "excluded) and the transverse memory; one list ranked by RRF.",
)
@project_option
@json_option
def search(
    query: str,
    limit: int,
    types: tuple[str, ...],
    include_superseded: bool,
    include_missing: bool,
    syntax: str,
    explain: bool,
    since: str | None,
    until: str | None,
    all_projects: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Lexical search (FTS5 BM25 + trigram) with freshness computed now.

    \f
    (Not in --help, which stops at the form feed.) The console script serves this command
    without click (``plain.fast_search``); this is the reference for its options, help and
    usage errors."""
    from kenning.across.window import check_window
    from kenning.answer.search import SearchOptions

    since, until = check_window(since, until)
    options = SearchOptions(
        limit=limit,
        types=types,
        include_superseded=include_superseded,
        include_missing=include_missing,
        syntax=syntax,
        explain=explain,
        since=since,
        until=until,
    )
    if all_projects:
        from kenning import registry
        from kenning.across.answers import search_all
        from kenning.across.stores import OneShot
        from kenning.config import kenning_home, load_project

        home = kenning_home()
        answer = search_all(
            registry.list_entries(home), query, options, now=now(), home=home, stores=OneShot(load_project)
        )
        emit_answer(answer, as_json)
        return
    text, answer = search_output(query, options, project_path=project_path, as_json=as_json)
    click.echo(text)
    code = answer_code(answer)
    if code:
        click.get_current_context().exit(code)


@click.command()
@click.argument("ids", nargs=-1, required=True)
@project_option
@json_option
def get(ids: tuple[str, ...], project_path: Path | None, as_json: bool) -> None:
    """Full records by id (42, "42" or kn://project/42), with freshness computed now; a
    citation of another registered project or of the transverse memory (kn://global/3) is read
    from that store, read-only.

    None found: NotFound (exit 1); some found: the others are listed as missing (exit 0)."""
    from kenning.interfaces.cli import cited

    project, details, missing, elsewhere = cited.records(ids, project_path)
    if not details:
        raise facts_not_found(missing, project.name)
    rows = [(d.fact, d.freshness) for d in details]
    shown = [format_citation(project.name, i) if elsewhere else f"#{i}" for i in missing]
    payload = {
        "schema": FACT_SCHEMA,
        "facts": [{**f.to_json(), "freshness": fr.to_json()} for f, fr in rows],
        "missing": missing,
    }
    text = "\n\n".join(fact_text(f, fr) for f, fr in rows)
    if missing:
        text += ("\n\n" if text else "") + "not found: " + ", ".join(shown)
    emit(payload, as_json, text)


@click.command()
@click.argument("text")
@click.option("--title", default=None, help="Title (default: the first line of the text).")
@click.option("--type", "type_", default="fact", show_default=True, help="Fact type: fact, decision, convention, …")
@click.option("--tags", default="", help="Comma-separated tags.")
@click.option(
    "--global",
    "to_global",
    is_flag=True,
    help="Save in the transverse memory (KENNING_HOME/global, kn://global/<id>), not in a project.",
)
@no_embed_option
@project_option
@json_option
def remember(
    text: str,
    title: str | None,
    type_: str,
    tags: str,
    to_global: bool,
    no_embed: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Save a note as a fact (TEXT `-`: read from standard input). It has no re-readable
    source: it is `unverified`, never `current`."""
    from kenning import dense
    from kenning.lifecycle import remember as save

    text = text_or_stdin(text)
    if to_global:
        from kenning.across.transverse import embed_global, remember_global
        from kenning.config import kenning_home

        glob, saved = remember_global(
            kenning_home(),
            text,
            now=now(),
            title=title,
            type_=type_,
            tags=tuple(t.strip() for t in tags.split(",") if t.strip()),
        )
        embedded = None if no_embed else embed_global(kenning_home())
        citation = f"kn://{glob.name}/{saved.fact_id}"
        emit(
            saved_payload(citation, saved.fact_id, saved.created, saved.tags_added, embedded),
            as_json,
            saved_text(citation, saved.created, saved.tags_added, embedded, sync="kenning sync --global"),
        )
        return
    project = resolve_project(project_path)
    conn = _open(project, create=True)
    try:
        saved = save(
            conn, text, now=now(), title=title, type_=type_, tags=tuple(t.strip() for t in tags.split(",") if t.strip())
        )
        embedded = None if no_embed else dense.embed_saved(conn, project, [saved.fact_id])
    finally:
        conn.close()
    citation = format_citation(project.name, saved.fact_id)
    emit(
        saved_payload(citation, saved.fact_id, saved.created, saved.tags_added, embedded),
        as_json,
        saved_text(citation, saved.created, saved.tags_added, embedded),
    )


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("--reason", default=None, help="Why the old fact no longer holds.")
@project_option
@json_option
def supersede(old: str, new: str, reason: str | None, project_path: Path | None, as_json: bool) -> None:
    """Mark OLD as superseded by NEW: OLD is no longer served unless asked for."""
    from kenning.lifecycle import supersede as run

    project = resolve_project(project_path)
    conn = _open(project)
    try:
        old_fact, new_fact = run(
            conn, project.name, parse_fact_id(old, project), parse_fact_id(new, project), now=now(), reason=reason
        )
    finally:
        conn.close()
    emit(
        {"old": old_fact.to_json(), "new": new_fact.to_json()},
        as_json,
        f"{old_fact.citation} superseded by {new_fact.citation}",
    )


@click.command()
@click.argument("fact_id")
@project_option
@json_option
def confirm(fact_id: str, project_path: Path | None, as_json: bool) -> None:
    """Record that a fact was reviewed and still holds (resets its age)."""
    from kenning.lifecycle import confirm as run

    project = resolve_project(project_path)
    conn = _open(project)
    try:
        fact = run(conn, project.name, parse_fact_id(fact_id, project), now=now())
    finally:
        conn.close()
    emit(fact.to_json(), as_json, f"{fact.citation} confirmed on {fact.dates.confirmed}")


@click.command()
@click.argument("fact_id")
@click.option("--reason", default=None, help="Why it is forgotten (printed, not stored: the fact is deleted).")
@project_option
@json_option
def forget(fact_id: str, reason: str | None, project_path: Path | None, as_json: bool) -> None:
    """Delete a fact for good (the graph and core pack follow at their next rebuild)."""
    from kenning.lifecycle import forget as run

    project = resolve_project(project_path)
    conn = _open(project)
    try:
        fact = run(conn, project.name, parse_fact_id(fact_id, project))
    finally:
        conn.close()
    emit(
        {"forgotten": fact.id, "citation": fact.citation, "title": fact.title, "reason": reason},
        as_json,
        f"forgot {fact.citation}: {fact.title}" + (f" ({reason})" if reason else ""),
    )


@click.command()
@click.option("--limit", type=Bounded(1, 10_000), default=None, help="Most facts to list.")
@click.option("--type", "types", multiple=True, help="Only facts of this type (repeatable): doc, code, decision, …")
@click.option(
    "--all-projects",
    is_flag=True,
    help="Every registered project (read-only; confidential ones excluded), one after the other.",
)
@project_option
@json_option
def stale(
    limit: int | None, types: tuple[str, ...], all_projects: bool, project_path: Path | None, as_json: bool
) -> None:
    """Facts whose source changed (stale) or vanished (source_missing) since indexing."""
    from kenning.answer.stale import stale_report

    if all_projects:
        from kenning import registry
        from kenning.across.answers import stale_all
        from kenning.across.stores import OneShot
        from kenning.config import kenning_home, load_project

        entries = registry.list_entries(kenning_home())
        answer = stale_all(entries, now=now(), limit=limit, stores=OneShot(load_project), types=types)
        emit_answer(answer, as_json)
        return

    project = resolve_project(project_path, across=True)
    conn = _open(project)
    try:
        answer = stale_report(conn, project, now=now(), limit=limit, types=types)
    finally:
        conn.close()
    if project.config.store:  # served by PostgreSQL
        from dataclasses import replace

        from kenning.store.db import SERVER_LEVEL

        answer = replace(answer, level=SERVER_LEVEL)
    emit(answer.to_json(), as_json, lambda: answer_text(answer))


def _open(project: Project, *, create: bool = False) -> Connection:
    from kenning.store.db import open_store

    return open_store(project, create=create)
