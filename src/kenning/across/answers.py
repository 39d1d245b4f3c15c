"""Cross-project answers: the same question over every registered store, one list.

Each store is opened read-only (``stores.opened``) and asked exactly what one project would
be asked; the per-project answers are ranked into one list by RRF (``rank.fuse``), every
excerpt keeping its own project's label and citation. Projects left out are listed in
``scope.excluded`` with their reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from kenning.across import coverage, window
from kenning.across.rank import K, Vocabulary, answered, fuse, shares, weights
from kenning.across.stores import Opened, Stores, opened
from kenning.answer.ask import LEVEL, ask_conn
from kenning.answer.stale import stale_report
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, ScopeEntry
from kenning.registry import Entry
from kenning.route.rules import route
from kenning.search import lexical
from kenning.search.fact_types import check_types_across
from kenning.search.query import parse
from kenning.search.ranker import rank_hits
from kenning.search.serve import SearchOptions, noting_sync, search_conn
from kenning.store import dated, vocabulary
from kenning.store.db import SERVER_LEVEL
from kenning.store.handle import Connection, engine_errors, typed_error

WINDOW_RULE = "window"  # the rule name of a question read for dates or decisions (window.py)

# One store's answer: (read-only connection, project, how many excerpts it may give).
PerStore = Callable[[Connection, Project, int], Answer]


def search_all(
    entries: Iterable[Entry],
    query: str,
    options: SearchOptions,
    *,
    now: datetime,
    home: Path | None = None,
    stores: Stores,
) -> Answer:
    """`kenning search --all-projects`: the same lexical search in every store."""
    parsed = parse(query, options.syntax)
    uncounted = replace(options, count_hidden=False)
    return _across(
        entries,
        home,
        query,
        lambda conn, project, n: search_conn(conn, project, parsed, replace(uncounted, limit=n), now=now),
        options.limit,
        fallback_mode="lexical",
        stores=stores,
        types=options.types,
        words=parsed.terms,
    )


def ask_all(
    question: str,
    entries: Iterable[Entry],
    *,
    now: datetime,
    limit: int = 10,
    home: Path | None = None,
    since: str | None = None,
    until: str | None = None,
    types: tuple[str, ...] = (),
    dense_available: bool | None = None,
    stores: Stores,
    explain: bool = False,
) -> Answer:
    """`kenning ask --all-projects`: each store answers as `kenning ask` would there; a
    question with a date window or a "what did I decide" cue (or ``since``/``until``/``types``)
    is read first (``window.read``) and served from facts of those types in that window."""
    words = parse(question).terms
    reading = window.read(question, now=now, since=since, until=until, types=types)
    if not (reading.decisions or reading.since or reading.until or types):
        return _across(
            entries,
            home,
            question,
            lambda conn, project, n: ask_conn(
                conn,
                project,
                question,
                now=now,
                limit=n,
                dense_available=dense_available,
                explain=explain,
                count_hidden=False,
            ),
            limit,
            fallback_mode=route(question).mode,
            stores=stores,
            words=words,
        )
    wanted = types or (window.DECISION_TYPES if reading.decisions else ())
    options = SearchOptions(
        limit=limit, types=wanted, since=reading.since, until=reading.until, explain=explain, count_hidden=False
    )
    parsed = parse(reading.words) if reading.has_words else None

    def per_store(conn: Connection, project: Project, n: int) -> Answer:
        if parsed is not None:
            return search_conn(conn, project, parsed, replace(options, limit=n), now=now, rule=WINDOW_RULE)
        return _newest(conn, project, replace(options, limit=n), now=now)

    answer = _across(
        entries,
        home,
        question,
        per_store,
        limit,
        fallback_mode="lexical",
        stores=stores,
        types=types,
        words=parsed.terms if parsed is not None else (),
    )
    return replace(answer, rule=WINDOW_RULE, notes=(*reading.notes(), *answer.notes))


def stale_all(
    entries: Iterable[Entry], *, now: datetime, stores: Stores, limit: int | None = None, types: tuple[str, ...] = ()
) -> Answer:
    """`kenning stale --all-projects`: each store's freshness report, one after the other in
    project order (a report is not a ranking: nothing to fuse). The transverse memory has no
    re-readable sources, so it has nothing stale."""
    answers, scope = stale_each(entries, now=now, stores=stores, types=types)
    excerpts = [ex for a in answers for ex in a.excerpts][:limit]
    ranked = tuple(replace(ex, rank=i) for i, ex in enumerate(excerpts, start=1))
    return _combine("what is stale", scope, answers, ranked, fallback_mode="freshness")


def stale_each(
    entries: Iterable[Entry], *, now: datetime, stores: Stores, types: tuple[str, ...] = ()
) -> tuple[list[Answer], Opened]:
    """Each readable, non-confidential store's freshness report, in project order, and the
    scope (``excluded`` says who was left out and why); the stores are closed on return."""
    with opened(entries, stores) as scope:
        check_types_across((conn for _, conn in scope.stores), types)
        answers = [a for _, a in _each(scope, lambda conn, project, _: stale_report(conn, project, now=now), 0)]
        if types:
            answers = [replace(a, excerpts=tuple(e for e in a.excerpts if e.fact.type in types)) for a in answers]
    return answers, scope


def _newest(conn: Connection, project: Project, options: SearchOptions, *, now: datetime) -> Answer:
    ids = dated.newest(conn, options.types, options.since, options.until, options.limit * 2)
    hits = [lexical.Hit(fact_id, 1.0 / position, {}) for position, fact_id in enumerate(ids, start=1)]
    excerpts, filtered = rank_hits(conn, project, hits, (), options, now=now)
    answer = Answer(
        "",
        "lexical",
        WINDOW_RULE,
        LEVEL,
        (project.name,),
        excerpts=tuple(excerpts),
        empty_reason=None if excerpts else (EmptyReason.ALL_FILTERED if filtered else EmptyReason.NO_MATCH),
        filtered=dict(filtered),
    )
    return noting_sync(answer, project)


def over_stores(
    entries: Iterable[Entry],
    query: str,
    per_store: PerStore,
    limit: int,
    *,
    home: Path | None = None,
    mode: str = "lexical",
    stores: Stores,
    excluded: Iterable[ScopeEntry] = (),
) -> Answer:
    """Any one-store answer (``per_store(conn, project, limit)``: the memory tools' layers, say)
    over every registered store, fused into one labelled list; ``excluded``: names the caller
    left out (not registered), listed with the others."""
    return _across(
        entries,
        home,
        query,
        per_store,
        limit,
        fallback_mode=mode,
        stores=stores,
        excluded=excluded,
        words=parse(query).terms if query.strip() else (),
    )


def _across(
    entries: Iterable[Entry],
    home: Path | None,
    query: str,
    per_store: PerStore,
    limit: int,
    *,
    fallback_mode: str,
    stores: Stores,
    types: tuple[str, ...] = (),
    excluded: Iterable[ScopeEntry] = (),
    words: tuple[str, ...] = (),
) -> Answer:
    """Ask every store, fuse (``types``: refused unless some store knows each of them), each
    store's ranks weighed by its belief it holds ``words`` (``rank.weights``, CORI) and by how
    much of them its first excerpts hold (``rank.answered``, ``across.coverage``). Each store is
    asked first for the ranks that can enter the merged top ``limit`` by its belief
    (``rank.shares``), and for ``coverage.DEPTH`` at least; once the weights are known, a store
    that gave all it was asked is asked again for ``limit`` when its share grew, or when another
    store gave fewer than it was asked — the list is then exactly what asking every store for
    ``limit`` gives."""

    def asked(conn: Connection, project: Project, n: int) -> Answer:  # a served store answers at level 2
        answer = per_store(conn, project, n)
        return replace(answer, level=SERVER_LEVEL) if project.config.store else answer

    with opened(entries, stores, home=home) as scope:
        scope.excluded.extend(excluded)
        check_types_across((conn for _, conn in scope.stores), types)
        beliefs = store_weights(scope.stores, words)
        names = [project.name for project, _ in scope.stores]
        first = shares([beliefs[name] for name in names], limit)
        wanted = {name: max(share, coverage.DEPTH) for name, share in zip(names, first, strict=True)}
        done = _each(scope, lambda conn, project, _: asked(conn, project, wanted[project.name]), limit)
        weighed = answered_weights(beliefs, words, [(project.name, a) for (_, project), a in done])
        final = dict(zip(names, shares([weighed[name] for name in names], limit), strict=True))
        short = any(len(a.excerpts) < wanted[project.name] for (_, project), a in done)
        again = {p.name for (_, p), a in done if _ask_again(a, wanted[p.name], final[p.name], short, limit)}
        done = [(store, asked(*store, limit) if store[1].name in again else a) for store, a in done]
        answers = [a for _, a in done]
        answer = _combine(query, scope, answers, fuse(answers, limit, weighed), fallback_mode=fallback_mode)
    notes = [
        f"ranked across {len(answers)} store(s) by RRF over per-project ranks (k={K}), each store's ranks "
        "weighed by how much the question's words belong to it (CORI) and how many of them its first "
        "excerpts hold"
    ]
    if answers and not answer.excerpts:
        # counting what each store hid costs more than all the searches (a trigram count per store)
        notes.append(
            "hidden matches (superseded, other types, other dates) are not counted across projects; "
            "search one project to see them"
        )
    return replace(answer, notes=(*answer.notes, *notes))


def _ask_again(answer: Answer, asked: int, share: int, short: bool, limit: int) -> bool:
    """Whether a store that gave ``answer`` when asked for ``asked`` is asked again for ``limit``:
    it gave all it was asked, fewer than ``limit``, and its final share is more, or another store
    (``short``) gave fewer than it was asked (its place goes to the others' further ranks)."""
    return len(answer.excerpts) >= asked and asked < limit and (short or share > asked)


def answered_weights(
    beliefs: dict[str, float], words: tuple[str, ...], answers: list[tuple[str, Answer]]
) -> dict[str, float]:
    """The stores' weights once they answered (``rank.answered``): ``beliefs`` (``store_weights``)
    and the share of ``words`` each store's first excerpts hold (``coverage.coverage``)."""
    asked = coverage.words_of(words)
    return answered(beliefs, {name: coverage.coverage(asked, a.excerpts) for name, a in answers})


def store_weights(stores: list[tuple[Project, Connection]], words: tuple[str, ...]) -> dict[str, float]:
    """Each store's weight for a question of ``words`` (``rank.weights``), by project name: how
    many of its excerpts hold each word, read from its word index (a store that cannot be read
    weighs 1.0; answering it fails next, and lists it as unreadable)."""
    lowered = sorted({w.lower() for w in words})
    failures: tuple[type[Exception], ...] = (*engine_errors(), OSError)
    read: dict[str, Vocabulary] = {}
    for project, conn in stores:
        try:
            stems = vocabulary.index_terms(conn, lowered) if lowered else []
            size, held = vocabulary.frequencies(conn, [s for s in stems if s])
        except failures:
            read[project.name] = None
            continue
        read[project.name] = (size, {w: held.get(s, 0) for w, s in zip(lowered, stems, strict=True) if s})
    return weights(read)


def _each(scope: Opened, per_store: PerStore, limit: int) -> list[tuple[tuple[Connection, Project], Answer]]:
    done = []
    failures: tuple[type[Exception], ...] = (*engine_errors(), OSError)
    for project, conn in scope.stores:
        try:
            done.append(((conn, project), per_store(conn, project, limit)))
        except failures as exc:  # damaged after opening, or a server refusing: listed, not empty
            scope.excluded.append(ScopeEntry(project.name, f"unreadable: {typed_error(exc).message}"))
    return done


def _combine(
    query: str, scope: Opened, answers: list[Answer], excerpts: tuple[Excerpt, ...], *, fallback_mode: str
) -> Answer:
    modes = {a.mode for a in answers} or {fallback_mode}
    rules = {a.rule for a in answers}
    notes: list[str] = []
    if not answers:
        notes.append(
            "no registered project could be searched"
            if scope.excluded
            else "no project registered on this machine: run `kenning init` in a project"
        )
    if len(modes) > 1 or len(rules) > 1:
        notes.extend(f"{a.searched[0]}: mode {a.mode}, rule {a.rule}" for a in answers)
    notes.extend(f"{a.searched[0]}: {n}" for a in answers for n in a.notes)
    filtered: Counter[str] = Counter()
    for a in answers:
        filtered.update(a.filtered)
    empty = None
    if not excerpts:
        if any(a.empty_reason is EmptyReason.ALL_FILTERED for a in answers):
            empty = EmptyReason.ALL_FILTERED
        elif not answers and any((e.reason or "").startswith(("unreadable", "outdated")) for e in scope.excluded):
            empty = EmptyReason.PROJECT_UNREADABLE
        elif not answers and any((e.reason or "").startswith("index missing") for e in scope.excluded):
            empty = EmptyReason.INDEX_MISSING  # nothing was searched: never "no match"
        elif not answers:  # none registered, or each one left out (confidential, not registered)
            empty = EmptyReason.NO_PROJECT  # nothing to search: never "no match"
        else:
            empty = EmptyReason.NO_MATCH
    return Answer(
        query=query,
        mode=modes.pop() if len(modes) == 1 else "mixed",
        rule=rules.pop() if len(rules) == 1 else None,
        level=max((a.level for a in answers), default=LEVEL),  # the highest level a store served at
        searched=tuple(a.searched[0] for a in answers),
        excerpts=excerpts,
        excluded=tuple(sorted(scope.excluded, key=lambda e: e.project)),
        degradations=tuple(f"{a.searched[0]}: {d}" for a in answers for d in a.degradations),
        empty_reason=empty,
        filtered=dict(filtered),
        notes=tuple(notes),
    )
