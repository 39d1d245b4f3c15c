"""The impact lists of store/postings.py give exactly the plain FTS5 query's top k (same rows,
same order, bit-identical scores) on generated corpora and queries; their pruning gives a
brute-force sum's top k on generated lists full of ties; the lists follow the store when it
moves, and are read only when cheap or asked before."""

from __future__ import annotations

import random
import sqlite3
from array import array

import pytest

from conftest import resync
from kenning.search import lexical
from kenning.store import fts, postings
from kenning.store import fts_topk as topk
from kenning.store.db import connect

WORDS = fts.word_index(lexical.WEIGHTS)
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon"
_COMMON = _GREEK + " phi chi psi omega cache index query token graph node edge stale"
VOCABULARY = [*_COMMON.split(" "), *[f"rare{i:03d}" for i in range(160)]]


def _zipf_words(rng: random.Random, n: int) -> list[str]:
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(VOCABULARY))]
    return rng.choices(VOCABULARY, weights=weights, k=n)


def _write_corpus(root, seed: int, files: int) -> None:
    rng = random.Random(seed)
    for i in range(files):
        parts = [f"# {' '.join(_zipf_words(rng, 2))} {i}\n"]
        for _ in range(5):
            parts.append(f"\n## {' '.join(_zipf_words(rng, rng.randint(1, 3)))}\n\n")
            parts.append(" ".join(_zipf_words(rng, rng.randint(3, 40))) + ".\n")
        path = root / f"docs/d{i % 5}/n{i:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(parts), encoding="utf-8")
    for i in range(12):  # excerpts alike but for one word no query uses: many equal scores
        path = root / f"ties/t{i:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Tie x{i}\n\nomega psi chi filler{i} words here.\n", encoding="utf-8")


@pytest.fixture(scope="module", params=[3, 17])
def store(request, tmp_path_factory: pytest.TempPathFactory):
    from kenning.config import init_project

    root = tmp_path_factory.mktemp("postings") / "corpus"
    _write_corpus(root, request.param, 160)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KENNING_HOME", str(tmp_path_factory.mktemp("postings-home")))
        project, _ = init_project(root, "postings")
        resync(project)
    connection = connect(project.db_path)
    yield project, connection
    connection.close()


@pytest.fixture(autouse=True)
def _empty_lists():
    postings.enable()
    postings.clear()
    yield
    postings.enable(False)


def _queries(count: int, seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        words = rng.sample(VOCABULARY[:31], rng.randint(0, 4)) + rng.sample(VOCABULARY, rng.randint(1, 3))
        out.append(tuple(f'"{w}"' for w in words))  # repeats and phrases no row holds included
    return out


def _best(conn: sqlite3.Connection, phrases: tuple[str, ...], k: int) -> list[tuple[int, float]] | None:
    return postings.best(conn, WORDS.table, WORDS.scoring, phrases, k)


SUMS = {"pure Python": {"USE_NUMPY": False}, "numpy": {"NUMPY_FROM": 0}}


@pytest.mark.parametrize("sums", SUMS)
def test_the_lists_give_the_plain_querys_top_k_bit_for_bit(store, monkeypatch, sums):
    _, conn = store
    for name, value in SUMS[sums].items():
        monkeypatch.setattr(postings, name, value)
    served = 0
    for phrases in _queries(150, seed=5):
        match = " OR ".join(phrases)
        for k in (1, 5, 30, 1000):
            got = _best(conn, phrases, k)
            assert got is not None
            assert got == topk.plain(conn, WORDS, match, k), (match, k)
            served += 1
    assert served == 600


def test_the_search_path_serves_plain_word_queries_from_the_lists(store):
    _, conn = store
    match = '"alpha" OR "cache" OR "rare001"'
    filters = fts.Filters()
    expected = [(i, -s) for i, s in topk.plain(conn, WORDS, match, 10)]
    assert lexical.bm25(conn, match, filters, 10) == expected  # first ask: the lists are read
    ran: list[str] = []
    conn.set_trace_callback(ran.append)
    try:
        assert lexical.bm25(conn, match, filters, 10) == expected
    finally:
        conn.set_trace_callback(None)
    assert not [s for s in ran if "MATCH" in s]  # second ask: FTS5 not queried at all


def _brute(lists: list[postings.Posting], k: int) -> list[tuple[int, float]]:
    docs = sorted({d for p in lists for d in p.docs})
    scored = []
    for d in docs:
        s = 0.0
        for p in lists:
            s += p.impact(d)
        scored.append((-s, d))
    scored.sort()
    return [(d, s) for s, d in scored[:k]]


def _posting(rng: random.Random, universe: int, share: float, levels: int | None) -> postings.Posting:
    docs = [d for d in range(1, universe + 1) if rng.random() < share]
    scale = rng.uniform(0.5, 9.0)
    values = [scale * (rng.randint(1, levels) if levels else rng.random()) for _ in docs]
    return postings.Posting(array("q", docs), array("d", values))


@pytest.mark.parametrize("sums", SUMS)
@pytest.mark.parametrize("levels", [None, 3, 1])  # continuous impacts, few levels, all equal: ties
def test_the_sums_equal_a_brute_force_sum_on_generated_lists(levels, sums, monkeypatch):
    for name, value in SUMS[sums].items():
        monkeypatch.setattr(postings, name, value)
    rng = random.Random(levels or 0)
    for _ in range(300):
        universe = rng.randint(1, 400)
        lists = [
            _posting(rng, universe, rng.choice([0.0, 0.01, 0.1, 0.5, 0.9]), levels) for _ in range(rng.randint(1, 7))
        ]
        if rng.random() < 0.3:
            lists.append(lists[0])  # a repeated phrase counts twice
        for k in (1, 3, 10, 50):
            assert postings.top_k(lists, k) == _brute(lists, k)


def test_the_lists_follow_the_store_when_it_moves(store, tmp_path_factory):
    project, conn = store
    phrases = ('"alpha"', '"rare002"')
    match = " OR ".join(phrases)
    before = _best(conn, phrases, 5)
    assert before == topk.plain(conn, WORDS, match, 5)
    page = project.root / "docs/new-page.md"
    page.write_text("# Alpha rare002 alpha\n\nrare002 rare002 alpha.\n", encoding="utf-8")
    try:
        resync(project)
        after = _best(conn, phrases, 5)
        assert after == topk.plain(conn, WORDS, match, 5)
        assert after != before  # the new excerpt leads: a stale list would not hold it
    finally:
        page.unlink()
        resync(project)
    assert _best(conn, phrases, 5) == topk.plain(conn, WORDS, match, 5)


def test_the_least_recently_used_lists_go_past_the_limit(store, monkeypatch):
    _, conn = store
    monkeypatch.setattr(postings, "MAX_POSTINGS", 150)
    for phrases in _queries(60, seed=9):
        assert _best(conn, phrases, 7) == topk.plain(conn, WORDS, " OR ".join(phrases), 7)
        longest = max(
            len(conn.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?", (p,)).fetchall()) for p in phrases
        )
        assert postings.cached_postings() <= max(150, longest)


def test_a_process_that_did_not_enable_the_lists_runs_fts5(store):
    _, conn = store
    postings.enable(False)
    assert _best(conn, ('"alpha"', '"rare001"'), 5) is None
    assert postings.cached_postings() == 0


def test_inside_a_transaction_the_lists_step_aside(store):
    _, conn = store
    conn.execute("BEGIN")
    try:
        assert _best(conn, ('"alpha"', '"beta"'), 5) is None
    finally:
        conn.execute("ROLLBACK")
