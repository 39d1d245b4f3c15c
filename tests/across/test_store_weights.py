"""Across projects, each store's ranks weigh by how much the question's words belong to it
(``across.rank.weights``, CORI): a project whose excerpts say the question's words answers before
another's passing mention, where plain RRF put every store's first excerpt before any second."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.across.answers import ask_all, search_all, store_weights
from kenning.across.rank import K, shares, weights
from kenning.across.stores import OneShot
from kenning.answer.search import SearchOptions
from kenning.config import load_project
from kenning.registry import list_entries, register
from kenning.search.query import parse
from kenning.store.db import open_store

CACHE = {
    f"docs/cache{n}.md": (
        f"# Cache {n}\n\nThe cache eviction policy {n}: least recently used entries leave the cache first.\n"
    )
    for n in range(40)  # CORI weighs a word's excerpts against 50 + 150 × the store's relative size
}
OTHER = {
    "docs/notes.md": (
        "# Notes\n\nA word on the cache, once, among notes about deployment, logging and the release plan.\n"
    ),
    **{f"docs/deploy{n}.md": f"# Deploy {n}\n\nDeployment step {n} of the release plan.\n" for n in range(6)},
}
QUESTION = "how does the cache eviction policy work"


@pytest.fixture
def two(make_project, isolated_home):
    projects = {"cachelib": make_project(CACHE, name="cachelib"), "other": make_project(OTHER, name="other")}
    from conftest import resync

    for project in projects.values():
        resync(project)
        register(isolated_home, project.name, project.root)
    return isolated_home, projects


def test_the_project_the_question_is_about_answers_before_a_passing_mention(two):
    home, projects = two
    answer = ask_all(QUESTION, list_entries(home), now=NOW, limit=4, stores=OneShot(load_project), explain=True)
    owners = [e.fact.project for e in answer.excerpts]
    assert owners[:3] == ["cachelib"] * 3, owners  # plain RRF: cachelib, other, cachelib, cachelib
    found = search_all(
        list_entries(home), QUESTION, SearchOptions(limit=4, explain=True), now=NOW, stores=OneShot(load_project)
    )
    weight = {e.fact.project: e.explain["store_weight"] for e in found.excerpts}
    assert weight["cachelib"] == 1.0 and weight.get("other", 0.0) < 1.0
    assert any("CORI" in note for note in found.notes)


def test_a_store_weighs_by_the_question_words_it_holds(two):
    _, projects = two
    conns = [(p, open_store(p, read_only=True)) for p in projects.values()]
    try:
        weighed = store_weights(conns, parse(QUESTION).terms)
        assert weighed["cachelib"] == 1.0 and 0.0 < weighed["other"] < 1.0
        assert store_weights(conns, ()) == {"cachelib": 1.0, "other": 1.0}  # no word: plain RRF
        assert store_weights(conns, ("zzyzx",)) == {"cachelib": 1.0, "other": 1.0}  # held nowhere
    finally:
        for _, conn in conns:
            conn.close()


def test_weights_follow_cori():
    # "eviction" in one store of two, "cache" in both: the first store believes more
    weighed = weights({"a": (100, {"cache": 40, "eviction": 10}), "b": (100, {"cache": 5, "eviction": 0})})
    assert weighed["a"] == 1.0 and weighed["b"] < weighed["a"]
    assert weights({"a": (100, {"cache": 4}), "b": None}) == {"a": 1.0, "b": 1.0}  # unreadable: as the best
    assert weights({"a": (10, {}), "b": (10, {})}) == {"a": 1.0, "b": 1.0}


def test_shares_are_the_ranks_that_can_enter_the_merged_top():
    assert shares([1.0, 1.0], 4) == [2, 2]  # equal weights: plain RRF's share
    assert shares([1.0, 0.5], 3) == [3, 1]  # the second's first (0.5/61) passes none of the first's three
    low = 1.0 * (K + 1) / (K + 2) - 1e-9  # the second's first just under the first's second
    assert shares([1.0, low], 2) == [2, 1]
