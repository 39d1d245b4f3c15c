"""Word ranking on PostgreSQL: FTS5's BM25 computed from the word postings (PostgreSQL
PostgreSQL migration 0008), compared with SQLite's own ``bm25()`` on the fixture corpus, and the postings
kept in step with the facts by the triggers (inserts, rewrites, deletes)."""

from __future__ import annotations

import shutil
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pg_engine import server_url

from kenning.records import Lifecycle
from kenning.store import facts, fts, fts_guard
from kenning.store.db import open_store, transaction
from kenning.sync.run import sync

pytestmark = pytest.mark.postgres
FIXTURE = Path(__file__).parent.parent / "fixtures" / "core_corpus"
NOW = datetime(2026, 11, 30, tzinfo=UTC)
WEIGHTS = (2.0, 1.5, 1.2, 1.0)
EXPRESSIONS = (
    '"tests" OR "run"',
    '"sqlite" OR "store" OR "index"',
    '"fusion" OR "rankings"',
    '"search" OR "search"',  # a repeated word counts twice, as in FTS5
    "search AND sqlite",
    "search NOT sqlite",
    "(search OR fusion) NOT (sqlite OR tests)",
    # a column filter scores its term's hits, and its document frequency, in those columns only
    "title:search OR title:sqlite",
    "{title path}:tests OR body:run",
    "title:(search OR fusion) NOT body:sqlite",
    # a phrase is one term: its document frequency and its hits are the phrase's own (fts_phrases)
    '"reciprocal rank"',
    '"reciprocal rank" OR fusion',
    '"rank fusion" OR "the store"',
    'title:"rank fusion" OR sqlite',
    'search NOT "search library"',
    '"search library" OR search',
)


@pytest.fixture
def engines(make_project):
    """The fixture corpus synced into a SQLite file and into PostgreSQL (a fresh project name)."""
    project = make_project({}, name=f"pg-rank-{uuid.uuid4().hex[:10]}", config="[dense]\nenabled = false\n")
    shutil.copytree(FIXTURE, project.root, dirs_exist_ok=True)
    server = replace(project, config=replace(project.config, store=server_url()))
    sync(project, now=NOW)
    sync(server, now=NOW)
    local, remote = open_store(project), open_store(server)
    yield local, remote
    local.close()
    remote.close()


def ranked(conn, expression: str) -> list[tuple[str, float]]:
    found = fts.words(conn, expression, fts.Filters(), 10, WEIGHTS)
    uris = {f.id: f.source.uri for f in facts.get_many(conn, "p", [i for i, _ in found]).values()}
    return [(uris[i], score) for i, score in found]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_postgresql_scores_are_fts5_bm25(engines, expression):
    local, remote = engines
    on_sqlite, on_pg = ranked(local, expression), ranked(remote, expression)
    assert on_sqlite, expression
    assert [u for u, _ in on_pg[:5]] == [u for u, _ in on_sqlite[:5]], expression
    for (_, a), (_, b) in zip(on_sqlite, on_pg, strict=True):
        assert b == pytest.approx(a, rel=0.02), expression


def test_a_phrase_ranks_as_on_sqlite(engines):
    local, remote = engines
    on_sqlite, on_pg = ranked(local, '"reciprocal rank"'), ranked(remote, '"reciprocal rank"')
    assert on_sqlite and [u for u, _ in on_pg[:5]] == [u for u, _ in on_sqlite[:5]]


def test_the_postings_follow_rewrites_and_deletes(engines):
    _, remote = engines
    before = ranked(remote, '"upgrader" OR "nightly"')
    assert before == []
    target = fts.words(remote, '"sqlite"', fts.Filters(), 1, WEIGHTS)[0][0]
    with transaction(remote):
        facts.set_tags(remote, target, ["upgrader"], "upgrader nightly")
    after = fts.words(remote, '"upgrader" OR "nightly"', fts.Filters(), 10, WEIGHTS)
    assert [i for i, _ in after] == [target]
    with transaction(remote):
        facts.delete(remote, target)
    assert fts.words(remote, '"upgrader" OR "nightly"', fts.Filters(), 10, WEIGHTS) == []
    assert target not in [i for i, _ in fts.words(remote, '"sqlite"', fts.Filters(), 50, WEIGHTS)]
    docs, stored = remote.execute(
        "SELECT s.docs, (SELECT count(*) FROM facts WHERE project = s.project) FROM word_stats s WHERE project = %s",
        (remote.project,),
    ).fetchone()
    assert docs == stored


def test_filters_apply_after_ranking_without_losing_the_limit(engines):
    _, remote = engines
    every = fts.words(remote, '"search" OR "sqlite"', fts.Filters(), 50, WEIGHTS)
    assert len(every) > 3
    with transaction(remote):
        for fact_id, _ in every[:3]:
            facts.set_lifecycle(remote, fact_id, Lifecycle.SUPERSEDED, when="2026-11-30")
    served = fts.words(remote, '"search" OR "sqlite"', fts.Filters(), 2, WEIGHTS)
    assert served == every[3:5]


def test_the_cost_estimate_counts_the_facts_of_each_word_from_the_postings(engines):
    _, remote = engines

    def matching(word: str) -> int:
        sql = "SELECT count(*) FROM facts WHERE project = %s AND words @@ to_tsquery('kenning_simple', %s)"
        return remote.execute(sql, (remote.project, word)).fetchone()[0]

    search, sqlite = matching("search"), matching("sqlite")
    assert search and sqlite
    assert fts_guard.estimated_postings(remote, "search") == search
    assert fts_guard.estimated_postings(remote, "search OR sqlite OR search") == 2 * search + sqlite
    assert fts_guard.estimated_postings(remote, "sea*") == matching("sea:*") >= search


def test_a_phrase_alone_serves_the_facts_the_filters_keep_with_the_same_scores(engines):
    """An expression that is one phrase takes its matches from the phrase's own facts
    (``fts_phrases``): a superseded one leaves the answer, the others keep their scores (its
    document frequency counts every fact, as FTS5's does)."""
    _, remote = engines
    every = fts.words(remote, '"reciprocal rank"', fts.Filters(), 50, WEIGHTS)
    assert len(every) >= 2
    with transaction(remote):
        facts.set_lifecycle(remote, every[0][0], Lifecycle.SUPERSEDED, when="2026-11-30")
    assert fts.words(remote, '"reciprocal rank"', fts.Filters(), 50, WEIGHTS) == every[1:]
