"""The three disclosure layers over one project's facts: an index, hits with snippets, full
records. Ranking is the project's lexical search plus memory signals:

- importance: score × (1 + (importance − 5) × 0.05), so 10 → ×1.25 and 1 → ×0.8;
- ``prefer_working``: working memory × 1.5, and every fact × max(0.5, 1 − age_days / 60)
  so that recent notes rise.

Without a query the index lists the newest saved memories (observations, notes, summaries).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from kenning.errors import ScopeDenied, ValidationError
from kenning.freshness import FileCheck, demotion, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.lifecycle import MEMORY_TYPES
from kenning.memory.observations import MEMORY_SOURCE_KINDS
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, Fact, Freshness
from kenning.refs import project_path
from kenning.search.fact_types import check_types
from kenning.search.query import ParsedQuery, parse
from kenning.search.serve import SearchOptions, search_conn
from kenning.search.snippet import make_snippet
from kenning.search.weights import PER_FILE
from kenning.store import facts as fact_store
from kenning.store import memory as memory_store
from kenning.store.handle import Connection

POOL = 50
WORKING_BOOST = 1.5
RECENCY_WINDOW_DAYS = 60


@dataclass(frozen=True)
class Scope:
    """What a memory tool may search: type, path prefix, memory type, working preference."""

    types: tuple[str, ...] = ()
    path_prefix: str | None = None
    memory_type: str | None = None
    prefer_working: bool = False

    def check(self) -> Scope:
        if self.memory_type is not None and self.memory_type not in MEMORY_TYPES:
            raise ValidationError(f"unknown memory_type {self.memory_type!r}; use durable or working")
        if self.path_prefix:
            project_path(self.path_prefix, "path_filter")
        return self


def check_project(project: Project, requested: str | None) -> None:
    """A request naming another project is outside this server's scope: an error, never an
    empty result."""
    if requested is not None and requested != project.name:
        raise ScopeDenied(
            f"this server serves project {project.name!r}, not {requested!r}",
            hint=f"omit project or pass project={project.name!r}",
        )


def find(
    conn: Connection,
    project: Project,
    query: str,
    scope: Scope,
    limit: int,
    *,
    now: datetime,
    syntax: str = "natural",
    pool: int | None = None,
) -> tuple[Answer, ParsedQuery]:
    """Ranked excerpts for ``query`` (best first, at most ``pool or limit``), memory signals applied."""
    parsed = parse(query, syntax)
    check_types(conn, scope.types)
    wanted = max(limit, pool or 0)
    options = SearchOptions(
        limit=max(wanted + 1, POOL) if scope.prefer_working else wanted + 1,
        types=scope.types,
        syntax=syntax,
        path_prefix=scope.path_prefix,
        memory_type=scope.check().memory_type,
        # a question in words keeps room for other files, as `ask` does; FTS5 syntax keeps the engine's order
        per_file=PER_FILE if syntax == "natural" else 0,
    )
    answer = search_conn(conn, project, parsed, options, now=now, mode="lexical")
    excerpts = rerank(answer.excerpts, prefer_working=scope.prefer_working)
    notes = answer.notes
    if len(excerpts) > wanted and pool is None:
        notes += (f"more matches beyond limit {limit}",)
    return dataclasses.replace(answer, excerpts=tuple(excerpts[:wanted]), notes=notes), parsed


def rerank(excerpts: tuple[Excerpt, ...] | list[Excerpt], *, prefer_working: bool) -> list[Excerpt]:
    scored = []
    for order, ex in enumerate(excerpts):
        factor = 1.0
        if ex.fact.importance is not None:
            factor *= 1 + (ex.fact.importance - 5) * 0.05
        if prefer_working:
            if ex.fact.memory_type == "working":
                factor *= WORKING_BOOST
            factor *= max(0.5, 1 - (ex.freshness.age_days or 0) / RECENCY_WINDOW_DAYS)
        scored.append((ex.score * factor, order, ex))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [dataclasses.replace(ex, score=score, rank=rank) for rank, (score, _, ex) in enumerate(scored, start=1)]


def recent(conn: Connection, project: Project, scope: Scope, limit: int, *, now: datetime) -> Answer:
    """The newest active saved memories, for an index without a query."""
    scope.check()
    check_types(conn, scope.types)
    ids = memory_store.recent_ids(
        conn,
        MEMORY_SOURCE_KINDS,
        limit,
        types=scope.types,
        memory_type=scope.memory_type,
        path_prefix=scope.path_prefix,
    )
    facts = fact_store.get_many(conn, project.name, ids)
    fresh = freshness_map(conn, project, list(facts.values()), now=now)
    excerpts = tuple(
        Excerpt(facts[i], fresh[i], make_snippet(facts[i].body, ()), demotion(fresh[i]), rank)
        for rank, i in enumerate(ids, start=1)
    )
    return Answer(
        query="",
        mode="recent",
        rule=None,
        level=0,
        searched=(project.name,),
        excerpts=excerpts,
        empty_reason=None if excerpts else EmptyReason.NO_MATCH,
    )


def freshness_map(conn: Connection, project: Project, facts: list[Fact], *, now: datetime) -> dict[int, Freshness]:
    files = FileCheck(project.root, conn, split_spans)
    files.preload(loc.path for fact in facts for loc in fact.locations)
    return {fact.id: freshness_of(fact, now=now, files=files) for fact in facts}


@dataclass(frozen=True)
class Detail:
    fact: Fact
    freshness: Freshness
    session_id: str | None
    summary: dict[str, str] | None


def details(conn: Connection, project: Project, ids: list[int], *, now: datetime) -> tuple[list[Detail], list[int]]:
    """Full records in the asked order (duplicates once) and the ids not found."""
    unique = list(dict.fromkeys(ids))
    facts = fact_store.get_many(conn, project.name, unique)
    fresh = freshness_map(conn, project, list(facts.values()), now=now)
    sessions = memory_store.session_of(conn, list(facts))
    summaries = memory_store.summary_parts(conn, [i for i, f in facts.items() if f.type == "session_summary"])
    found = [Detail(facts[i], fresh[i], sessions.get(i), summaries.get(i)) for i in unique if i in facts]
    return found, [i for i in unique if i not in facts]
