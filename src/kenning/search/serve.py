"""Search an open store and answer in the contract: ranked, fresh, filtered honestly.

The engine's hits are read deeper until no unread one can enter the answer; the ranking features
above the engine's score are ``search.ranker``'s; an empty answer says what matched but was
hidden."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

from kenning.files import SYNC_LOCK_NAME, lock_held
from kenning.freshness import not_here
from kenning.project import Project
from kenning.records import Answer, EmptyReason
from kenning.search import lexical, pasted, prefix, quoted, routes, translate
from kenning.search.options import SearchOptions, filters_of
from kenning.search.query import ParsedQuery
from kenning.search.ranker import query_ranker
from kenning.store import fts_guard
from kenning.store.handle import Connection

LEVEL = 0
POOL_FACTOR = 2
MIN_POOL = 20
DEEPEN = 4  # each deeper read of the base ranking asks this many times more hits


SYNC_RUNNING_NOTE = "a sync is running: this answer comes from the last committed index"


def noting_sync(answer: Answer, project: Project) -> Answer:
    """``answer`` with ``SYNC_RUNNING_NOTE`` last among its notes while a sync of ``project``
    holds its lock (every answer path ends here: lexical, hybrid, graph, the reports, and each
    store across projects), once."""
    if SYNC_RUNNING_NOTE in answer.notes or not sync_running(project):
        return answer
    return replace(answer, notes=(*answer.notes, SYNC_RUNNING_NOTE))


def sync_running(project: Project) -> bool:
    """Whether a sync of ``project`` holds its lock now."""
    return lock_held(str(project.state_dir / SYNC_LOCK_NAME))


def search_conn(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    options: SearchOptions,
    *,
    now: datetime,
    mode: str = "lexical",
    rule: str | None = None,
    note_sync: bool = True,
) -> Answer:
    """The answer to ``parsed`` in one store. ``note_sync=False``: the caller notes a running
    sync itself (``ask_conn`` does for every mode), so the lock is probed once an answer."""
    filters = filters_of(options)
    if parsed.fts and prefix.guarded(parsed):
        fts_guard.check_expansion(conn, parsed.fts)  # prefixes and repeats: what the caller typed
    with fts_guard.time_budget(conn):
        parsed, spelled = translate.searched(conn, parsed, filters)
        parsed, prefix_notes = prefix.read(conn, parsed)  # after the estimate, which reads each prefix's range
        parsed, quoted_notes = quoted.required(conn, project.name, parsed, filters)
        parsed, route_notes = routes.required(conn, parsed, filters)
        parsed, pasted_notes = pasted.weighed(conn, parsed, filters)
        parsed = lexical.with_loose_names(conn, parsed)  # read once, not at each deepening of the ranking
        ranker = query_ranker(conn, project, parsed, options, now=now)
        depth = max(MIN_POOL, options.limit * POOL_FACTOR)
        while True:
            ranking = lexical.ranking(conn, parsed, filters, depth)
            ranker.add(ranking.hits)
            if ranking.complete or ranker.settled(ranking.hits):
                break
            depth *= DEEPEN
        excerpts, filtered = ranker.excerpts(), ranker.filtered
        empty_reason = None
        if excerpts and not options.include_superseded:  # say what the default filter left out
            superseded = superseded_left_out(conn, parsed, options)
            if superseded:
                filtered["superseded"] += superseded
        if not excerpts:
            empty_reason = EmptyReason.ALL_FILTERED if filtered else EmptyReason.NO_MATCH
            if not filtered and options.count_hidden:
                hidden = _hidden_matches(conn, parsed, filters)
                if hidden:
                    filtered.update(hidden)
                    empty_reason = EmptyReason.ALL_FILTERED
    answer = Answer(
        query=parsed.text,
        mode=mode,
        rule=rule,
        level=LEVEL,
        searched=(project.name,),
        excerpts=tuple(excerpts),
        empty_reason=empty_reason,
        filtered=dict(filtered),
        notes=(*spelled, *prefix_notes, *quoted_notes, *route_notes, *pasted_notes),
    )
    answer = not_here(answer)
    return noting_sync(answer, project) if note_sync else answer


def superseded_left_out(conn: Connection, parsed: ParsedQuery, options: SearchOptions) -> int:
    """How many superseded facts match the query under the other filters (an answer says
    what the default filter left out)."""
    return lexical.count_matches(conn, parsed, filters_of(options, ("superseded",)))


def _hidden_matches(conn: Connection, parsed: ParsedQuery, filters: lexical.Filters) -> Counter[str]:
    """When nothing is served, say what matched but was hidden (superseded, retired, type, date)."""
    hidden: Counter[str] = Counter()
    for lifecycle in ("superseded", "retired"):  # fixed order: the answer's JSON is deterministic
        if lifecycle in filters.lifecycles:
            continue
        count = lexical.count_matches(
            conn, parsed, lexical.Filters((), (lifecycle,), filters.path_prefix, filters.memory_type)
        )
        if count:
            hidden[lifecycle] += count
    if filters.types:
        other = lexical.count_matches(
            conn, parsed, lexical.Filters((), filters.lifecycles, filters.path_prefix, filters.memory_type)
        )
        if other:
            hidden["type"] += other
    if filters.since or filters.until:
        undated = lexical.count_matches(
            conn, parsed, lexical.Filters(filters.types, filters.lifecycles, filters.path_prefix, filters.memory_type)
        )
        if undated:
            hidden["date"] += undated
    return hidden
