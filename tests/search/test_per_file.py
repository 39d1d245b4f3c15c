"""An answer to a question keeps room for other files: one file's excerpts past ``PER_FILE`` weigh
``FILE_REPEAT_FACTOR`` times the one before (``kenning ask``); ``kenning search`` keeps the
engine's order."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, module_store, resync
from kenning.answer.search import SearchOptions, search_conn
from kenning.search.query import parse
from kenning.search.weights import FILE_REPEAT_FACTOR, PER_FILE

# A page of notes whose every entry repeats the question's words, and the module that does the work,
# which says them once: on the words alone the notes fill the first page. (Not a changelog: its
# excerpts weigh half for such a question, test_history_docs.py.)
NOTES = "# Notes\n\n" + "\n\n".join(
    f"## 0.{n}.0\n\n- Proxy settings from environment variables: fix {n} for proxy environment variables.\n"
    for n in range(12)
)
UTILS = '''"""Helpers."""


def get_environment_proxies():
    """Return the proxy URLs the environment names (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY), keyed by
    URL pattern, skipping hosts listed in NO_PROXY and anything that does not parse, so that a
    client routes each request the way the shell around it would have routed it.
    """
    return {}
'''
QUESTION = "read proxy settings from environment variables"


def _files(answer: dict) -> list[str]:
    return [e["source"]["uri"].split("#")[0].split(":")[0] for e in answer["excerpts"]]


def test_ask_shows_another_file_where_search_shows_one(make_project, cli):
    project = make_project({"NOTES.md": NOTES, "src/utils.py": UTILS})
    resync(project)
    root = str(project.root)
    searched = cli("search", QUESTION, "--json", "--limit", "5", "--project", root).json()
    assert _files(searched) == ["NOTES.md"] * 5  # the engine's order: the notes, page after page
    asked = cli("ask", QUESTION, "--json", "--limit", "5", "--explain", "--project", root).json()
    files = _files(asked)
    assert files[:2] == ["NOTES.md"] * 2 and "src/utils.py" in files
    weighed = [e for e in asked["excerpts"] if "file_repeat" in e["explain"].get("factors", {})]
    assert weighed and all(e["source"]["uri"].startswith("NOTES.md") for e in weighed)
    third = weighed[0]["explain"]
    assert third["factors"]["file_repeat"] == FILE_REPEAT_FACTOR
    text = cli("ask", QUESTION, "--limit", "5", "--explain", "--project", root).out
    assert "file repeat 0.5" in text


WORDS = ("redirect", "timeout", "cookie", "header", "proxy", "stream", "encode", "retry", "pool", "auth")


def _corpus(seed: int = 7) -> dict[str, str]:
    """Modules of many short sections each (a long changelog, a test module), a few docs."""
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for m in range(6):
        sections = "\n\n".join(
            f"## Entry {m}.{s}\n\n" + " ".join(rng.choice(WORDS[:4] if m < 3 else WORDS) for _ in range(8)) + "."
            for s in range(15)
        )
        files[f"docs/log{m}.md"] = f"# Log {m}\n\n{sections}\n"
    for d in range(8):
        files[f"docs/guide{d}.md"] = f"# Guide {d}\n\n" + " ".join(rng.choice(WORDS) for _ in range(30)) + ".\n"
    return files


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    with module_store(tmp_path_factory, _corpus()) as store:
        yield store


def _ranked(project, conn, query: str, limit: int, per_file: int) -> list[tuple[int, float, str]]:
    options = SearchOptions(limit=limit, per_file=per_file)
    answer = search_conn(conn, project, parse(query), options, now=NOW)
    return [(e.fact.id, e.score, e.fact.source.uri.split("#")[0]) for e in answer.excerpts]


QUERIES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
TOO_MANY = st.integers(min_value=1, max_value=40)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES, limit=TOO_MANY)
def test_the_top_k_of_a_larger_limit_is_the_answer_of_limit_k(crowded, query, limit):
    project, conn = crowded
    larger = _ranked(project, conn, query, 60, PER_FILE)
    assert _ranked(project, conn, query, limit, PER_FILE) == larger[:limit]
    scores = [score for _, score, _ in larger]
    assert scores == sorted(scores, reverse=True)  # best first, weights included


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES)
def test_a_files_first_excerpt_never_ranks_lower_and_none_holds_more_than_its_share(crowded, query):
    project, conn = crowded
    plain = _ranked(project, conn, query, 60, 0)
    weighed = _ranked(project, conn, query, 60, PER_FILE)

    def first(ranking):
        seen: dict[str, int] = {}
        for rank, (_, _, path) in enumerate(ranking):
            seen.setdefault(path, rank)
        return seen

    before, after = first(plain), first(weighed)
    assert all(after[path] <= rank for path, rank in before.items())


def test_the_corpus_crowds_a_page_with_one_file(crowded):
    """The properties above are not vacuous: without the weights one file holds more than
    ``PER_FILE`` of a first page of ten, with them another file's excerpt takes a place."""
    project, conn = crowded
    plain = _ranked(project, conn, "redirect timeout", 10, 0)
    weighed = _ranked(project, conn, "redirect timeout", 10, PER_FILE)
    paths = [path for _, _, path in plain]
    assert max(paths.count(p) for p in paths) > PER_FILE
    assert {path for _, _, path in weighed} > {path for _, _, path in plain}
