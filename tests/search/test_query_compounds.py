"""Hyphenated compounds are searched as their parts; slashes and dots keep a term whole."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.query import parse


def test_a_hyphenated_compound_is_searched_as_its_parts():
    parsed = parse("7-day-old worms")
    assert parsed.fts == '"7" OR "day" OR "old" OR "worms"'


def test_stop_words_inside_a_compound_are_dropped_unless_nothing_else_is_left():
    assert parse("out-of-date notes").fts == '"date" OR "notes"'
    assert parse("T-ALL").fts == '"t-all"'


def test_paths_file_names_and_versions_stay_whole():
    parsed = parse("src/kenning v1.2 query.py")
    assert parsed.fts == '"src/kenning" OR "v1.2" OR "query.py"'


def test_the_compound_as_typed_stays_the_significant_term():
    assert parse("IL-6 levels").terms == ("il-6", "levels")


def test_a_text_holding_only_some_parts_of_a_compound_is_found(make_project):
    project = make_project(
        {
            "docs/worms.md": "# Worms\n\nDay old worms learn faster than adults.\n",
            "docs/other.md": "# Other\n\nNothing related here.\n",
        }
    )
    resync(project)
    answer = search_project(project, "7-day-old", SearchOptions(), now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == ["docs/worms.md#worms"]
