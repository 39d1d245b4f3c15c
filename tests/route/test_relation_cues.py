"""One table of relation words (route/relations.py) feeds the router and the answer layer: every
question the router sends to the graph names a relation the answer layer walks, every relation
the answer layer walks is reached by the router, in English and in French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kenning.answer.relations import NEIGHBOURS, RELATIONS, relation_of
from kenning.route.examples import EXAMPLES
from kenning.route.relations import RELATION_CUES
from kenning.route.rules import RULES, fold, route

QUESTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "relations_project" / "questions.jsonl"
WALKED = {
    "path",
    "tested",
    "tests",
    "callees",
    "callers",
    "dependencies",
    "evidence",
    "decisions",
    "touches",
    "dependents",
    "subclasses",
    "superclasses",
    "neighbours",
}


def cued(question: str) -> list[str]:
    """The relations whose cue the question carries (the answer layer takes the first)."""
    return [r.name for r in RELATIONS if r.cue.search(fold(question))]


def shown() -> list[tuple[str, str, str]]:
    return [
        (r.name, lang, cue)
        for r in RELATION_CUES
        for lang, cues in (("en", r.shown_en), ("fr", r.shown_fr))
        for cue in cues
    ]


@pytest.mark.parametrize(("relation", "lang", "cue"), shown(), ids=[f"{r}:{c}" for r, _, c in shown()])
def test_each_shown_cue_routes_to_the_graph_and_picks_its_own_relation(relation, lang, cue):
    question = cue.replace("X", "make_snippet")
    assert route(question).rule == "relation", question
    assert relation_of(question).name == relation, question


def test_every_relation_the_answer_layer_walks_is_reached_by_the_router_in_both_languages():
    assert [r.name for r in RELATIONS] == [r.name for r in RELATION_CUES]
    assert {r.name for r in RELATIONS} == WALKED and NEIGHBOURS.name == "neighbours"
    for cues in RELATION_CUES:
        assert cues.shown_en and cues.shown_fr, cues.name
    relation_rule = next(r for r in RULES if r.name == "relation")
    assert set(relation_rule.cues_en) == {c for r in RELATION_CUES for c in r.shown_en}
    assert set(relation_rule.cues_fr) == {c for r in RELATION_CUES for c in r.shown_fr}


def example_questions() -> list[tuple[str, str]]:
    rows = [(q, rule) for q, _, rule in EXAMPLES]
    rows += [(row["question"], row["rule"]) for row in map(json.loads, QUESTIONS.read_text().splitlines())]
    return rows


@pytest.mark.parametrize(("question", "rule"), example_questions(), ids=[q for q, _ in example_questions()])
def test_a_question_is_routed_to_the_graph_exactly_when_the_answer_layer_finds_a_relation_in_it(question, rule):
    """The router's table and the answer layer's agree both ways on the examples: a relation
    question carries a cue the answer layer knows (it is not walked as a stand-in
    ``neighbours``), and no other question carries one."""
    assert route(question).rule == rule
    if rule == "relation":
        assert cued(question), question
    else:
        assert cued(question) == [], question


def test_words_a_relation_cue_must_not_catch():
    for question in (
        "what are the active decisions",
        "what do I need to know before working here",
        "what does kenning use for full text search",
        "why is the search slow",
        "pourquoi la recherche est-elle lente",
        "what does search_conn return",
        "which python versions and dependencies are needed to install",  # bench/questions/flask.jsonl
        "quelles dépendances faut-il installer",
        "how to contribute and run the tests",  # bench/questions/flask.jsonl
        "test views with the test client",  # bench/questions/flask.jsonl
        "show the usage of the command line",
        "which words are used most in the docs",
        "what does kenning use to rank results",  # "use" with an object: a question in words
        "which component shows a poll",  # elk, walked: a component asked by what it shows, in words
        "which component renders the timeline",
        "quel composant affiche un sondage",
    ):
        assert cued(question) == [], question
        assert route(question).rule != "relation", question


def test_an_adr_asked_for_is_a_decisions_question_and_the_word_alone_is_not():
    """In a project about ADRs (log4brains, walked) the word names the thing the docs and code are
    about: "how do I write my first ADR" asks for the README, not for the project's decisions."""
    for question in (
        "which ADR covers caching",
        "is there an ADR on logging",
        "ADRs about authentication",
        "the ADR that decided the database",
        "ADRs",
        "les ADR sur le cache",
        "quels sont les ADR concernant la base",
        "l'ADR sur la journalisation",
    ):
        assert cued(question) == ["decisions"], question
    for question in (
        "How do I install log4brains and start writing my first ADR?",
        "In a monorepo, where should package-specific ADRs live versus global ADRs?",
        "Which function turns an ADR title into its date-prefixed slug?",
        "what does the build write besides adrs.json",
        "pourquoi les fichiers ADR sont nommés avec une date ?",
    ):
        assert "decisions" not in cued(question), question
