"""A word typed with one slip is searched as the word the project writes (search/spelling.py)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "docs/blueprints.md": "# Registering a blueprint\n\nCall register_blueprint on the application with the "
    "blueprint object; its routes join the application's.\n",
    "docs/apps.md": "# Apps\n\nSeveral apps may share one process.\n",
    "docs/defaults.md": "# Default settings\n\nThe default timeout is five seconds.\n",
    "app/ranges.py": (
        "def parse_range(header):\n"
        '    """Parse an HTTP Range header into (start, end)."""\n'
        '    start, _, end = header.partition("-")\n'
        "    return int(start), int(end)\n"
    ),
    "app/units.py": "def to_bytes(value):\n    return int(value)\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    """The files on SQLite, and served by PostgreSQL (the same corrections from either store)."""
    project = make_project(FILES, name="slips", config=engine_config(request.param, "slips"))
    resync(project)
    return project


def test_a_question_whose_words_are_all_misspelt_finds_the_section_they_meant_and_says_what_it_searched(project):
    answer = ask_project(project, "how to regster a bluprint", now=NOW)
    assert answer.excerpts, answer.empty_reason
    assert answer.excerpts[0].fact.source.uri.startswith("docs/blueprints.md")
    assert "spelling: no excerpt holds 'regster'; searched 'register'" in answer.notes
    assert "spelling: no excerpt holds 'bluprint'; searched 'blueprint'" in answer.notes
    assert answer.query == "how to regster a bluprint"


def test_a_misspelt_part_of_a_code_name_finds_its_definition_first(project):
    answer = search_project(project, "where is parse_rnage defined", SearchOptions(limit=3), now=NOW)
    assert answer.excerpts[0].fact.title.startswith("def parse_range"), [e.fact.title for e in answer.excerpts]
    assert answer.notes == ("spelling: no excerpt holds 'rnage'; searched 'range'",)


def test_a_word_is_never_replaced_by_a_stem_no_title_or_path_spells_out(project):
    # ``appes`` matches the stem ``app`` in the word index, yet the project never writes it
    answer = search_project(project, "apres", SearchOptions(), now=NOW)
    assert not [n for n in answer.notes if n.startswith("spelling")]
    assert answer.excerpts == ()


def test_words_the_index_holds_and_fts_syntax_are_searched_as_typed(project):
    assert search_project(project, "parse range header", SearchOptions(), now=NOW).notes == ()
    answer = search_project(project, "regster", SearchOptions(syntax="fts"), now=NOW)
    assert answer.excerpts == () and answer.notes == ()
    for quoted in ('"regster"', "`regster`", "« regster »"):
        answer = search_project(project, quoted, SearchOptions(), now=NOW)
        assert answer.excerpts == () and answer.notes == (), quoted


def test_a_word_typed_with_accents_is_taken_as_written_one_without_may_be_a_slip(project):
    # a French question over English text: ``défaut`` is French, not a slip of ``default``; the
    # French→English bridge translates it (search/translate.py), the spelling rule never sees it
    assert search_project(project, "délai par défaut", SearchOptions(), now=NOW).notes == (
        "translated: 'délai' searched as 'timeout'",
        "translated: 'par défaut' searched as 'default'",
    )
    answer = search_project(project, "timeout par defualt", SearchOptions(), now=NOW)
    assert answer.notes == ("spelling: no excerpt holds 'defualt'; searched 'default'",)


def test_a_slip_keeps_the_first_letter_and_a_word_with_two_capitals_is_a_name(project):
    """Measured on SciFact's train claims: corrections changing the first letter ("tegmental" →
    "segmental") or of acronyms ("PPARy" → "ppar") were other words, not slips."""
    assert search_project(project, "parze", SearchOptions(), now=NOW).notes == (
        "spelling: no excerpt holds 'parze'; searched 'parse'",
    )
    assert search_project(project, "warse", SearchOptions(), now=NOW).notes == ()  # 'parse' changes the first letter
    assert search_project(project, "PArze", SearchOptions(), now=NOW).notes == ()


def test_a_long_question_is_answered_by_the_words_it_holds_without_a_guess(project):
    long = "how does the application register each bluprint object with its routes"
    answer = search_project(project, long, SearchOptions(), now=NOW)
    assert answer.notes == () and answer.excerpts
    assert search_project(project, "register bluprint routes", SearchOptions(), now=NOW).notes == (
        "spelling: no excerpt holds 'bluprint'; searched 'blueprint'",
    )
