"""`kenning get` and `kenning memory get` of citations another store gave: `kn://global/3`
from `kenning remember --global`, `kn://beta/4` from a search across projects. The records
are read from that store, read-only, opened by the core (``across.cited.named_store``) that
the MCP tools share; from the command line every registered project and the transverse memory
may be read (a confidential one is refused with its reason, as in any cross-project answer)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kenning import registry
from kenning.across.cited import named_store
from kenning.across.stores import OneShot
from kenning.citation import cited_project, parse_fact_ref
from kenning.config import Project, kenning_home, load_project
from kenning.errors import ProjectNotFound
from kenning.interfaces.cli.plain import now, resolve_project
from kenning.memory.layers import Detail, details


def target(ids: Sequence[str], project_path: Path | None) -> tuple[Project | None, str | None]:
    """(the project at hand, or None; the other store every id cites, or None when the ids are
    read in the project at hand). Bare ids, or citations of several stores, are the project's
    own: it reads them and refuses a citation of another project (``ScopeDenied``)."""
    named = {cited_project(raw) for raw in ids}
    other = named.pop() if len(named) == 1 else None
    try:
        project = resolve_project(project_path)
    except ProjectNotFound:
        if other is None or project_path is not None:
            raise
        return None, other  # outside any project: a citation is read from its own store
    return project, (other if other is not None and other != project.name else None)


def read(name: str, ids: Sequence[str]) -> tuple[Project, list[Detail], list[int]]:
    """Records of store ``name`` by their citations, in the asked order, and the ids it lacks
    (``NotFound`` for an unknown project, ``ScopeDenied`` for one that cannot be read)."""
    home = kenning_home()
    wanted = [parse_fact_ref(raw, name) for raw in ids]
    with named_store(name, registry.list_entries(home), OneShot(load_project), home=home) as (project, conn):
        found, missing = details(conn, project, wanted, now=now())
    return project, found, missing


def records(ids: Sequence[str], project_path: Path | None) -> tuple[Project, list[Detail], list[int], bool]:
    """(the store's project, its records ``ids`` name in the asked order, the ids it lacks,
    whether that store is another than the project at hand): `kenning get` and `memory get`."""
    project, other = target(ids, project_path)
    if other is not None:
        return (*read(other, ids), True)
    assert project is not None  # no other store named: the project at hand was resolved
    from kenning.store.db import open_store

    conn = open_store(project)
    try:
        found, missing = details(conn, project, [parse_fact_ref(raw, project.name) for raw in ids], now=now())
    finally:
        conn.close()
    return project, found, missing, False
