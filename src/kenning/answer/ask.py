"""One question, routed (SPEC §9), answered in the contract (SPEC §10).

The router picks a mode; the mode runs; when its engine is absent or fails (graph not
built, dense not installed or its index incomplete, core pack not built) level-0
lexical search answers and the answer lists the degradation. Nothing is replaced silently: ``mode`` is the mode
that actually served, ``rule`` the rule that chose, and the notes say why.
"""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from kenning import dense as dense_engine
from kenning.answer.naming import content_words, typed_names
from kenning.answer.releases import with_release_notes
from kenning.errors import IndexMissing, KenningError
from kenning.freshness import not_here
from kenning.graph.walk import NO_RELATIONS, NOT_BUILT, GraphState, graph_state
from kenning.ingest import git_history
from kenning.pack.manifest import read_manifest
from kenning.project import STATE_DIR, Project
from kenning.records import Answer, EmptyReason
from kenning.registry import GLOBAL_NAME
from kenning.route.rules import Route, route
from kenning.search import lexical
from kenning.search.factors import is_test_code
from kenning.search.query import ParsedQuery, parse
from kenning.search.serve import LEVEL, SearchOptions, noting_sync, search_conn
from kenning.search.weights import PER_FILE, TEST_BOOST
from kenning.store.db import SERVER_LEVEL, Connection, open_for_reading

GRAPH_NOT_BUILT = NOT_BUILT
GRAPH_EMPTY = NO_RELATIONS
DENSE_MISSING = dense_engine.NOT_INSTALLED
CORE_NOT_BUILT = "core pack not built"
CORE_NOT_INDEXED = "core pack facts not indexed: run `kenning sync`"
DENSE_NOT_BUILT = "dense index not built: run `kenning sync`"
GRAPH_NO_NODE = "graph found no node for this question"  # it names nothing: only relation words
# Its starts came from plain words: a word that is exactly a node's name (its note says "(exact)"
# or "(path)": never call that a guess beside it) or the lexical search ("(lexical)").
GRAPH_GUESS_EMPTY = (
    "graph found nothing from start nodes taken from the question's plain words (not quoted or typed as code)"
)
GRAPH_BLIND = "graph found nothing and cannot link calls of a method name that many methods share"
GRAPH_NO_TESTS = "graph links no test to this node: tests that name it, found by words"


def dense_installed() -> bool:
    """Whether the dense extra (level 1) is installed; whether its index can serve a given
    question is decided at the question (``kenning.search.hybrid.serving``)."""
    return dense_engine.missing(imports=False) is None


def ask_project(
    project: Project,
    question: str,
    *,
    now: datetime,
    limit: int = 10,
    dense_available: bool | None = None,
    explain: bool = False,
    conn: Connection | None = None,
) -> Answer:
    """The answer to ``question`` in ``project``. ``conn``: an open connection to the
    project's store to answer on, left open (a server keeps its own between calls: opening
    one costs about a millisecond and starts with a cold page cache)."""
    parsed = parse(question)  # the query budget and emptiness checks, before anything is read
    on = partial(
        ask_conn,
        project=project,
        question=question,
        now=now,
        limit=limit,
        dense_available=dense_available,
        explain=explain,
        parsed=parsed,
    )
    if conn is not None:
        answer = on(conn)
        return replace(answer, level=SERVER_LEVEL) if project.config.store else answer
    try:
        conn, fallback = open_for_reading(project)
    except IndexMissing:
        chosen, manifest = _route(project, question, dense_available)
        mode, degradations = _without_index(project, chosen, manifest)
        return Answer(
            question,
            mode,
            chosen.rule,
            LEVEL,
            (project.name,),
            degradations=degradations,
            empty_reason=EmptyReason.INDEX_MISSING,
            notes=(f"rule {chosen.rule}: {chosen.reason}", "no index: run `kenning sync`"),
        )
    try:
        answer = on(conn)
    finally:
        conn.close()
    if fallback is not None:
        return replace(answer, degradations=(*answer.degradations, fallback))
    return replace(answer, level=SERVER_LEVEL) if project.config.store else answer


def ask_conn(
    conn: Connection,
    project: Project,
    question: str,
    *,
    now: datetime,
    limit: int = 10,
    dense_available: bool | None = None,
    explain: bool = False,
    count_hidden: bool = True,
    parsed: ParsedQuery | None = None,
) -> Answer:
    """``ask_project`` over an open connection (cross-project scope opens each store read-only
    and, with ``count_hidden=False``, skips counting what an empty search hid). ``parsed``:
    ``question`` already parsed (``parse(question)``: a parse is a pure function of the text)."""
    if parsed is None or parsed.text != question or parsed.syntax != "natural":
        parsed = parse(question)
    parsed = lexical.with_loose_names(conn, parsed)  # the router reads them, and the search after it
    chosen, manifest = _route(project, question, dense_available, parsed.loose_names or frozenset())
    answer = _run(
        conn, project, parsed, chosen, manifest, now=now, limit=limit, explain=explain, count_hidden=count_hidden
    )
    history = git_history.degradation(_history_problem(project.root))  # commits are facts: unread history
    if history is not None and history not in answer.degradations:
        answer = replace(answer, degradations=(*answer.degradations, history))
    why = f"rule {chosen.rule}: {chosen.reason}"
    answer = not_here(answer)
    return noting_sync(replace(answer, query=question, rule=chosen.rule, notes=(why, *answer.notes)), project)


_HISTORY: dict[str, tuple[tuple[int, int, int], git_history.HistoryProblem | None]] = {}


def _history_problem(root: Path) -> git_history.HistoryProblem | None:
    """``git_history.problem(root)``, the record read again only when its file is another one
    (an atomic write: a new inode) or changed (mtime, size): a server asks it every question.
    No record file: None, as ``problem`` reads it."""
    path = root / STATE_DIR / git_history.RECORD
    try:
        info = os.stat(path)
    except OSError:
        return None
    key = (info.st_ino, info.st_mtime_ns, info.st_size)
    kept = _HISTORY.get(str(path))
    if kept is not None and kept[0] == key:
        return kept[1]
    found = git_history.problem(root)
    _HISTORY[str(path)] = (key, found)
    return found


def _without_index(project: Project, chosen: Route, manifest: dict[str, Any] | None) -> tuple[str, tuple[str, ...]]:
    """The mode and degradations of an answer with no index to read: the modes that need one
    (hybrid's vectors, the graph, the core pack's facts) cannot serve, so the answer names the
    level-0 mode and why the chosen one is off — as an indexed store would, never ``hybrid``."""
    match chosen.mode:
        case "hybrid":
            if dense_engine.missing() is not None:
                return "lexical", (DENSE_MISSING,)
            return "lexical", (dense_engine.DISABLED if not dense_engine.enabled(project) else DENSE_NOT_BUILT,)
        case "graph":
            return "lexical", (GRAPH_NOT_BUILT,)
        case "core":
            return "lexical", (CORE_NOT_BUILT if manifest is None else CORE_NOT_INDEXED,)
        case "lexical" if chosen.rule == "default":
            return "lexical", (DENSE_MISSING,)
    return chosen.mode, ()


def _route(
    project: Project, question: str, dense_available: bool | None, loose_names: frozenset[str] = frozenset()
) -> tuple[Route, dict[str, Any] | None]:
    dense = dense_installed() if dense_available is None else dense_available
    manifest = _manifest(project)
    fits = None if manifest is None else bool(manifest.get("fits", True))
    return route(question, dense_available=dense, core_fits=fits, loose_names=loose_names), manifest


def _run(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    chosen: Route,
    manifest: dict[str, Any] | None,
    *,
    now: datetime,
    limit: int,
    explain: bool = False,
    count_hidden: bool = True,
) -> Answer:
    words = partial(_lexical, conn, project, parsed, now=now, limit=limit, count_hidden=count_hidden)
    if project.name == GLOBAL_NAME and chosen.mode in ("graph", "core"):
        # The transverse memory holds notes only: no file, hence no graph and no core pack, ever.
        # Its notes answer by their words; no engine is missing there, so nothing is degraded.
        if chosen.mode == "graph":
            return _words(conn, project, parsed, now=now, limit=limit, explain=explain, count_hidden=count_hidden)
        return words(explain=explain)
    match chosen.mode:
        case "freshness":
            from kenning.answer.stale import stale_report  # each mode's modules when it runs: start-up time

            return stale_report(conn, project, now=now, limit=limit)
        case "core":
            if manifest is None:
                return words(degradations=(CORE_NOT_BUILT,))
            from kenning.answer.core import core_answer

            return core_answer(conn, project, manifest, parsed.text, now=now)
        case "graph":
            return _graph(conn, project, parsed, now=now, limit=limit, explain=explain, count_hidden=count_hidden)
        case "hybrid":
            answer = _hybrid(conn, project, parsed, now=now, limit=limit, explain=explain, count_hidden=count_hidden)
        case _:
            degradations = (DENSE_MISSING,) if chosen.rule == "default" else ()
            notes = (dense_engine.missing() or "",) if degradations else ()
            answer = words(degradations=degradations, explain=explain, notes=notes)
    return with_release_notes(conn, project, parsed.text, answer, now=now, limit=limit, explain=explain)


def _lexical(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    *,
    now: datetime,
    limit: int,
    degradations: tuple[str, ...] = (),
    explain: bool = False,
    notes: tuple[str, ...] = (),
    count_hidden: bool = True,
    prefer_tests: bool = False,
) -> Answer:
    options = SearchOptions(
        limit=limit, explain=explain, count_hidden=count_hidden, prefer_tests=prefer_tests, per_file=PER_FILE
    )
    answer = search_conn(conn, project, parsed, options, now=now, mode="lexical", note_sync=False)  # ask_conn notes it
    return replace(answer, degradations=degradations, notes=tuple(n for n in (*notes, *answer.notes) if n))


def _hybrid(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    *,
    now: datetime,
    limit: int,
    explain: bool,
    count_hidden: bool = True,
) -> Answer:
    """Level 1 when the dense index can serve this question; otherwise lexical, saying why."""
    words = partial(_lexical, conn, project, parsed, now=now, limit=limit, count_hidden=count_hidden, explain=explain)
    reason = dense_engine.missing(imports=False)
    if reason is None and not dense_engine.enabled(project):  # turned off: nothing of the extra imported
        return words(degradations=(dense_engine.DISABLED,))
    reason = reason or dense_engine.missing()  # found: imported now, a broken numpy named
    if reason is not None:
        return words(degradations=(DENSE_MISSING,), notes=(reason,))
    from kenning.search import hybrid  # the models: only with the dense extra installed

    embedder, why = hybrid.serving(conn, project, parsed.text)
    if embedder is None:
        return words(degradations=(why,))
    answer = hybrid.search(
        conn,
        project,
        parsed,
        SearchOptions(limit=limit, explain=explain, count_hidden=count_hidden, per_file=PER_FILE),
        now=now,
        embedder=embedder,
    )
    language = "multilingual" if embedder.multilingual else "English"
    return replace(answer, notes=(f"dense model {embedder.model_id} ({language})", *answer.notes))


def _graph(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    *,
    now: datetime,
    limit: int,
    explain: bool = False,
    count_hidden: bool = True,
) -> Answer:
    from kenning.answer.relations import relation_answer, relation_of

    question = parsed.text
    words = partial(_words, conn, project, parsed, now=now, limit=limit, explain=explain, count_hidden=count_hidden)
    try:
        state = graph_state(conn)
        if state is not GraphState.BUILT:  # no code relations: its relation words may be its subject
            why = GRAPH_NOT_BUILT if state is GraphState.NOT_BUILT else GRAPH_EMPTY
            return _lexical(
                conn,
                project,
                parsed,
                now=now,
                limit=limit,
                count_hidden=count_hidden,
                degradations=(why,),
                explain=explain,
            )
        found = relation_answer(conn, project, question, now=now, limit=limit)
    except KenningError:
        raise
    except Exception as exc:  # a failed engine is a degradation, never a silent empty answer
        return words(degradations=(f"graph failed: {type(exc).__name__}: {exc}",))
    if found is None:
        return words(degradations=(_no_node(question),))
    if found.loose is not None:
        return words(notes=(found.loose,))
    if (found.guessed or found.blind) and not found.answer.excerpts:  # led nowhere: the words may still answer
        instead = words(degradations=(GRAPH_BLIND if found.blind else GRAPH_GUESS_EMPTY,))
        kept = tuple(ex for ex in instead.excerpts if ex.fact.id not in found.starts)  # "who calls X": not X
        left = len(instead.excerpts) - len(kept)
        notes = (*found.answer.notes, *instead.notes)
        if left:
            notes = (*notes, f"the excerpt of what the question names left out ({left}): it is no answer to it")
        return replace(instead, excerpts=kept, notes=notes)
    if not found.answer.excerpts and relation_of(question).name == "tests":
        return _tests_by_name(found.answer, words(degradations=(GRAPH_NO_TESTS,)))
    return replace(found.answer, mode="graph")


def _no_node(question: str) -> str:
    """The degradation of a relation question that led to no node, naming what was looked for
    (as ``kenning graph`` does: "no graph node named 'x'"): the names it typed, else its words
    as searched (stop words left out), so a typo or a name from another project shows."""
    names = list(dict.fromkeys(typed_names(question)))
    if names:
        return "graph found no node named " + " or ".join(repr(n) for n in names)
    words = content_words(question)
    searched = " ".join(parse(" ".join(words)).terms) if words else ""
    return f"graph found no node for the words {searched!r}" if searched else GRAPH_NO_NODE


def _tests_by_name(empty: Answer, instead: Answer) -> Answer:
    """A typed node the graph links no test to: a test may reach it in a way calls are not linked
    (through a module attribute, ``click.utils.f()``; a fixture; a string). The test code among
    the words' answer is served, said as such; with none, the graph's empty answer stands."""
    tests = [ex for ex in instead.excerpts if is_test_code(ex.fact)]
    if not tests:
        return replace(empty, mode="graph")
    ranked = tuple(replace(ex, rank=rank) for rank, ex in enumerate(tests, 1))
    return replace(instead, excerpts=ranked, notes=(*empty.notes, *instead.notes))


def _words(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    *,
    now: datetime,
    limit: int,
    degradations: tuple[str, ...] = (),
    explain: bool = False,
    count_hidden: bool = True,
    notes: tuple[str, ...] = (),
) -> Answer:
    """The lexical answer to a relation question the built graph could not serve: its content words
    searched (the relation vocabulary left out: "which tests cover the session" searches
    ``session``, not "tests" and "cover"), or the whole question when none are left; for
    a ``tests`` question, test code weighs ``TEST_BOOST`` instead of being demoted."""
    from kenning.answer.relations import relation_of

    question = parsed.text
    words = content_words(question)
    searched = parse(" ".join(words)) if words else parsed  # the question's own parse when none are left
    tests = relation_of(question).name == "tests"
    shown = " ".join(searched.terms) or searched.text  # as searched: stop words left out too
    notes = (*notes, f"words searched (the relation words left out): {shown}") if words else notes
    if tests:
        notes = (*notes, f"test code weighs ×{TEST_BOOST:g}: the question asks for tests")
    return _lexical(
        conn,
        project,
        searched,
        now=now,
        limit=limit,
        degradations=degradations,
        explain=explain,
        notes=notes,
        count_hidden=count_hidden,
        prefer_tests=tests,
    )


def _manifest(project: Project) -> dict[str, Any] | None:
    try:
        return read_manifest(project.state_dir)
    except (OSError, ValueError):
        return None  # an unreadable manifest is a pack not built
