"""Quoted text in a question is required (search/quoted.py): as a phrase of the word index, and as
typed when it holds more than words; a note says so, and when nothing holds it the question is
searched without it, saying that too. The same on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_project
from kenning.search.quoted import spans
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

HANDLES = {
    f"docs/handles{n}.md": f"# Handles {n}\n\nEach file handle is handled here: a handled file, a file handle, "
    f"handled when the file is handled ({n}).\n"
    for n in range(4)
}
FILES = {
    **HANDLES,
    # "ignore" in its path only: the phrase's word, not the quoted text
    "ignore/walker.md": "# Walker\n\nThe walker handles each file it is handed; files are handled in order.\n",
    "docs/ignoring.md": "# Ignoring\n\nThe ignore rules of a file are handled first.\n",
    "docs/rules.md": "# Rules\n\nRules to ignore are handled in a file of their own.\n",
    "src/dirs.py": (
        'def collect_ignore_files(names):\n    """Which names are read."""\n'
        '    return [n for n in names if n == ".ignore"]\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "quotes")


def _paths(answer) -> list[str]:
    return [e.fact.locations[0].path for e in answer.excerpts]


def test_a_quoted_text_is_held_as_typed_by_every_excerpt_served(project):
    answer = ask_project(project, 'where is the ".ignore" file handled', now=NOW, limit=5)
    assert 'quoted text required: ".ignore"' in answer.notes, answer.notes
    assert _paths(answer) == ["src/dirs.py"], _paths(answer)  # not the pages that only say "handled"
    unquoted = ask_project(project, "where is the .ignore file handled", now=NOW, limit=5)
    assert len(_paths(unquoted)) == 5 and not [n for n in unquoted.notes if "quoted" in n]
    searched = search_project(project, '".ignore"', SearchOptions(limit=5), now=NOW)
    assert _paths(searched) == ["src/dirs.py"], _paths(searched)


def test_quoted_words_are_a_phrase_in_their_order(project):
    answer = search_project(project, 'how are "ignore rules" handled', SearchOptions(limit=5), now=NOW)
    assert _paths(answer) == ["docs/ignoring.md"], _paths(answer)  # not "rules to ignore", nor ignore/walker.md
    curly = search_project(project, "how are “ignore rules” handled", SearchOptions(limit=5), now=NOW)
    assert _paths(curly) == ["docs/ignoring.md"], _paths(curly)


def test_a_quoted_text_nothing_holds_is_a_note_not_an_empty_answer(project):
    answer = ask_project(project, 'where is "no such words" handled', now=NOW, limit=3)
    assert 'no excerpt holds the quoted text "no such words": searched without requiring it' in answer.notes
    assert len(answer.excerpts) == 3, _paths(answer)


def test_a_quoted_text_held_only_as_its_words_requires_its_words(project):
    # the code's keywords hold "collect ignore files"; no text holds "collect.ignore" as typed
    answer = search_project(project, 'where is "collect.ignore" handled', SearchOptions(limit=5), now=NOW)
    assert (
        'no excerpt holds the quoted text "collect.ignore" as typed: its words, in that order, required' in answer.notes
    ), answer.notes
    assert _paths(answer) == ["src/dirs.py"], _paths(answer)


def test_the_quoted_spans_of_a_question():
    assert spans('a "b" “c  d” «e» "" "..." "b" `f`') == ["b", "c d", "e"]
    assert spans("no quotes, it's fine") == []
