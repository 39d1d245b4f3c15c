"""Across projects, a store's weight also says how much of the question its first excerpts hold
(``across.coverage``, ``rank.answered``): a project full of one common word of the question no
longer answers before the project whose first excerpt holds all of them."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.across.answers import ask_all, search_all
from kenning.across.coverage import words_of
from kenning.across.rank import SPREAD, answered
from kenning.across.stores import OneShot
from kenning.answer.search import SearchOptions
from kenning.config import load_project
from kenning.registry import list_entries, register

RIGHT = {
    "docs/tls.md": (
        "# Certificate verification\n\nWhere certificate verification is set up: the client's verify option "
        "takes a CA bundle.\n"
    ),
    **{f"docs/setup{n}.md": f"# Setup {n}\n\nSet option {n} before the client starts.\n" for n in range(6)},
}
# "certificate" in every excerpt of a larger store (its CORI belief is the higher), never
# "verification"; "settings" matches "set" in the word index (porter), not in the loose words its
# first excerpts are read for: the first one holds one of the question's three words, the next two.
CROWDED = {
    f"docs/mail{n}.md": f"# Mail server {n}\n\nThe certificate of mail server {n} is read from its settings file.\n"
    for n in range(80)
}
CROWDED["docs/mail-settings.md"] = (
    "# Certificate settings\n\nCertificate settings, certificate settings: the settings of each certificate.\n"
)
CROWDED["docs/certs.md"] = "# Certificates\n\nEach certificate is set by hand.\n"
QUESTION = "where is certificate verification set up"


@pytest.fixture
def stores(make_project, isolated_home):
    from conftest import resync

    for name, files in (("tlsdocs", RIGHT), ("mailer", CROWDED)):
        project = make_project(files, name=name)
        resync(project)
        register(isolated_home, project.name, project.root)
    return isolated_home


def test_words_are_compared_by_their_loose_forms():
    assert words_of(["resolve_redirects", "resolveRedirects", "Redirects followed", "a to"]) == {
        "resolve",
        "redirect",
        "follow",
    }
    assert words_of(["verification", "settings", "ssl"]) == {"verification", "setting", "ssl"}


def test_the_store_whose_first_excerpt_holds_the_question_answers_first(stores):
    answer = ask_all(QUESTION, list_entries(stores), now=NOW, limit=3, stores=OneShot(load_project))
    owners = [e.fact.project for e in answer.excerpts]
    assert owners[0] == "tlsdocs", owners  # by the CORI belief alone: mailer first
    assert "mailer" in owners  # the other store still answers beside it
    found = search_all(
        list_entries(stores), QUESTION, SearchOptions(limit=3, explain=True), now=NOW, stores=OneShot(load_project)
    )
    weight = {e.fact.project: e.explain["store_weight"] for e in found.excerpts}
    assert weight["tlsdocs"] == 1.0 and weight["mailer"] < 1.0
    assert any("first excerpts hold" in note for note in found.notes)


def test_a_weight_is_the_belief_times_one_plus_the_share_held_spread():
    assert answered({"a": 1.0, "b": 0.5}, {"a": 0.0, "b": 1.0}) == {"a": 1.0, "b": 1.0}
    weighed = answered({"a": 1.0, "b": 0.5}, {})
    assert weighed["a"] == 1.0 and weighed["b"] == pytest.approx(0.5**SPREAD)
    assert answered({"a": 0.0}, {}) == {"a": 1.0}  # nothing believed: every store alike


def test_asking_by_beliefs_then_again_gives_the_list_every_store_asked_for_the_limit_gives(stores):
    """The stores are first asked for their shares by belief (``coverage.DEPTH`` at least), then,
    once their first excerpts weighed them, again for the limit when their share grew: the list is
    the weighed RRF over every store asked for the limit."""
    from kenning.across.answers import answered_weights, store_weights
    from kenning.across.coverage import DEPTH
    from kenning.across.rank import fuse, shares
    from kenning.answer.search import search_project
    from kenning.search.query import parse
    from kenning.store.db import open_store

    projects = [load_project(e.path) for e in list_entries(stores)]
    conns = [(p, open_store(p, read_only=True)) for p in projects]
    terms = parse(QUESTION).terms
    grew = 0
    try:
        beliefs = store_weights(conns, terms)
        for limit in (1, 2, 3, 5, 8):
            options = SearchOptions(limit=limit, count_hidden=False)
            merged = search_all(list_entries(stores), QUESTION, options, now=NOW, stores=OneShot(load_project))
            deep = SearchOptions(limit=max(limit, DEPTH), count_hidden=False)
            weighed = answered_weights(
                beliefs, terms, [(p.name, search_project(p, QUESTION, deep, now=NOW)) for p in projects]
            )
            first = shares([beliefs[p.name] for p in projects], limit)
            final = shares([weighed[p.name] for p in projects], limit)
            grew += any(after > max(before, DEPTH) for before, after in zip(first, final, strict=True))
            whole = fuse([search_project(p, QUESTION, options, now=NOW) for p in projects], limit, weighed)
            assert [e.fact.citation for e in merged.excerpts] == [e.fact.citation for e in whole], limit
    finally:
        for _, conn in conns:
            conn.close()
    assert grew  # a store's share grew once it answered: it was asked again


def test_each_store_is_read_for_its_first_excerpts_even_when_asked_for_one(stores, monkeypatch):
    from kenning.across import coverage

    seen: list[int] = []
    real = coverage.coverage

    def counted(asked: set[str], excerpts) -> float:  # noqa: ANN001
        seen.append(len(excerpts))
        return real(asked, excerpts)

    monkeypatch.setattr(coverage, "coverage", counted)
    options = SearchOptions(limit=1, count_hidden=False)
    answer = search_all(list_entries(stores), QUESTION, options, now=NOW, stores=OneShot(load_project))
    assert len(answer.excerpts) == 1
    assert seen == [coverage.DEPTH, coverage.DEPTH]  # both stores hold more matches than that
