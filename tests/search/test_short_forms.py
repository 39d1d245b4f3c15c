"""A developer's short form is searched with its long form too (``search/abbreviations.py``):
"set default flags in a config file" finds the guide's "Configuration file" section, which the
stemmer kept apart from ``config`` (``configur``); never the other way round, and never inside
quotes, a prefix or a code name (branch shortforms)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import search_project
from kenning.search import abbreviations
from kenning.search.query import parse
from kenning.search.serve import SearchOptions

GUIDE = (
    "# Guide\n\n## Configuration file\n\nPut the flags you always pass in a configuration file, one per line; "
    "set the environment variable to its path.\n\n## Colors\n\nChoose the colors of matches and paths.\n"
)
CODE = (
    "def read_config_flags(path):\n    '''Flags from a config file, default ones first.'''\n"
    "    return [line for line in open(path) if line]\n"
)


@pytest.fixture
def project(make_project):
    project = make_project({"GUIDE.md": GUIDE, "src/flags.py": CODE}, name="shortforms")
    resync(project)
    return project


def test_a_short_form_finds_the_text_that_writes_the_long_one(project):
    answer = search_project(project, "set default flags in a config file", SearchOptions(), now=NOW)
    assert answer.excerpts[0].fact.source.uri == "GUIDE.md#configuration-file"
    assert "short form: 'config' searched with 'configuration' too" in answer.notes


def test_without_the_long_form_the_code_comes_first(project, monkeypatch):
    monkeypatch.setattr(abbreviations, "LONG_FORMS", {})
    answer = search_project(project, "set default flags in a config file", SearchOptions(), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("src/flags.py")  # what the rule changes


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("where are the repo deps listed", {"repository", "dependencies"}),
        ("env vars of a Config", {"environment", "variables", "configuration"}),
        ("how does the app sync data in the background", {"synchronization"}),  # nowinandroid's docs
        ("perf of a cold sync", {"performance", "synchronization"}),
    ],
)
def test_each_free_short_form_gets_its_long_form(question, terms):
    parsed, notes = abbreviations.expanded(parse(question, "natural"))
    assert terms <= set(parsed.terms) and len(notes) == len(terms)


@pytest.mark.parametrize(
    "question",
    [
        'the "config file" section',
        "`config` flags",
        "config* values",
        "where is get_config defined",
        "what does config.py hold",
        "the context of a function",  # long forms are not shortened
    ],
)
def test_quotes_prefixes_code_names_and_long_forms_are_left_alone(question):
    parsed = parse(question, "natural")
    assert abbreviations.expanded(parsed) == (parsed, ())


def test_a_query_in_fts_syntax_is_left_alone():
    parsed = parse("config AND file", "fts")
    assert abbreviations.expanded(parsed) == (parsed, ())
