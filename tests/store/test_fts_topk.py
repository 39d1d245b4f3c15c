"""The pruned top-k of store/fts_topk.py returns exactly what the plain query returns: the same
rows, in the same order, with the same scores, on many generated queries; and it steps aside
(one plain statement) whenever pruning does not apply."""

from __future__ import annotations

import random
import re
import sqlite3
from itertools import combinations

import pytest

from conftest import module_home, resync
from kenning.search import lexical
from kenning.store import fts
from kenning.store import fts_topk as topk
from kenning.store.db import connect

WORDS = fts.word_index(lexical.WEIGHTS)
TRIGRAMS = fts.trigram_index()
VOCABULARY = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
    "cache",
    "index",
    "query",
    "token",
    "graph",
    "node",
    "edge",
    "stale",
    "source",
    "parser",
    "section",
    "schema",
    "trigger",
    "budget",
    "router",
    "fusion",
    "ranking",
] + [f"rare{i:03d}" for i in range(160)]  # Zipf-like: a few words everywhere, most rare


def _zipf_words(rng: random.Random, n: int) -> list[str]:
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(VOCABULARY))]
    return rng.choices(VOCABULARY, weights=weights, k=n)


def _corpus(seed: int = 3, files: int = 140) -> dict[str, str]:
    rng = random.Random(seed)
    out = {}
    for i in range(files):
        parts = [f"# {' '.join(_zipf_words(rng, 2))} {i}\n"]
        for _ in range(6):
            parts.append(f"\n## {' '.join(_zipf_words(rng, rng.randint(1, 3)))}\n\n")
            parts.append(" ".join(_zipf_words(rng, rng.randint(3, 30))) + ".\n")
        out[f"docs/d{i % 7}/n{i:03d}.md"] = "".join(parts)
    # Ties: excerpts alike but for one word no query uses, so several share each score.
    for i in range(12):
        out[f"ties/t{i:02d}.md"] = f"# Tie x{i}\n\nomega psi chi filler{i} words here.\n"
    return out


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory):
    from kenning.config import init_project

    root = tmp_path_factory.mktemp("topk") / "corpus"
    for rel, text in _corpus().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    with module_home(tmp_path_factory):
        project, _ = init_project(root, "topk")
        resync(project)
    connection = connect(project.db_path)
    yield connection
    connection.close()


def _queries(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        words = rng.sample(VOCABULARY[:44], rng.randint(1, 3)) + rng.sample(VOCABULARY, rng.randint(1, 2))
        queries.append(" OR ".join(f'"{w}"' for w in dict.fromkeys(words)))
    return queries


def _statements(conn: sqlite3.Connection, work) -> list[str]:
    """The ranking statements ``work`` ran (SQL with its parameters, as SQLite traced it)."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        work()
    finally:
        conn.set_trace_callback(None)
    return [s for s in seen if "bm25(" in s]


def _scored(conn: sqlite3.Connection, statements: list[str]) -> int:
    """How many rows these ranking statements scored (each rerun as a count)."""
    total = 0
    for sql in statements:
        counting = re.sub(r"SELECT rowid, bm25\([^)]*\) AS s FROM", "SELECT count(*) FROM", sql, count=1)
        total += conn.execute(re.sub(r" ORDER BY s, rowid LIMIT \d+$", "", counting)).fetchone()[0]
    return total


PLANS = {
    "as tuned": {},
    "a statement per subset, NOT in FTS5": {"SMALL_SET": -1, "EXCLUDE_BY_QUERY": 10**9},
    "a statement per subset, NOT in SQL": {"SMALL_SET": -1, "EXCLUDE_BY_QUERY": 0},
    "subsets grouped by first phrase, NOT in FTS5": {"SMALL_SET": 10**9, "EXCLUDE_BY_QUERY": 10**9},
    "subsets grouped by first phrase, NOT in SQL": {"SMALL_SET": 10**9, "EXCLUDE_BY_QUERY": 0},
}


@pytest.mark.parametrize("shape", PLANS)
def test_the_pruned_top_k_equals_the_plain_query_on_hundreds_of_generated_queries(conn, monkeypatch, shape):
    for name, value in PLANS[shape].items():
        monkeypatch.setattr(topk, name, value)
    queries = _queries(120, seed=len(shape))
    pruned = excluded_in_sql = grouped = gave_up = 0
    for match in queries:
        for k in (1, 7, 40):
            expected = topk.plain(conn, WORDS, match, k)
            got = topk.best(conn, WORDS, match, k)
            assert got == expected, (match, k)  # same rows, same order, bit-identical scores
        statements = _statements(conn, lambda m=match: topk.best(conn, WORDS, m, 5))
        matching = conn.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (match,)).fetchone()[0]
        pruned += _scored(conn, statements) < matching
        excluded_in_sql += any(" NOT IN (" in s for s in statements)
        grouped += any('" AND ("' in s for s in statements)
        gave_up += len(statements) > 1 and f"MATCH '{match}' ORDER BY" in statements[-1]  # the plain query
    # Not a vacuous comparison: many queries left rows unscored, and the plan took its shape.
    assert pruned >= len(queries) // 4
    if not PLANS[shape]:
        assert gave_up  # some ran the plain query once the single-phrase subsets were most rows
    if PLANS[shape]:
        assert bool(excluded_in_sql) == (PLANS[shape]["EXCLUDE_BY_QUERY"] == 0)
        assert bool(grouped) == (PLANS[shape]["SMALL_SET"] > 0)


def test_a_subset_expression_scores_its_rows_as_the_disjunction_does(conn):
    phrases = ('"cache"', '"index"', '"alpha"')
    whole = dict(
        conn.execute(
            f"SELECT rowid, {WORDS.scoring} FROM facts_fts WHERE facts_fts MATCH ?", (" OR ".join(phrases),)
        ).fetchall()
    )
    seen: dict[int, float] = {}
    for size in (1, 2, 3):
        for subset in combinations(range(3), size):
            rows = conn.execute(
                f"SELECT rowid, {WORDS.scoring} FROM facts_fts WHERE facts_fts MATCH ?",
                (topk.exactly(phrases, subset),),
            ).fetchall()
            for rowid, score in rows:
                assert rowid not in seen  # each row holds exactly one subset
                seen[rowid] = score
    assert seen == whole  # the subsets cover every row, with bit-identical scores


def test_ties_at_the_cut_are_broken_by_the_lower_rowid_as_in_the_plain_query(conn):
    match = '"omega" OR "psi" OR "chi"'
    full = topk.plain(conn, WORDS, match, 10_000)
    scores = [s for _, s in full]
    tied_cuts = [k for k in range(1, len(full)) if scores[k - 1] == scores[k]]
    assert tied_cuts  # the corpus has ties right at some cut
    for k in tied_cuts:
        assert topk.best(conn, WORDS, match, k) == full[:k]


@pytest.mark.parametrize(
    "match",
    [
        '"cache"',  # one phrase
        "cache*",  # a prefix query (--syntax fts)
        '"cache" AND "index"',  # not a disjunction
        '"cache" OR "index" NOT "alpha"',
        "NEAR(cache index)",
        '{title}: "cache" OR "index"',
        " OR ".join(f'"{w}"' for w in VOCABULARY[: topk.MAX_PHRASES + 1]),  # too many phrases
    ],
)
def test_expressions_that_are_not_a_short_disjunction_of_phrases_run_the_plain_query(conn, match):
    statements = _statements(conn, lambda: topk.best(conn, WORDS, match, 5))
    assert len(statements) == 1
    assert topk.best(conn, WORDS, match, 5) == topk.plain(conn, WORDS, match, 5)


def test_a_query_with_few_matches_runs_the_plain_query(conn):
    match = '"filler3" OR "filler4"'
    assert len(_statements(conn, lambda: topk.best(conn, WORDS, match, 5))) == 1


def test_inside_a_transaction_the_plain_query_runs(conn):
    match = '"cache" OR "index" OR "alpha"'
    conn.execute("BEGIN")
    try:
        statements = _statements(conn, lambda: topk.best(conn, WORDS, match, 5))
        assert conn.in_transaction
    finally:
        conn.execute("ROLLBACK")
    assert len(statements) == 1


def test_phrases_no_row_holds_and_repeated_phrases_change_nothing(conn):
    for index, match in (
        (WORDS, '"cache" OR "zzzzunknown" OR "index"'),
        (WORDS, '"cache" OR "cache" OR "index"'),
        (WORDS, '"zzzzunknown" OR "qqqqunknown"'),
        (WORDS, '"" OR "cache" OR "-" OR "index"'),
        (TRIGRAMS, '"ab" OR "ache" OR "ndex"'),
    ):
        for k in (0, 1, 7, 40, 10_000):
            assert topk.best(conn, index, match, k) == topk.plain(conn, index, match, k)


def test_the_pruned_path_leaves_no_transaction_open(conn):
    topk.best(conn, WORDS, '"cache" OR "index" OR "alpha"', 5)
    assert not conn.in_transaction


def test_phrases_are_read_only_from_a_plain_disjunction_of_quoted_strings():
    assert topk.phrases_of('"a" OR "b c" OR "d""e"') == ('"a"', '"b c"', '"d""e"')
    assert topk.phrases_of('"a"" OR ""b"') == ('"a"" OR ""b"',)
    assert topk.phrases_of('"a" or "b"') is None
    assert topk.phrases_of('"a" OR b') is None
    assert topk.phrases_of('"a" OR "b" ') is None


def test_the_stored_row_count_is_the_number_of_indexed_rows(conn):
    facts = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
    assert topk.stored_row_count(conn, WORDS) == facts
    assert topk.stored_row_count(conn, TRIGRAMS) == facts
    assert topk._varint(bytes([0x05])) == 5
    assert topk._varint(bytes([0x83, 0xD4, 0x60])) == 60_000
    assert topk._varint(bytes([0xFF] * 8 + [0x01])) == (2**56 - 1) << 8 | 1
    assert topk._varint(bytes([0x80])) is None


def test_a_subset_bound_is_above_every_score_of_its_rows(conn):
    row_count = topk.stored_row_count(conn, WORDS)
    for word in VOCABULARY:
        phrase = f'"{word}"'
        bound = topk.bound(row_count, topk._count(conn, WORDS, phrase))
        top = topk.plain(conn, WORDS, phrase, 1)
        if top:
            assert -top[0][1] < bound


def _old_bm25(conn, match, filters, limit):
    """lexical.bm25 before the pruned top-k (the plain page, then the joined query)."""
    page = limit * fts.OVERFETCH
    ranked = topk.plain(conn, WORDS, match, page)
    kept = fts._passing(conn, [r[0] for r in ranked], filters)
    hits = [(r[0], -r[1]) for r in ranked if r[0] in kept]
    if len(hits) >= limit or len(ranked) < page:
        return hits[:limit]
    where, params = fts._where(filters)
    rows = conn.execute(
        f"SELECT f.id, {WORDS.scoring} AS s FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid "
        f"WHERE facts_fts MATCH ? AND {where} ORDER BY s, f.id LIMIT ?",
        (match, *params, limit),
    ).fetchall()
    return [(row[0], -row[1]) for row in rows]


def _old_trigram(conn, match, filters, limit):
    """lexical.trigram before: the joined query alone."""
    where, params = fts._where(filters)
    rows = conn.execute(
        "SELECT f.id, bm25(facts_trigram, 4.0, 1.0) AS s FROM facts_trigram "
        "JOIN facts f ON f.id = facts_trigram.rowid "
        f"WHERE facts_trigram MATCH ? AND {where} ORDER BY s, f.id LIMIT ?",
        (match, *params, limit),
    ).fetchall()
    return [(row[0], -row[1]) for row in rows]


FILTER_SETS = [
    lexical.Filters(),
    lexical.Filters(types=("doc",)),
    lexical.Filters(path_prefix="docs/d3/"),  # most of a page filtered out: the joined query
    lexical.Filters(path_prefix="ties/"),
    lexical.Filters(lifecycles=("superseded",)),  # none pass
]


def test_filters_give_the_same_hits_as_before(conn):
    joined = 0
    for match in _queries(40, seed=5):
        for filters in FILTER_SETS:
            for limit in (3, 20):
                got: list = []
                ran = _statements(
                    conn, lambda m=match, f=filters, n=limit, out=got: out.extend(lexical.bm25(conn, m, f, n))
                )
                assert got == _old_bm25(conn, match, filters, limit)
                joined += any("JOIN facts f" in s for s in ran)
    assert joined  # the exact joined query did run for some


def test_the_trigram_index_gives_the_same_hits_as_before_pruned_or_not(conn):
    pruned = 0
    for match in [*_queries(60, seed=8), '"ection"', '"mega" OR "ection"', '"ache" OR "ndex" OR "lph"']:
        for k in (1, 20):
            assert topk.best(conn, TRIGRAMS, match, k) == topk.plain(conn, TRIGRAMS, match, k)
        pruned += len(_statements(conn, lambda m=match: topk.best(conn, TRIGRAMS, m, 5))) > 1
        for filters in FILTER_SETS:
            for limit in (3, 20):
                assert lexical.trigram(conn, match, filters, limit) == _old_trigram(conn, match, filters, limit)
    assert pruned


def test_a_negative_column_weight_runs_the_plain_query(conn):
    negative = topk.Index("facts_fts", "bm25(facts_fts, -2.0, 1.5, 1.2, 1.0)")
    match = '"cache" OR "index" OR "alpha"'
    assert len(_statements(conn, lambda: topk.best(conn, negative, match, 5))) == 1
    assert topk.best(conn, negative, match, 5) == topk.plain(conn, negative, match, 5)
    assert topk.bounded(WORDS.scoring) and topk.bounded(TRIGRAMS.scoring)
    assert not topk.bounded("rank")


def test_a_query_of_common_phrases_only_runs_the_plain_query(conn):
    match = '"alpha" OR "alphas" OR "beta"'  # in most rows ("alphas" stems like "alpha")
    counts = [topk._count(conn, WORDS, p) for p in topk.phrases_of(match)]
    assert min(counts) * topk.COMMON_FROM >= topk.stored_row_count(conn, WORDS)
    assert len(_statements(conn, lambda: topk.best(conn, WORDS, match, 5))) == 1
    assert topk.best(conn, WORDS, match, 5) == topk.plain(conn, WORDS, match, 5)


def test_statements_costing_more_to_count_than_the_budget_give_way_to_the_plain_query(conn, monkeypatch):
    match = next(m for m in _queries(50) if len(_statements(conn, lambda m=m: topk.best(conn, WORDS, m, 5))) > 1)
    monkeypatch.setattr(topk, "OVERHEAD_SHARE", 0.0)
    assert len(_statements(conn, lambda: topk.best(conn, WORDS, match, 5))) == 1
    assert topk.best(conn, WORDS, match, 5) == topk.plain(conn, WORDS, match, 5)


def test_when_the_best_limit_pass_the_filters_only_they_are_checked(conn, monkeypatch):
    """The filters are checked on the best ``limit`` first: when all pass, the rest of the page
    ranked beside them is never read (most questions: every excerpt is active)."""
    checked: list[int] = []
    real = fts._passing

    def passing(connection, ids, filters):
        checked.extend(ids)
        return real(connection, ids, filters)

    monkeypatch.setattr(fts, "_passing", passing)
    full = 0
    for match in _queries(20, seed=7):
        expected = _old_bm25(conn, match, lexical.Filters(), 3)
        checked.clear()
        assert lexical.bm25(conn, match, lexical.Filters(), 3) == expected
        if len(expected) == 3:
            assert len(checked) == 3, match
            full += 1
    assert full
