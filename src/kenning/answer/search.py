"""Search one project and answer in the contract: an absent index is an answer with
``empty_reason: index_missing``; a damaged or unreadable store is the typed error every
command gives for it (``StoreUnreadable``, exit 1)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from kenning.errors import IndexMissing
from kenning.project import Project
from kenning.records import Answer, EmptyReason
from kenning.search.fact_types import check_types
from kenning.search.query import parse
from kenning.search.serve import LEVEL, SearchOptions, search_conn
from kenning.store.db import SERVER_LEVEL, open_for_reading
from kenning.store.handle import StoreError, typed_error


def search_project(project: Project, query: str, options: SearchOptions, *, now: datetime) -> Answer:
    """Parse, then search; an absent index is an answer with ``empty_reason``, not an error."""
    parsed = parse(query, options.syntax)
    try:
        conn, fallback = open_for_reading(project)
    except IndexMissing:
        return Answer(
            query,
            "lexical",
            None,
            LEVEL,
            (project.name,),
            empty_reason=EmptyReason.INDEX_MISSING,
            notes=("no index: run `kenning sync`",),
        )
    except (StoreError, OSError) as exc:  # a damaged store fails as in every other command
        raise typed_error(exc) from exc
    try:
        check_types(conn, options.types)
        answer = search_conn(conn, project, parsed, options, now=now)
    finally:
        conn.close()
    if fallback is not None:
        return replace(answer, degradations=(*answer.degradations, fallback))
    return replace(answer, level=SERVER_LEVEL) if project.config.store else answer
