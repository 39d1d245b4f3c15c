""" "What is stale?": facts whose file changed or vanished since indexing, and ledger facts
whose record changed or vanished. No search."""

from __future__ import annotations

from datetime import datetime

from kenning.freshness import NOT_HERE_DEGRADATION, FileCheck, freshness_of
from kenning.ingest.ledger import LEDGER_PATH
from kenning.ingest.spans import split as split_spans
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, FreshnessState
from kenning.search.fact_types import check_types
from kenning.search.serve import noting_sync
from kenning.store import facts as fact_store
from kenning.store import lookups
from kenning.store.handle import Connection

LEVEL = 0


def stale_report(
    conn: Connection, project: Project, *, now: datetime, limit: int | None = None, types: tuple[str, ...] = ()
) -> Answer:
    """Facts whose source changed (stale) or vanished (source_missing); ``types``: only those
    (an unknown type is refused, its hint listing the known ones)."""
    check_types(conn, types)
    files = FileCheck(project.root, conn, split_spans)
    paths = lookups.manifest_paths(conn)
    files.preload(paths)
    changed = [p for p in paths if files.changed(p)]
    if changed and files.elsewhere():  # nothing here to compare with: not stale, not missing
        return noting_sync(_not_here_report(project, len(paths)), project)
    excerpts: list[Excerpt] = []
    # Ledger facts are checked record by record (the ledger is not in the manifest).
    ids = lookups.active_ids_with_path(conn, LEDGER_PATH) + lookups.active_ids_located_in(conn, changed)
    facts = fact_store.get_many(conn, project.name, list(dict.fromkeys(ids)))
    for fact in facts.values():
        if types and fact.type not in types:
            continue
        fresh = freshness_of(fact, now=now, files=files)
        if fresh.state in (FreshnessState.STALE, FreshnessState.SOURCE_MISSING):
            excerpts.append(Excerpt(fact, fresh, fact.body[:160].replace("\n", " "), 0.0, 0))
    excerpts.sort(key=_order)
    if limit is not None:
        excerpts = excerpts[:limit]
    ranked = tuple(Excerpt(e.fact, e.freshness, e.snippet, 0.0, i) for i, e in enumerate(excerpts, 1))
    report = Answer(
        query="what is stale",
        mode="freshness",
        rule=None,
        level=LEVEL,
        searched=(project.name,),
        excerpts=ranked,
        empty_reason=None if ranked else EmptyReason.NO_MATCH,
        notes=(f"{len(changed)} indexed file(s) changed or missing since the last sync",),
    )
    return noting_sync(report, project)


def _not_here_report(project: Project, indexed: int) -> Answer:
    """The report of a machine without the project's files (a PostgreSQL store written from
    another checkout: ``FileCheck.elsewhere``): nothing is stale or missing that can be told."""
    return Answer(
        query="what is stale",
        mode="freshness",
        rule=None,
        level=LEVEL,
        searched=(project.name,),
        empty_reason=EmptyReason.NO_MATCH,
        degradations=(NOT_HERE_DEGRADATION,),
        notes=(
            f"none of the {indexed} indexed file(s) is under {project.root}: run `kenning stale` where the "
            "project's files are",
        ),
    )


def _order(excerpt: Excerpt) -> tuple[bool, str, int, int]:
    """Missing sources first, then by file and position in the file."""
    first = excerpt.fact.locations[0] if excerpt.fact.locations else None
    return (
        excerpt.freshness.state is not FreshnessState.SOURCE_MISSING,
        first.path if first else excerpt.fact.source.uri,
        (first.line_start or 0) if first else 0,
        excerpt.fact.id,
    )
