"""The impact lists of store/postings.py give exactly the plain FTS5 query's top k (same rows,
same order, bit-identical scores) on generated corpora and queries; their pruning gives a
brute-force sum's top k on generated lists full of ties; the lists follow the store when it
moves, and are read only when cheap or asked before."""

from __future__ import annotations

import random
import sqlite3
from array import array

import pytest

from conftest import module_home, resync
from kenning.search import lexical
from kenning.store import fts, impact_sum, postings
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
    with module_home(tmp_path_factory):
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


SUMS = {"pure Python": (postings, "USE_NUMPY", False), "numpy": (impact_sum, "NUMPY_FROM", 0)}


@pytest.mark.parametrize("sums", SUMS)
def test_the_lists_give_the_plain_querys_top_k_bit_for_bit(store, monkeypatch, sums):
    _, conn = store
    monkeypatch.setattr(*SUMS[sums])
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
    monkeypatch.setattr(*SUMS[sums])
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


def test_the_numpy_sum_takes_its_floor_from_a_list_and_steps_aside_when_it_is_zero(monkeypatch):
    """The numpy sum keeps the rows scoring at least the ``k``-th best full score of one list's
    rows; when that floor is 0.0 (a phrase whose impacts are all zero), rows no list holds would
    pass it: every matched row is ranked instead."""
    monkeypatch.setattr(impact_sum, "NUMPY_FROM", 0)
    floors: list[float] = []
    partition = impact_sum.numpy_if_installed().partition

    def watched(values, kth):
        out = partition(values, kth)
        floors.append(float(out[kth]))
        return out

    np = impact_sum.numpy_if_installed()
    monkeypatch.setattr(np, "partition", watched)
    zero = postings.Posting(array("q", range(1, 30)), array("d", [0.0] * 29))
    other = postings.Posting(array("q", [5, 40, 41]), array("d", [1.0, 2.0, 0.5]))
    # rows 0 and 30-39 are in no list: they must never come back, though they score 0.0 too
    assert postings.top_k([zero, other], 5) == [(40, -2.0), (5, -1.0), (41, -0.5), (1, -0.0), (2, -0.0)]
    assert floors[0] == 0.0  # the floor from ``zero``'s rows: none, then every matched row
    assert postings.top_k([zero, other], 5) == _brute([zero, other], 5)
    floors.clear()
    rare = postings.Posting(array("q", [3, 7, 9, 11]), array("d", [4.0, 1.0, 3.0, 2.0]))
    common = postings.Posting(array("q", range(1, 200)), array("d", [0.5] * 199))
    assert postings.top_k([common, rare], 2) == [(3, -4.5), (9, -3.5)] == _brute([common, rare], 2)
    assert floors == [3.5]  # the 2nd best full score of ``rare``'s rows (the shortest list longer than k)


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


def test_a_write_landing_between_the_state_and_a_list_read_is_not_mixed_in(store):
    project, conn = store
    phrases = ('"alpha"', '"rare002"')
    match = " OR ".join(phrases)
    assert _best(conn, ('"alpha"',), 5) is not None  # alpha's list cached at this state
    page = project.root / "docs/racing-page.md"
    page.write_text("# Alpha rare002 alpha\n\nrare002 rare002 alpha.\n", encoding="utf-8")
    landed: list[str] = []

    def sync_during_the_list_read(statement: str) -> None:
        if "MATCH" in statement and not landed:  # rare002's list: a sync commits just before it runs
            landed.append(statement)
            resync(project)

    conn.set_trace_callback(sync_during_the_list_read)
    try:
        got = _best(conn, phrases, 5)
    finally:
        conn.set_trace_callback(None)
    try:
        assert landed
        # alpha's list is the old store's, rare002's the new one's: no answer from a mix of them
        assert got is None or got == topk.plain(conn, WORDS, match, 5)
        assert _best(conn, phrases, 5) == topk.plain(conn, WORDS, match, 5)
    finally:
        page.unlink()
        resync(project)


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


def _warm(project, **settings) -> postings.Warm:
    task = postings.warm(str(project.db_path), WORDS.table, WORDS.scoring, **settings)
    assert task is not None
    return task


def _statements(conn: sqlite3.Connection, work, holding: str = "MATCH") -> list[str]:
    """The statements ``work`` ran on ``conn`` that hold ``holding``."""
    ran: list[str] = []
    conn.set_trace_callback(ran.append)
    try:
        work()
    finally:
        conn.set_trace_callback(None)
    return [s for s in ran if holding in s]


def test_the_warm_up_reads_the_common_words_lists_and_answers_stay_exact(store):
    project, conn = store
    task = _warm(project, skip=("alpha",), from_rows=40)
    assert task.done.wait(30)
    assert task.lists > 0 and task.postings == postings.cached_postings() > 0
    common = ('"beta"', '"gamma"', '"delta"')
    match = " OR ".join(common)
    assert not _statements(conn, lambda: _best(conn, common, 5))  # read by the warm-up: no statement
    assert _best(conn, common, 5) == topk.plain(conn, WORDS, match, 5)
    assert _statements(conn, lambda: _best(conn, ('"alpha"',), 5))  # a skipped word is read when asked
    for phrases in _queries(80, seed=11):
        assert _best(conn, phrases, 10) == topk.plain(conn, WORDS, " OR ".join(phrases), 10)


def test_questions_asked_during_the_warm_up_get_the_plain_querys_answers(store):
    project, conn = store
    queries = _queries(40, seed=13)
    expected = [topk.plain(conn, WORDS, " OR ".join(p), 10) for p in queries]
    during = 0
    for _ in range(15):
        postings.clear()
        task = _warm(project, from_rows=2)
        for phrases, answer in zip(queries, expected, strict=True):
            during += not task.done.is_set()
            assert _best(conn, phrases, 10) == answer
        assert task.done.wait(30)
        assert postings.cached_postings() <= postings.MAX_POSTINGS
    assert during > 0  # some questions were answered while the thread read lists


def test_the_warm_up_starts_over_when_the_store_moves(store):
    project, conn = store
    task = _warm(project, from_rows=40)
    assert task.done.wait(30)
    phrases = ('"beta"', '"gamma"')
    before = _best(conn, phrases, 5)
    page = project.root / "docs/warm-page.md"
    page.write_text("# Beta gamma beta\n\ngamma gamma beta beta.\n", encoding="utf-8")
    try:
        resync(project)
        task.done.clear()  # the next question sees the new state and starts a pass
        after = _best(conn, phrases, 5)
        assert after == topk.plain(conn, WORDS, " OR ".join(phrases), 5) != before
        assert task.done.wait(30) and task.passes >= 2
        assert not _statements(conn, lambda: _best(conn, ('"delta"', '"beta"'), 5))  # read again, at the new state
        assert _best(conn, ('"delta"', '"beta"'), 5) == topk.plain(conn, WORDS, '"delta" OR "beta"', 5)
    finally:
        page.unlink()
        resync(project)


@pytest.mark.parametrize("cap", ["budget", "MAX_POSTINGS"])
def test_the_warm_up_keeps_within_its_budget_and_never_drops_an_asked_list(store, monkeypatch, cap):
    project, conn = store
    asked = ('"rare001"', '"omega"')
    _best(conn, asked, 5)
    held = postings.cached_postings()
    if cap == "MAX_POSTINGS":
        monkeypatch.setattr(postings, "MAX_POSTINGS", held + 300)
        task = _warm(project, from_rows=1)
    else:
        task = _warm(project, from_rows=1, budget=300)
    assert task.done.wait(30)
    assert task.lists > 0 and held < postings.cached_postings() <= held + 300
    if cap == "budget":
        assert task.postings <= 300  # the asked lists it met count toward its budget
    assert not _statements(conn, lambda: _best(conn, asked, 5))  # the asked lists are still held


def test_phrases_with_the_same_tokens_share_a_list(store):
    _, conn = store
    assert _best(conn, ('"cache"',), 5) == topk.plain(conn, WORDS, '"cache"', 5)
    for phrase in ('"caching"', '"CACHES"', '"cachés"'):  # porter and unicode61: the token of "cache"
        assert not _statements(conn, lambda p=phrase: _best(conn, (p,), 5))
        assert _best(conn, (phrase,), 5) == topk.plain(conn, WORDS, phrase, 5)
    assert _best(conn, ('"-"', '"cache"'), 5) == topk.plain(conn, WORDS, '"-" OR "cache"', 5)  # no token


def test_the_warm_up_reads_the_lists_of_stems_the_stemmer_changes_again(make_project):
    # ``because`` is indexed as ``becaus``, which the porter stemmer makes ``becau``: the
    # vocabulary's word is no phrase of its own; its list is read through ``because``
    files = {
        f"docs/n{i:02d}.md": f"# Note {i}\n\nIt failed because the database increased its response time {i}.\n"
        for i in range(30)
    }
    project = make_project(files, name="stems")
    resync(project)
    conn = connect(project.db_path)
    try:
        task = _warm(project, from_rows=5)
        assert task.done.wait(30)
        for word in ("because", "database", "increased", "response"):
            phrases = (f'"{word}"',)
            assert not _statements(conn, lambda p=phrases: _best(conn, p, 5)), word  # read by the warm-up
            assert _best(conn, phrases, 5) == topk.plain(conn, WORDS, phrases[0], 5)
    finally:
        conn.close()


def test_the_superseded_matches_are_counted_from_the_lists_as_sql_counts_them(make_project):
    greek = _GREEK.split()
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\n{' '.join(greek[i % 7 : i % 7 + 5])} words.\n" for i in range(40)}
    project = make_project(files, name="edited")
    resync(project)
    for i in range(0, 40, 3):  # edited since: their old excerpts superseded
        path = project.root / f"docs/n{i:02d}.md"
        path.write_text(path.read_text(encoding="utf-8").replace("words", "new words"), encoding="utf-8")
    resync(project)
    conn = connect(project.db_path)
    superseded = fts.Filters(lifecycles=("superseded",))
    try:
        held = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'superseded'").fetchone()[0]
        assert 0 < held <= fts.COUNT_AMONG
        queries = [('"alpha"', '"gamma"'), ('"zeta"',), ('"eta"', '"words"', '"nothing"'), ('"nothing"',)]
        joined = (
            "SELECT count(*) FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid "
            "WHERE facts_fts MATCH ? AND f.lifecycle = 'superseded'"
        )
        expected = [conn.execute(joined, (" OR ".join(q),)).fetchone()[0] for q in queries]
        assert any(expected) and 0 in expected
        postings.enable(False)  # no lists (a one-shot command): FTS5 looks the few facts up by rowid
        for phrases, count in zip(queries, expected, strict=True):
            match = " OR ".join(phrases)
            assert all("rowid IN" in s for s in _statements(conn, lambda m=match: fts.count_words(conn, m, superseded)))
            assert fts.count_words(conn, match, superseded) == count, phrases
        postings.enable()
        for phrases, count in zip(queries, expected, strict=True):
            _best(conn, phrases, 5)  # the ranking reads the lists
            match = " OR ".join(phrases)
            assert not _statements(conn, lambda m=match: fts.count_words(conn, m, superseded)), phrases
            assert fts.count_words(conn, match, superseded) == count, phrases
    finally:
        conn.close()


def test_many_superseded_matches_are_counted_from_the_lists_and_a_mask_as_sql_counts_them(make_project, monkeypatch):
    greek = _GREEK.split()
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\n{' '.join(greek[i % 7 : i % 7 + 5])} words.\n" for i in range(40)}
    project = make_project(files, name="rewritten")
    resync(project)
    for i in range(0, 40, 2):  # half the files rewritten: active facts among the superseded ones' ids
        path = project.root / f"docs/n{i:02d}.md"
        path.write_text(path.read_text(encoding="utf-8").replace("words", "new words"), encoding="utf-8")
    resync(project)
    monkeypatch.setattr(fts, "COUNT_AMONG", 3)  # more superseded facts than the look-ups take
    conn = connect(project.db_path)
    superseded = fts.Filters(lifecycles=("superseded",))
    joined = (
        "SELECT count(*) FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid "
        "WHERE facts_fts MATCH ? AND f.lifecycle = 'superseded'"
    )
    try:
        assert conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'superseded'").fetchone()[0] > 3
        for phrases in [('"alpha"', '"gamma"'), ('"zeta"',), ('"eta"', '"words"', '"nothing"'), ('"nothing"',)]:
            match = " OR ".join(phrases)
            _best(conn, phrases, 5)  # the ranking reads the lists
            assert not _statements(conn, lambda m=match: fts.count_words(conn, m, superseded)), phrases
            assert fts.count_words(conn, match, superseded) == conn.execute(joined, (match,)).fetchone()[0], phrases
    finally:
        conn.close()


def test_a_server_filters_a_rankings_rows_by_lifecycle_in_memory_as_sql_does_and_follows_the_store(make_project):
    """``fts._passing`` in a server (lists enabled) leaves out the facts a lifecycle filter
    excludes from a set kept per store state, without a statement: the same rows as the SQL
    filter, for the default filter and for others; after a sync moves the store, the new state's."""
    greek = _GREEK.split()
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\n{' '.join(greek[i % 7 : i % 7 + 5])} words.\n" for i in range(12)}
    project = make_project(files, name="lifecycles")
    resync(project)
    for i in range(0, 12, 3):
        path = project.root / f"docs/n{i:02d}.md"
        path.write_text(path.read_text(encoding="utf-8").replace("words", "new words"), encoding="utf-8")
    resync(project)
    conn = connect(project.db_path)

    def sql(ids: list[int], lifecycles: tuple[str, ...]) -> set[int]:
        marks = ",".join("?" * len(lifecycles))
        rows = conn.execute(f"SELECT id FROM facts WHERE lifecycle IN ({marks})", lifecycles)
        return {row[0] for row in rows} & set(ids)

    def filtering(work) -> list[str]:  # the statements that filter the ids
        return _statements(conn, work, "f.id IN")

    try:
        ids = [row[0] for row in conn.execute("SELECT id FROM facts ORDER BY id DESC")]
        assert len(sql(ids, ("superseded",))) >= 4
        for lifecycles in [("active",), ("superseded",), ("active", "superseded"), ("active", "superseded", "retired")]:
            filters = fts.Filters(lifecycles=lifecycles)
            assert not filtering(lambda f=filters: fts._passing(conn, ids, f)), lifecycles
            assert fts._passing(conn, ids, filters) == sql(ids, lifecycles), lifecycles
        typed = fts.Filters(types=("doc",))  # other filters: SQL
        assert filtering(lambda: fts._passing(conn, ids, typed))
        postings.enable(False)  # a one-shot command: SQL, no set kept
        assert filtering(lambda: fts._passing(conn, ids, fts.Filters()))
        postings.enable()
        path = project.root / "docs/n01.md"
        path.write_text(path.read_text(encoding="utf-8").replace("words", "newer words"), encoding="utf-8")
        resync(project)
        ids = [row[0] for row in conn.execute("SELECT id FROM facts ORDER BY id DESC")]
        assert fts._passing(conn, ids, fts.Filters()) == sql(ids, ("active",))
    finally:
        conn.close()


def test_the_warm_up_reads_a_store_named_by_a_relative_path(store, monkeypatch):
    """A server started on a project by a relative root (`--project .`, or a `Project(root=Path("."))`
    as tests/test_docs.py builds, in a checkout where `make demo` left its store) warms from
    ``.kenning/kenning.db``: a relative path, which a ``file:`` URI cannot express unresolved."""
    project, _ = store
    monkeypatch.chdir(project.db_path.parent)
    task = postings.warm(project.db_path.name, WORDS.table, WORDS.scoring, from_rows=40)
    assert task is not None and task.done.wait(30)
    assert task.lists > 0 and task.postings == postings.cached_postings() > 0
