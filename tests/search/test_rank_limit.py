"""The order of an answer does not depend on --limit: the top k of `--limit 50` is the answer
of `--limit k`, under every ranking feature (test-file weight, definition boost, freshness)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, module_store, resync
from kenning.answer.search import SearchOptions, search_conn
from kenning.search import ranker
from kenning.search.query import parse
from kenning.store.db import connect

WORDS = (
    "redirect",
    "timeout",
    "cookie",
    "header",
    "proxy",
    "stream",
    "encode",
    "retry",
    "pool",
    "auth",
    "request",
    "response",
    "socket",
    "cache",
    "decode",
    "charset",
    "verify",
    "certificate",
    "limit",
    "event",
)
NAMES = ("send_redirect", "read_timeout", "merge_cookies", "build_header", "open_stream", "retry_after")


def _corpus(seed: int = 13) -> dict[str, str]:
    """Source modules defining functions (longer docstrings), test modules whose short tests
    repeat a few common words (they outscore the code on BM25 alone), a few docs."""
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for m in range(12):
        funcs = []
        for f in range(4):
            name = NAMES[(m * 4 + f) % len(NAMES)] + ("" if m < 2 else f"_{m}{f}")
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 30)))
            funcs.append(f'def {name}(value):\n    """{words}."""\n    return value\n')
        files[f"src/pkg/mod{m}.py"] = "\n\n".join(funcs)
    for m in range(12):
        tests = []
        for f in range(20):
            word = rng.choice(WORDS[:5] if rng.random() < 0.6 else WORDS)
            tests.append(f'def test_case_{m}_{f}():\n    """{word} {word} {rng.choice(WORDS)}."""\n    assert True\n')
        files[f"tests/test_mod{m}.py"] = "\n\n".join(tests)
    for d in range(6):
        paras = "\n\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 30))) + "." for _ in range(5))
        files[f"docs/guide{d}.md"] = f"# Guide {d}\n\n{paras}\n"
    return files


@pytest.fixture(scope="module")
def corpus_conn(tmp_path_factory):
    with module_store(tmp_path_factory, _corpus()) as store:
        yield store


def _ranked(project, conn, query: str, limit: int) -> list[tuple[int, float]]:
    answer = search_conn(conn, project, parse(query), SearchOptions(limit=limit), now=NOW)
    return [(e.fact.id, e.score) for e in answer.excerpts]


QUERIES = st.lists(st.sampled_from(WORDS + NAMES + ("test",)), min_size=1, max_size=3).map(" ".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES, limit=st.integers(min_value=1, max_value=50))
def test_the_top_k_of_a_larger_limit_is_the_answer_of_limit_k(corpus_conn, query, limit):
    project, conn = corpus_conn
    larger = _ranked(project, conn, query, 50)
    assert _ranked(project, conn, query, limit) == larger[:limit]


def test_the_corpus_makes_the_features_reorder_beyond_the_first_page(corpus_conn):
    """The property above is not vacuous: for a plain word, code outranks test functions
    that score higher on BM25 alone: some excerpts served come from beyond the first 20 BM25 hits."""
    project, conn = corpus_conn
    answer = search_conn(conn, project, parse("proxy"), SearchOptions(limit=10, explain=True), now=NOW)
    assert any(e.fact.source.uri.startswith("src/") for e in answer.excerpts)
    ranks = [e.explain["bm25_rank"] for e in answer.excerpts]
    assert ranks != list(range(1, 11)) and max(ranks) > 20  # test functions passed over


REDIRECT_CODE = '''"""The client."""


class Client:
    def _send_handling_redirects(self, request, follow_redirects):
        """Send a request, following redirects while the response asks for them.

        Each of the redirects is checked against max_redirects; too many redirects raise
        TooManyRedirects. Redirects across origins drop the Authorization header.
        """
        history = []
        while True:
            response = self._send_single_request(request)
            if not response.has_redirect_location or not follow_redirects:
                return response
            history.append(response)
'''


def _redirect_tests() -> str:
    return "\n\n".join(
        f'def test_redirects_{i}():\n    """redirects {i}."""\n    assert redirects({i})\n' for i in range(30)
    )


def test_search_redirects_keeps_the_code_first_at_every_limit(make_project, cli):
    project = make_project({"src/client.py": REDIRECT_CODE, "tests/test_redirects.py": _redirect_tests()})
    resync(project)
    orders = {}
    for limit in (1, 3, 5, 10, 20, 50):
        answer = cli("search", "redirects", "--json", "--limit", str(limit), "--project", str(project.root)).json()
        orders[limit] = [e["source"]["uri"] for e in answer["excerpts"]]
    assert orders[1] == ["src/client.py:5-16"]
    for limit, uris in orders.items():
        assert uris == orders[50][:limit], limit


@pytest.mark.parametrize("query", ["cache stream", "cacheStream stream"])  # a code name, in a store without code
def test_an_answer_reads_about_the_facts_it_serves_not_the_whole_pool(make_project, monkeypatch, query):
    rng = random.Random(5)
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\n{' '.join(rng.choices(WORDS[:14], k=40))}.\n" for i in range(60)}
    project = make_project(files)
    resync(project)
    read: list[int] = []
    facts = ranker.fact_store
    real = facts.get_many
    monkeypatch.setattr(facts, "get_many", lambda conn, name, ids: read.extend(ids) or real(conn, name, ids))
    conn = connect(project.db_path)
    try:
        answer = search_conn(conn, project, parse(query), SearchOptions(limit=5), now=NOW)
        assert len(answer.excerpts) == 5
        assert len(read) == 5  # every fact serves: the first chunk, and the 6th hit's bound closes it
        everything = search_conn(conn, project, parse(query), SearchOptions(limit=60), now=NOW)
        assert [e.fact.id for e in answer.excerpts] == [e.fact.id for e in everything.excerpts][:5]
    finally:
        conn.close()
