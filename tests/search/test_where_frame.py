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
        # a capitalised word in a question asking where something is defined: what it asks for
        ("where is the Story model defined", ("story", "model")),
        ("où est définie la classe Story", ("story",)),
        ("how does the Session class work", ("session", "class", "work")),  # asks no definition
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


RAILS = {
    # the class is long: 40 methods the length of its excerpt weighs against
    "app/models/story.rb": "class Story < ApplicationRecord\n"
    + "".join(f"  def step_{n}\n    story_count + {n}\n  end\n\n" for n in range(40))
    + "end\n",
    "app/models/comment.rb": "class Comment < ApplicationRecord\n  belongs_to :story\n\n"
    "  def story_title\n    story.title\n  end\nend\n",
    "app/javascript/select.js": "function load() {\n  TomSelect.define('story', story);\n}\n",
    "db/schema.rb": (
        "# Virtual tables defined in this database.\ncreate_table 'stories' do |t|\n  t.string 'title'\nend\n"
    ),
}


@pytest.mark.parametrize("question", ["where is the Story model defined", "où est définie la classe Story"])
def test_where_is_a_capitalised_name_defined_serves_its_definition_first(make_project, question):
    """lobsters and outline, walked: "where is the Story model defined" served the schema's comment
    "Virtual tables defined" and a JavaScript ``define`` first; ``class Story`` (one capitalised word,
    no code-shaped name) was not in the top 10."""
    project = make_project(RAILS, name="rails")
    resync(project)
    answer = search_project(project, question, SearchOptions(limit=5), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("app/models/story.rb:1-"), [
        e.fact.source.uri for e in answer.excerpts
    ]
