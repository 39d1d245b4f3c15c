"""Each cue table of the router is searched once for a question that holds none of its cues
(``Cues.any``: their alternation), and a question that holds one still gets the first cue in
the table's order, as the table read cue by cue gives it (docs/router.md: the first cue wins)."""

from __future__ import annotations

import pytest

from kenning.route import rules
from kenning.route.examples import EXAMPLES
from kenning.route.relations import RELATION_CUES

TABLES = {"relation": rules._RELATION, "frame": rules._FRAME, "freshness": rules._FRESHNESS}
SHOWN = [
    *rules.FRAME_EN,
    *rules.FRAME_FR,
    *rules.FRESHNESS_EN,
    *rules.FRESHNESS_FR,
    *(cue.replace("X", "the parser") for r in RELATION_CUES for cue in (*r.shown_en, *r.shown_fr)),
]
QUESTIONS = [
    *SHOWN,
    *(question for question, _, _ in EXAMPLES),
    "what calls the parser and which tests cover it, is it stale",
    "how is the cache linked to the store, what changed since Monday",
    "p53 mutations in 7-day-old mice",
    "Quelles sont les conventions ? Qu'est-ce qui a changé depuis hier",
    "",
]


def first_cue(patterns: tuple, question: str) -> str | None:
    """The table read cue by cue, in its order: the first that the folded question holds."""
    folded = rules.fold(question)
    for pattern in patterns:
        match = pattern.search(folded)
        if match:
            return match.group(0)
    return None


@pytest.mark.parametrize("table", list(TABLES))
def test_a_table_gives_its_first_cue_in_order(table):
    patterns = TABLES[table]
    for question in QUESTIONS:
        assert rules._cue(patterns, question) == first_cue(patterns, question), question
        assert (patterns.any.search(rules.fold(question)) is None) == (first_cue(patterns, question) is None)


def test_a_question_without_cues_is_searched_once_a_table(monkeypatch):
    searched = []

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, text):
            searched.append(self.pattern.pattern)
            return self.pattern.search(text)

    for name in ("_RELATION", "_FRAME", "_FRESHNESS"):
        table = getattr(rules, name)
        counted = rules.Cues(Counted(p) for p in table)
        counted.any = Counted(table.any)
        monkeypatch.setattr(rules, name, counted)
    route = rules.route("0-dimensional biomaterials show inductive properties", core_fits=True)
    assert route.rule == "default"
    assert len(searched) == 3  # one search a table (relation, frame, freshness), not one a cue


def test_a_table_compiles_its_cues_one_by_one_only_when_its_alternation_matches():
    table = rules.Cues(("alpha", r"beta(?:s)?"))
    assert rules._cue(table, "nothing of the table here") is None
    assert "_compiled" not in vars(table)  # one alternation searched, no cue compiled alone
    assert rules._cue(table, "two Betas and an alpha") == "alpha"  # the table's order, not the text's
    assert "_compiled" in vars(table)
