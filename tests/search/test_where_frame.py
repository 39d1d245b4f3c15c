"""Beside a typed code name, the words that ask where it is written ("defined", "définie") or of
what kind it is ("function", "classe") are not searched: docstrings say them ("the shell function
defined by the script"), which put unrelated code right after the definition (branch clickwalk:
"where is get_app_dir defined" on click answered ``ProgressBar.__next__`` second)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.query import parse

FILES = {
    "src/app/dirs.py": (
        "def get_app_dir(name):\n"
        '    """The folder where the application keeps its settings."""\n'
        '    return "~/." + name\n'
    ),
    "src/app/shell.py": (
        "def script_source():\n"
        '    """The shell function defined by the script, as defined for each shell."""\n'
        '    return ""\n\n\n'
        "def function_name():\n"
        '    """The name of the function the script defined."""\n'
        '    return ""\n'
    ),
    "docs/dirs.md": "# Folders\n\nCall get_app_dir with the application's name to find its folder.\n",
}


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("where is get_app_dir defined", ("get_app_dir",)),
        ("où est définie la fonction get_app_dir", ("get_app_dir",)),
        ("where is the CliRunner class defined", ("clirunner",)),
        ("how is a session defined", ("session", "defined")),  # no code name: the words are the subject
        ("which function is defined first", ("function", "defined", "first")),
    ],
)
def test_where_words_are_left_out_beside_a_code_name_only(question, terms):
    assert parse(question).terms == terms


def test_where_is_x_defined_serves_what_names_x_not_what_says_defined(make_project):
    project = make_project(FILES, name="dirs")
    resync(project)
    answer = search_project(project, "where is get_app_dir defined", SearchOptions(), now=NOW)
    uris = [e.fact.source.uri for e in answer.excerpts]
    assert uris[0].startswith("src/app/dirs.py")
    assert not any(uri.startswith("src/app/shell.py") for uri in uris), uris
