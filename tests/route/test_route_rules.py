"""The router as a table: every example routes to its expected mode and rule."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kenning.route.examples import EXAMPLES
from kenning.route.rules import RULES, fold, route, table_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "router.md"
FRENCH = re.compile(r"[àâçéèêëîïôûùœ«]|\b(qu|quel|quelle|quelles|comment|pourquoi|est|les|des|la|le)\b")


@pytest.mark.parametrize(("question", "mode", "rule"), EXAMPLES, ids=[q for q, _, _ in EXAMPLES])
def test_each_example_routes_to_its_expected_mode_and_rule(question, mode, rule):
    got = route(question)
    assert (got.mode, got.rule) == (mode, rule), got.reason


def test_the_table_has_at_least_forty_questions_in_english_and_french_covering_every_rule():
    assert len(EXAMPLES) >= 40
    french = [q for q, _, _ in EXAMPLES if FRENCH.search(q.lower())]
    assert len(french) >= 15 and len(EXAMPLES) - len(french) >= 15
    assert {rule for _, _, rule in EXAMPLES} == {r.name for r in RULES}
    assert {rule for q, _, rule in EXAMPLES if FRENCH.search(q.lower())} == {r.name for r in RULES}


def test_spec_section_9_examples_are_in_the_table():
    spec = {
        ("where is rrf_fuse", "lexical"),
        ("which evidence touches this module", "graph"),
        ("what should I know here", "core"),
        ("what is stale", "freshness"),
        ("how does cross-project memory work", "lexical"),
    }
    assert spec <= {(q, m) for q, m, _ in EXAMPLES}


def test_the_default_rule_answers_hybrid_only_when_dense_is_installed():
    assert route("how does cross-project memory work", dense_available=True).mode == "hybrid"
    assert route("how does cross-project memory work").mode == "lexical"
    assert route("where is rrf_fuse", dense_available=True).mode == "lexical"


def test_the_frame_rule_gives_way_when_the_core_does_not_fit_its_budget():
    assert route("what are the conventions here", core_fits=False).rule == "default"
    assert route("what changed in the conventions", core_fits=False).rule == "freshness"


def test_routing_is_deterministic_and_names_its_reason():
    first = [route(q) for q, _, _ in EXAMPLES]
    assert first == [route(q) for q, _, _ in EXAMPLES]
    assert all(r.reason for r in first)


def test_hyphenated_words_and_french_elisions_are_not_identifiers():
    for question in (
        "how does cross-project memory work",
        "qu'est-ce que l'index",
        "peut-être plus tard",
        "e.g. what about notes",
    ):
        assert route(question).rule != "identifier", question


def test_every_rule_is_a_named_documented_entry():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))
    assert all(r.description.strip() and r.mode for r in RULES)
    assert RULES[-1].name == "default"


def test_docs_router_md_shows_the_rule_table_as_generated():
    text = DOC.read_text(encoding="utf-8")
    start, end = "<!-- rules:start -->\n", "<!-- rules:end -->"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    expected = head + start + table_markdown() + end + tail
    if os.environ.get("KENNING_UPDATE_GOLDEN"):
        DOC.write_text(expected, encoding="utf-8")
    assert text == expected, "docs/router.md drifted from RULES: rerun with KENNING_UPDATE_GOLDEN=1"


def test_every_documented_cue_routes_to_its_rule_on_its_own():
    for rule in RULES:
        for cue in (*rule.cues_en, *rule.cues_fr):
            if cue == "text in backticks":
                cue = "`text in backticks`"
            assert route(cue).rule == rule.name, (rule.name, cue)


def test_a_frame_question_whose_core_does_not_fit_says_so_in_the_default_rule():
    chosen = route("what should I know before working here", core_fits=False)
    assert chosen.rule == "default"
    assert "project frame" in chosen.reason and "budget" in chosen.reason


def test_a_relation_cue_wins_over_an_identifier_and_an_identifier_alone_stays_lexical():
    for question in (
        "what calls url_for",
        "qui appelle `Client.send`",
        "what depends on _config.py",
        "what does search_conn call",
        "qu'appelle search_conn",
        "which task touched src/a.py",
        'why did we pick "SQLite"',
        "quelles preuves touchent rrf_fuse",
        "who uses SearchOptions",
    ):
        assert route(question).rule == "relation", question
    for question in ("where is url_for", "what does search_conn return", "show me src/a.py", "how is parseIso used"):
        assert route(question).rule == "identifier", question


# A French question typed without accents, or without the apostrophe of "qu'est-ce", "qu'" and
# "c'est", routes as typed with them.
TYPED_PLAINLY = [
    ("qu'est-ce qui appelle parse_args", "quest-ce qui appelle parse_args"),
    ("qu'est-ce qui appelle parse_args", "qu est-ce qui appelle parse_args"),
    ("qu'appelle search_conn", "qu appelle search_conn"),
    ("qu'est-ce que httpx/_decoders.py importe", "quest-ce que httpx/_decoders.py importe"),
    ("qu'est-ce qui importe httpx/_api.py", "quest-ce qui importe httpx/_api.py"),
    ("qu'est-ce qui importe le plus", "quest-ce qui importe le plus"),  # what matters: no relation
    ("qui dépend de store/db.py", "qui depend de store/db.py"),
    ("quels tests couvrent DigestAuth", "quels tests couvrent DigestAuth"),
    ("où est utilisée create_ssl_context", "ou est utilisee create_ssl_context"),
    ("qu'est-ce qui est périmé", "quest-ce qui est perime"),
    ("qu'est-ce que la fraîcheur", "quest-ce que la fraicheur"),  # what it means: no freshness listing
    ("c'est quoi la fraîcheur d'un extrait", "cest quoi la fraicheur dun extrait"),
    ("c'est quoi la fraîcheur d'un extrait", "c est quoi la fraicheur d un extrait"),
    ("comment est calculée la fraîcheur", "comment est calculee la fraicheur"),
]


@pytest.mark.parametrize(("accented", "plain"), TYPED_PLAINLY, ids=[p for _, p in TYPED_PLAINLY])
def test_a_french_question_typed_without_accents_or_apostrophes_routes_as_typed_with_them(accented, plain):
    assert route(plain).mode == route(accented).mode and route(plain).rule == route(accented).rule


def test_english_words_beside_the_plain_french_forms_are_not_read_as_them():
    for text in ("the quest for a request estimate", "cest_value and conquest-ce", "objective-c estimates"):
        assert fold(text) == text.lower(), text
