"""A small project synced on either engine, and the files an answer cites: what the relation
answer tests build their fixtures from."""

from __future__ import annotations

from conftest import commit_all, resync
from store.pg_engine import engine_config  # tests/store: the PostgreSQL test server


def synced(make_project, files: dict[str, str], name: str, engine: str):
    """``files`` committed and synced, on SQLite or served by PostgreSQL (``engine``): the same
    answers are expected from either store."""
    project = make_project(files, name=name, config=engine_config(engine, name))
    commit_all(project.root)
    resync(project)
    return project


def files_of(answer) -> list[str]:
    """The file each excerpt of ``answer`` comes from, in rank order."""
    return [e.fact.source.uri.split(":")[0].split("#")[0] for e in answer.excerpts]
