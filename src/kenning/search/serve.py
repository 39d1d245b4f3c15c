"""Search an open store and answer in the contract: ranked, fresh, filtered honestly.

The ranking features above the engine's score live here: freshness demotion, superseded
half weight, the definition boost for typed code names, the test-file demotion."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from kenning.freshness import FileCheck, demotion, freshness_of
from kenning.ingest.test_files import is_test_path
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, Fact, FreshnessState, Lifecycle
from kenning.search import lexical
from kenning.search.query import CODE_NAME, ParsedQuery
from kenning.search.snippet import make_snippet
from kenning.store import facts as fact_store
from kenning.store import fts_guard
from kenning.store.handle import Connection

LEVEL = 0
SUPERSEDED_FACTOR = 0.5
DEFINITION_BOOST = 3.0
TEST_FACTOR = 0.5
_TEST_WORDS = frozenset({"test", "tests", "testing", "tested", "spec", "specs", "pytest", "fixture", "fixtures",
                         "conftest", "unittest"})
POOL_FACTOR = 2
MIN_POOL = 20


@dataclass(frozen=True)
class SearchOptions:
    """How to search: limit, filters, syntax, explanations."""

    limit: int = 10
    types: tuple[str, ...] = ()
    include_superseded: bool = False
    include_missing: bool = False
    syntax: str = "natural"
    path_prefix: str | None = None
    memory_type: str | None = None
    explain: bool = False
    since: str | None = None  # YYYY-MM-DD, inclusive, on the fact's date (store.fts.Filters)
    until: str | None = None
    count_hidden: bool = True  # an empty answer counts what matched but was hidden (not across projects)


def search_conn(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    options: SearchOptions,
    *,
    now: datetime,
    mode: str = "lexical",
    rule: str | None = None,
) -> Answer:
    lifecycles = ("active", "superseded") if options.include_superseded else ("active",)
    filters = lexical.Filters(options.types, lifecycles, options.path_prefix, options.memory_type,
                              options.since, options.until)
    pool = max(MIN_POOL, options.limit * POOL_FACTOR)
    if parsed.syntax == "fts" and parsed.fts:
        fts_guard.check_expansion(conn, parsed.fts)  # prefixes and repeats are the caller's own syntax
    with fts_guard.time_budget(conn):
        hits = lexical.search(conn, parsed, filters, pool)
        symbols = frozenset(t.lower() for t in parsed.original_terms if CODE_NAME.search(t))
        about_tests = any(word in _TEST_WORDS for term in parsed.terms for word in re.split(r"[\W_]+", term))
        excerpts, filtered = rank_hits(conn, project, hits, parsed.terms, options, now=now, symbols=symbols,
                                       demote_tests=not about_tests)
        empty_reason = None
        if not excerpts:
            empty_reason = EmptyReason.ALL_FILTERED if filtered else EmptyReason.NO_MATCH
            if not filtered and options.count_hidden:
                hidden = _hidden_matches(conn, parsed, filters)
                if hidden:
                    filtered.update(hidden)
                    empty_reason = EmptyReason.ALL_FILTERED
    return Answer(
        query=parsed.text,
        mode=mode,
        rule=rule,
        level=LEVEL,
        searched=(project.name,),
        excerpts=tuple(excerpts),
        empty_reason=empty_reason,
        filtered=dict(filtered),
    )


def rank_hits(
    conn: Connection,
    project: Project,
    hits: list[lexical.Hit],
    terms: tuple[str, ...],
    options: SearchOptions,
    *,
    now: datetime,
    symbols: frozenset[str] = frozenset(),
    demote_tests: bool = False,
) -> tuple[list[Excerpt], Counter[str]]:
    """Attach freshness, drop what must not be served, demote, cut to ``limit``.

    ``symbols`` are code names typed in the query (``rrf_fuse``): the excerpt that defines
    one of them is boosted, so "where is rrf_fuse" leads with the definition, not with the
    tests that mention it most. With ``demote_tests`` (a query that does not speak of tests),
    excerpts of test files weigh half: they repeat the words of the code they test."""
    facts = fact_store.get_many(conn, project.name, [h.fact_id for h in hits])
    files = FileCheck(project.root, conn)
    files.preload(loc.path for fact in facts.values() for loc in fact.locations)
    filtered: Counter[str] = Counter()
    scored = []
    for order, hit in enumerate(hits):
        fact = facts.get(hit.fact_id)
        if fact is None:
            continue
        fresh = freshness_of(fact, now=now, files=files)
        if fresh.state is FreshnessState.SOURCE_MISSING and not options.include_missing:
            filtered["source_missing"] += 1
            continue
        factor = demotion(fresh) * (SUPERSEDED_FACTOR if fact.lifecycle is Lifecycle.SUPERSEDED else 1.0)
        if symbols and _defines(fact, symbols):
            factor *= DEFINITION_BOOST
        if demote_tests and _is_test_code(fact):
            factor *= TEST_FACTOR
        explain = {**hit.explain, "factor": factor} if options.explain else None
        scored.append((hit.score * factor, order, fact, fresh, explain))
    scored.sort(key=lambda s: (-s[0], s[1]))
    excerpts = [
        Excerpt(fact, fresh, make_snippet(fact.body, terms), score, rank, explain)
        for rank, (score, _, fact, fresh, explain) in enumerate(scored[: options.limit], start=1)
    ]
    return excerpts, filtered


def _is_test_code(fact: Fact) -> bool:
    path = fact.source.uri.split("#", 1)[0].rsplit(":", 1)[0]  # src/x.py:4-9 → src/x.py
    return fact.type == "code" and is_test_path(path)


def _defines(fact: Fact, symbols: frozenset[str]) -> bool:
    symbol = fact.meta.get("symbol") if fact.type == "code" else None
    return isinstance(symbol, str) and symbol.rsplit(".", 1)[-1].lower() in symbols


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
        undated = lexical.count_matches(conn, parsed, lexical.Filters(
            filters.types, filters.lifecycles, filters.path_prefix, filters.memory_type))
        if undated:
            hidden["date"] += undated
    return hidden
