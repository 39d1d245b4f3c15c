"""Graph commands: `kenning graph neighbours|path|impact|touches`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from kenning.graph.walk import EDGE_TYPES, NODE_KINDS
from kenning.interfaces.cli.common import Bounded, emit, json_option, now, project_option, resolve_project
from kenning.interfaces.render import answer_text


@click.group()
def graph() -> None:
    """Walk the declared graph: each result comes with its path of typed, sourced edges."""


def _common(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option("--limit", type=Bounded(1, 200), default=20, show_default=True, help="Most results.")(func)
    func = click.option("--include-superseded", is_flag=True, help="Also serve superseded facts (old decisions).")(func)
    func = click.option("--include-missing", is_flag=True, help="Also serve facts whose source no longer reads.")(func)
    return json_option(project_option(func))


def _run(
    query: str, node: str, project_path: Path | None, as_json: bool, *, other: str | None = None, **options: Any
) -> None:
    from kenning.answer.graph import GraphOptions, run_query
    from kenning.store.db import SERVER_LEVEL, open_for_reading

    project = resolve_project(project_path)
    conn, fallback = open_for_reading(project)  # PostgreSQL when the project names a server
    try:
        answer = run_query(conn, project, query, node, GraphOptions(**options), now=now(), other=other)
    finally:
        conn.close()
    if fallback is not None:  # the server is unreachable: the local level-0 store answered, said
        answer = replace(answer, degradations=(*answer.degradations, fallback))
    elif project.config.store:
        answer = replace(answer, level=SERVER_LEVEL)
    emit(answer.to_json(), as_json, lambda: answer_text(answer))


@graph.command()
@click.argument("node")
@click.option("--hops", type=Bounded(1, 2), default=1, show_default=True, help="1 or 2 edges away.")
@click.option("--edge", "edge_types", multiple=True, type=click.Choice(EDGE_TYPES), help="Only these edge types.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(NODE_KINDS), help="Only nodes of these kinds.")
@_common
def neighbours(
    node: str,
    hops: int,
    edge_types: tuple[str, ...],
    kinds: tuple[str, ...],
    limit: int,
    include_superseded: bool,
    include_missing: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """NODE and what it is linked to (defines, calls, imports, tests, tasks…), 1–2 hops away."""
    _run(
        "neighbours",
        node,
        project_path,
        as_json,
        hops=hops,
        edge_types=edge_types,
        kinds=kinds,
        limit=limit,
        include_superseded=include_superseded,
        include_missing=include_missing,
    )


@graph.command()
@click.argument("node")
@click.argument("other")
@_common
def path(
    node: str,
    other: str,
    limit: int,
    include_superseded: bool,
    include_missing: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """One shortest path of edges between NODE and OTHER (edges walked either way)."""
    _run(
        "path",
        node,
        project_path,
        as_json,
        other=other,
        limit=limit,
        include_superseded=include_superseded,
        include_missing=include_missing,
    )


@graph.command()
@click.argument("node")
@_common
def impact(
    node: str, limit: int, include_superseded: bool, include_missing: bool, project_path: Path | None, as_json: bool
) -> None:
    """What depends on NODE: callers, importers, tests, dependent tasks, linking docs (3 hops)."""
    _run(
        "impact",
        node,
        project_path,
        as_json,
        limit=limit,
        include_superseded=include_superseded,
        include_missing=include_missing,
    )


@graph.command()
@click.argument("node")
@_common
def touches(
    node: str, limit: int, include_superseded: bool, include_missing: bool, project_path: Path | None, as_json: bool
) -> None:
    """Tasks, evidence, verdicts, decisions and commits that reach NODE (a file or a symbol)."""
    _run(
        "touches",
        node,
        project_path,
        as_json,
        limit=limit,
        include_superseded=include_superseded,
        include_missing=include_missing,
    )
