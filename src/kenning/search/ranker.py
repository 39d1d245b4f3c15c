"""The ranking features above the engine's score: freshness demotion, superseded half weight,
the definition boost for typed code names, the test-file demotion (or, for a question that asks
which tests cover something, the test-code boost), the docs' sections on testing boosted for a
question on how to test, code at half weight for a question asking why, commits, changelogs and
release notes at half weight for one not asking about history, in an answer to a question a file's
excerpts past ``PER_FILE`` weighed down in turn, and in every answer a document's copies kept for
other releases (``search.copies``) and its translations into other languages than the question's
(``search.translations``) weighed down. What each reads of a fact: ``search.factors``.
``search.serve`` feeds a :class:`Ranker` the engine's hits; ``search.hybrid`` its fused list."""

from __future__ import annotations

import heapq
import math
import os
import re
from bisect import insort
from collections import Counter
from datetime import datetime

from kenning.freshness import FileCheck, demotion, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.project import Project
from kenning.records import Excerpt, Fact, Freshness, FreshnessState, Lifecycle
from kenning.search import lexical, quoted
from kenning.search.asked import (
    WHY_WORDS,
    about_names,
    asks_about_licensing,
    asks_about_markup,
    asks_for_code,
    asks_for_tests,
    asks_how_to_test,
    asks_task,
)
from kenning.search.contents import is_contents
from kenning.search.copies import asked_versions, copy_key, kept_release, past_major
from kenning.search.factors import (
    defines,
    derived,
    file_of,
    in_test_files,
    is_history,
    is_markup,
    is_test_code,
    license_file,
    license_notice,
    lone_header,
    on_testing_docs,
    translated,
)
from kenning.search.history import asks_history
from kenning.search.options import SearchOptions, filters_of
from kenning.search.query import ParsedQuery, typed_code_names
from kenning.search.snippet import make_snippet
from kenning.search.translations import question_language
from kenning.search.weights import (
    CHECK_SPACING,
    CODE_ASKED_PROSE_FACTOR,
    COMMIT_LOG,
    CONTENTS_FACTOR,
    COPY_FACTOR,
    DEFINITION_BOOST,
    DERIVED_FACTOR,
    FILE_REPEAT_FACTOR,
    GENERATED_FACTOR,
    HISTORY_FACTOR,
    LICENSE_FACTOR,
    LICENSE_FILE_FACTOR,
    LONE_HEADER_FACTOR,
    MARKUP_FACTOR,
    RELEASE_FACTOR,
    SUPERSEDED_FACTOR,
    TASK_CODE_FACTOR,
    TEST_BOOST,
    TEST_FACTOR,
    TESTING_DOCS_BOOST,
    TRANSLATION_FACTOR,
    WHY_CODE_FACTOR,
)
from kenning.store import facts as fact_store
from kenning.store.handle import Connection

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


class Ranker:
    """Scores hits as they come, best base score first, and knows when deeper hits can no
    longer enter the top ``limit``.

    Every feature multiplies the base score by a factor: freshness demotion, superseded
    half weight, with ``symbols`` (code names typed in the query: ``rrf_fuse``) the
    definition boost, so "where is rrf_fuse" leads with the definition, not with the tests
    that mention it most; with ``demote_tests`` (a query that does not ask for tests), test
    files' excerpts at half weight (they repeat the words of the code they test); with
    ``options.prefer_tests`` (the words of "which tests cover X"), test code at ``TEST_BOOST``
    instead, never demoted; with ``demote_code`` (a why question) code, with ``demote_prose`` (a
    question asking where the code does something) docs and commit messages, with ``demote_history``
    (a question not about history) commits, changelogs and release notes, at half weight; with
    ``literals`` (quoted text, ``search.quoted``), an excerpt that does not hold them as typed is
    not served. A hit not yet scored has a base score at most the last one's, so its final score is at most that
    times the largest factor (:meth:`settled`): the search deepens until none can pass the
    ``limit``-th, which makes the order of the answer independent of ``limit``.

    With ``options.per_file``, a file's excerpts past that many weigh ``FILE_REPEAT_FACTOR``
    times the one before, counted in the answer's own order (:meth:`_ranked`); so does, in every
    answer, an excerpt's copy from another release's file (``COPY_FACTOR``), and a past release's
    excerpt weighs ``RELEASE_FACTOR`` from the start; the bound still holds, since each weight is
    at most 1."""

    def __init__(
        self,
        conn: Connection,
        project: Project,
        terms: tuple[str, ...],
        options: SearchOptions,
        *,
        now: datetime,
        symbols: frozenset[str] = frozenset(),
        demote_tests: bool = False,
        demote_code: bool = False,
        demote_prose: bool = False,
        task: bool = False,
        demote_history: bool = False,
        literals: tuple[str, ...] = (),
        how_to_test: bool = False,
        language: str | None = None,
        demote_markup: bool = False,
        demote_licenses: bool = False,
        versions: frozenset[int] = frozenset(),
    ) -> None:
        self.demote_history, self.literals, self.how_to_test = demote_history, literals, how_to_test
        self.demote_markup, self.task, self.demote_licenses = demote_markup, task, demote_licenses
        self.demote_prose = demote_prose
        self.versions = versions  # the major versions the question names: their folders are no past release
        self.languages = frozenset({"en", language}) if language else None  # not weighed: None, all
        self.conn, self.project, self.terms, self.options, self.now = conn, project, terms, options, now
        self.prefer_tests = options.prefer_tests
        self.symbols, self.demote_tests, self.demote_code = symbols, demote_tests and not self.prefer_tests, demote_code
        # the largest product of factors a hit can get: every other factor is at most 1
        self.max_factor = math.prod(
            (
                DEFINITION_BOOST if symbols else 1.0,
                TEST_BOOST if self.prefer_tests else 1.0,
                TESTING_DOCS_BOOST if how_to_test else 1.0,
                1.0 if demote_licenses else LICENSE_FILE_FACTOR,  # a question about licensing: its file
            )
        )
        self.files = FileCheck(project.root, conn, split_spans)
        self.filtered: Counter[str] = Counter()
        self.scored: list[tuple[int, float, int, Fact, Freshness, dict[str, Any] | None]] = []
        self.per_file = options.per_file
        self._files: dict[int, str] = {}  # a scored file excerpt's base order -> its file
        self._per_file_count: Counter[str] = Counter()
        self._copies: dict[int, tuple[str, str]] = {}  # a scored file excerpt's base order -> its ``copy_key``
        self._copy_files: dict[tuple[str, str], set[str]] = {}  # a copy key -> the files scored with it
        # a file holds more than per_file scored excerpts, or an excerpt's copy another file: the weights apply
        self._crowded = False
        self._top: list[tuple[Any, ...]] | None = None  # ``_ranked``, until the next hit is scored
        self._entries: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # ``_listed``, by parent
        self._next_check = 0  # ``_closed``: the count of scored hits at which a spaced check picks again
        self.seen = 0
        self.closed = False  # no hit past those seen can enter the top ``limit``

    def add(self, hits: list[lexical.Hit]) -> None:
        """Score the hits past those already scored (``hits`` extends the previous list), in
        their order, until none left can enter the top ``limit`` (:meth:`_closed`): their facts
        are read and checked in chunks, the first one ``limit`` hits, each next one (twice as
        many) read only when its first hit may still enter, so an answer where every fact
        serves reads ``limit`` facts, not the whole pool."""
        new, first = hits[self.seen :], self.seen
        self.seen = len(hits)
        start, size = 0, self.options.limit
        while start < len(new) and not self.closed:
            if self._closed(new[start]):  # a hit's bound needs no fact: read none past it
                self.closed = True
                break
            part = new[start : start + size]
            facts = fact_store.get_many(self.conn, self.project.name, [h.fact_id for h in part])
            self.files.preload(loc.path for fact in facts.values() for loc in fact.locations)
            self.files.preload_commits(fact.source.uri for fact in facts.values() if fact.source.kind == "commit")
            for order, hit in enumerate(part, start=first + start):
                if self._closed(hit, spaced=True):
                    self.closed = True
                    break
                fact = facts.get(hit.fact_id)
                if fact is not None:
                    self._score(hit, order, fact)
            start, size = start + len(part), size * 2

    def _license(self, fact: Fact) -> float:
        """A license notice weighs half for a question that speaks of no license; a license's own
        file (``LICENSE``) weighs more for one that does."""
        if self.demote_licenses:
            return LICENSE_FACTOR if license_notice(fact) else 1.0
        return LICENSE_FILE_FACTOR if license_file(fact) else 1.0

    def _kept_release(self, fact: Fact) -> bool:
        """A file's excerpt kept for a past release (``copies.kept_release``), or documentation
        under a major version's folder beside a later one (``copies.past_major``) that the
        question does not name."""
        path = file_of(fact)
        return kept_release(path) or fact.type == "doc" and past_major(path, self._folders, self.versions)

    def _folders(self, parent: str) -> frozenset[str]:
        return self._listed(parent)[0]

    def _file_names(self, parent: str) -> frozenset[str]:
        return self._listed(parent)[1]

    def _listed(self, parent: str) -> tuple[frozenset[str], frozenset[str]]:
        """The folders and the other entries of the project's folder ``parent`` as the disk holds
        them now (none when it is not there: a store served away from its files), read once per
        answer."""
        if parent not in self._entries:
            folders: list[str] = []
            files: list[str] = []
            try:
                with os.scandir(os.path.join(self.project.root, parent)) as entries:
                    for entry in entries:
                        (folders if entry.is_dir(follow_symlinks=False) else files).append(entry.name)
            except OSError:
                pass
            self._entries[parent] = frozenset(folders), frozenset(files)
        return self._entries[parent]

    def _exists(self, path: str) -> bool:
        """Whether the project's file ``path`` is on disk (``_listed``: its folder read once per answer)."""
        parent, _, name = path.rpartition("/")
        return name in self._file_names(parent)

    def _score(self, hit: lexical.Hit, order: int, fact: Fact) -> None:
        if self.literals and not quoted.holds(quoted.fact_texts(fact), self.literals):
            return  # its words hold the quoted phrase, its text not the quoted text as typed
        fresh = freshness_of(fact, now=self.now, files=self.files)
        if fresh.state is FreshnessState.SOURCE_MISSING and not self.options.include_missing:
            self.filtered["source_missing"] += 1
            return
        test_file = 1.0
        if self.prefer_tests and is_test_code(fact):
            test_file = TEST_BOOST
        elif self.demote_tests and in_test_files(fact):
            test_file = TEST_FACTOR
        named = {  # each ranking factor, by the name ``explain`` gives it
            "freshness": demotion(fresh),
            "superseded": SUPERSEDED_FACTOR if fact.lifecycle is Lifecycle.SUPERSEDED else 1.0,
            "definition": DEFINITION_BOOST if self.symbols and defines(fact, self.symbols) else 1.0,
            "test_file": test_file,
            "why_code": WHY_CODE_FACTOR if self.demote_code and fact.type == "code" else 1.0,
            "task_code": TASK_CODE_FACTOR if self.task and fact.type == "code" else 1.0,
            "code_asked": CODE_ASKED_PROSE_FACTOR if self.demote_prose and fact.type in ("doc", "commit") else 1.0,
            "history": HISTORY_FACTOR if self.demote_history and is_history(fact) else 1.0,
            "lone_header": LONE_HEADER_FACTOR if lone_header(fact) else 1.0,
            "contents": CONTENTS_FACTOR if is_contents(fact) else 1.0,
            "generated": GENERATED_FACTOR if fact.meta.get("generated") is True else 1.0,
            "release": RELEASE_FACTOR if fact.source.kind == "file" and self._kept_release(fact) else 1.0,
            "testing_docs": TESTING_DOCS_BOOST if self.how_to_test and on_testing_docs(fact) else 1.0,
            "translation": (
                TRANSLATION_FACTOR if self.languages and translated(fact, self.languages, self._file_names) else 1.0
            ),
            "markup": MARKUP_FACTOR if self.demote_markup and is_markup(fact) else 1.0,
            "license": self._license(fact),
            "derived": DERIVED_FACTOR if derived(fact, self._exists) else 1.0,
        }
        factor = math.prod(named.values())
        explain = None
        if self.options.explain:  # the product, and each factor that moved the score
            explain = {**hit.explain, "factor": factor, "factors": {k: v for k, v in named.items() if v != 1.0}}
        insort(self.scored, (hit.tier, hit.score * factor, order, fact, fresh, explain), key=_rank_key)
        self._top = None
        if fact.source.kind == "file" or self.demote_history and fact.type == "commit":
            path = file_of(fact) if fact.source.kind == "file" else COMMIT_LOG
            self._files[order] = path
            self._per_file_count[path] += 1
            self._crowded = self._crowded or bool(self.per_file) and self._per_file_count[path] > self.per_file
            if fact.source.kind == "file":
                key = self._copies[order] = copy_key(path, fact.title)
                files = self._copy_files.setdefault(key, set())
                files.add(path)
                self._crowded = self._crowded or len(files) > 1

    def _closed(self, hit: lexical.Hit, *, spaced: bool = False) -> bool:
        """True when neither ``hit`` nor any after it (hits come by tier, then by decreasing
        score) can enter the top ``limit``: its final score is at most ``hit.score × max_factor``
        and, scored later, it ranks after every scored hit it ties.

        Once the weights apply, the ``limit``-th is picked again from every scored hit: ``spaced``
        (each hit of a chunk) asks that only once the scored hits grew by a ``CHECK_SPACING``-th
        since it was last asked, and answers False between (a few more hits scored, the answer
        the same: each check is exact); at every hit, on gin's code crowded by file, it cost
        seconds at ``limit`` 100."""
        limit = self.options.limit
        if len(self.scored) < limit:
            return False
        if not self._crowded:
            kth = self.scored[limit - 1]
        elif spaced and len(self.scored) < self._next_check:
            return False
        else:
            self._next_check = len(self.scored) + max(1, len(self.scored) // CHECK_SPACING)
            kth = self._ranked()[limit - 1]
        return kth[0] < hit.tier or (kth[0] == hit.tier and kth[1] >= hit.score * self.max_factor)

    def settled(self, hits: list[lexical.Hit]) -> bool:
        """True when no hit after ``hits`` (the full ranking's first ones) can enter the top
        ``limit``: it would rank in ``last.tier`` or after, below ``last.score × max_factor``
        (and after every scored hit on a tie, coming later in the base order)."""
        return self.closed or (bool(hits) and self._closed(hits[-1]))

    def _ranked(self) -> list[tuple[Any, ...]]:
        """The answer's first ``limit`` scored hits, in order, each with its final score and
        the weights its file's earlier excerpts and its copies' gave it (``(file, copy)``):
        ``scored`` itself while no file holds more than ``per_file`` and no excerpt has a copy;
        otherwise picked one at a time, each pick the best once the picks so far weigh it. A
        weight only falls as picks go on, so each pick scores at most the one before: the first
        ``k`` picks are the same whatever ``limit`` is, and a hit not yet scored (at most its
        bound) cannot pass the ``limit``-th.

        The picks come from a heap of each hit's key as last weighed (``scored``'s order is
        already one): a key only grows as weights fall, so the least key weighed again and still
        not past the next one's is the best pick; the others are weighed again only when they
        come up (scanning every hit left for each pick cost seconds at ``limit`` 100: gin's "how to
        test a handler", its code crowded by file)."""
        if self._top is not None:
            return self._top
        limit = self.options.limit
        if not self._crowded:
            self._top = [(*item, (1.0, 1.0)) for item in self.scored[:limit]]
            return self._top
        counts = Counter[str]()
        copies: dict[tuple[str, str], Counter[str]] = {}  # a copy key -> its picks so far, by file
        heap = [(_rank_key(item), index) for index, item in enumerate(self.scored)]
        top: list[tuple[Any, ...]] = []
        while heap and len(top) < limit:
            _, index = heapq.heappop(heap)
            tier, score, order, *rest = self.scored[index]
            weights = self._weights(order, counts, copies)
            key = (tier, -score * weights[0] * weights[1], order)
            if heap and key > heap[0][0]:
                heapq.heappush(heap, (key, index))
                continue
            if order in self._files:
                counts[self._files[order]] += 1
                if order in self._copies:
                    copies.setdefault(self._copies[order], Counter())[self._files[order]] += 1
            top.append((tier, score * weights[0] * weights[1], order, *rest, weights))
        self._top = top
        return top

    def _weights(
        self, order: int, counts: Counter[str], copies: dict[tuple[str, str], Counter[str]]
    ) -> tuple[float, float]:
        """The weights of the scored hit of base ``order`` after the picks ``counts`` (by file) and
        ``copies`` (by copy key, then file): its file's (past ``per_file`` of its excerpts) and its
        copies' (one ``COPY_FACTOR`` for each pick of its copy from another file)."""
        path = self._files.get(order)
        if path is None:
            return 1.0, 1.0
        file_weight = FILE_REPEAT_FACTOR ** max(0, counts[path] - self.per_file + 1) if self.per_file else 1.0
        picked = copies.get(self._copies[order]) if order in self._copies else None
        elsewhere = sum(picked.values()) - picked[path] if picked else 0
        return file_weight, COPY_FACTOR**elsewhere

    def excerpts(self) -> list[Excerpt]:
        return [
            Excerpt(fact, fresh, make_snippet(fact.body, self.terms), score, rank, _weighed(explain, weights))
            for rank, (_, score, _, fact, fresh, explain, weights) in enumerate(self._ranked(), start=1)
        ]


def _weighed(explain: dict[str, Any] | None, weights: tuple[float, float]) -> dict[str, Any] | None:
    """``explain`` with the file's repeat weight and the copies' among its factors (those that
    moved the score)."""
    moved = {name: w for name, w in zip(("file_repeat", "copy"), weights, strict=True) if w != 1.0}
    if explain is None or not moved:
        return explain
    factor = explain["factor"] * weights[0] * weights[1]
    return {**explain, "factor": factor, "factors": {**explain["factors"], **moved}}


def query_ranker(
    conn: Connection, project: Project, parsed: ParsedQuery, options: SearchOptions, *, now: datetime
) -> Ranker:
    """The :class:`Ranker` for ``parsed``, lexical or fused: the definitions of the code names it
    asks boosted (only where the scope holds code: otherwise there is nothing to boost, and the
    bound would rank three times as deep for nothing), test files demoted unless it asks for tests,
    code demoted when it asks why and names no code, docs and commit messages when it asks where the code
    does something (``asked.asks_for_code``), commits, changelogs and release notes when it
    does not ask about history, templates and stylesheets when it speaks of no page or style. A
    camelCase word no symbol is named (``lexical.loose_names``) is no code name here."""
    symbols = typed_code_names(parsed)
    if symbols and not lexical.holds_code(conn, filters_of(options)):
        symbols = frozenset()
    if symbols:  # a product name (``GitHub``) is no code name the question asks about
        symbols -= {name.lower() for name in lexical.loose_names(conn, parsed)}
    about_tests = asks_for_tests(parsed, symbols)
    how_to_test = asks_how_to_test(parsed, about_tests)
    words = re.findall(r"\w+", parsed.text.lower())
    code = asks_for_code(parsed)
    why = parsed.syntax == "natural" and not symbols and not code and not WHY_WORDS.isdisjoint(words)
    history = parsed.syntax == "natural" and not asks_history(parsed.text)
    return Ranker(
        conn,
        project,
        parsed.terms,
        options,
        now=now,
        symbols=symbols if about_names(parsed, symbols) else frozenset(),
        demote_tests=not about_tests,
        demote_code=why,
        demote_prose=code,
        task=not why and not code and not about_tests and asks_task(parsed, symbols),
        demote_history=history,
        literals=parsed.literals,
        how_to_test=how_to_test,
        language=question_language(parsed.french),
        demote_markup=not asks_about_markup(parsed.text),
        demote_licenses=not asks_about_licensing(parsed.text),
        versions=asked_versions(parsed.text),
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
    """The :class:`Ranker`'s order over a fixed candidate list (a fused list that is whole)."""
    ranker = Ranker(conn, project, terms, options, now=now, symbols=symbols, demote_tests=demote_tests)
    ranker.add(hits)
    return ranker.excerpts(), ranker.filtered


def _rank_key(scored: tuple[Any, ...]) -> tuple[int, float, int]:
    """The answer's order: tier, then final score (best first), then the base order."""
    return scored[0], -scored[1], scored[2]
