"""A "which tests cover X" question about a node the question types, which the graph links no test to: a test
may reach X in a way calls are not linked (through a module attribute, ``getattr``, a fixture),
so the test code that names X, found by words, is served and said as such; when no test names
it, the graph's empty answer stands (branch clickwalk: click's ``test_make_default_short_help``
calls ``click.utils.make_default_short_help``)."""

from __future__ import annotations

import pytest
from engine_projects import files_of, synced

from conftest import NOW
from kenning.answer.ask import GRAPH_NO_TESTS, ask_project
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

FILES = {
    "src/tools/__init__.py": "",
    "src/tools/text.py": (
        "def make_short_help(text, limit):\n"
        '    """The first sentence of ``text``, cut at ``limit`` characters."""\n'
        "    return text[:limit]\n\n\n"
        "def lonely_helper(text):\n"
        '    """Nobody tests this one."""\n'
        "    return text\n"
    ),
    "src/tools/cli.py": (
        "from tools.text import make_short_help\n\n\n"
        "def usage(command):\n"
        '    """One line of help per command."""\n'
        "    return make_short_help(command.__doc__, 45)\n"
    ),
    "docs/help.md": "# Help\n\nEach command's short help is made by make_short_help from its docstring.\n",
    "tests/__init__.py": "",
    "tests/test_text.py": (
        "import tools.text\n\n\n"
        "def test_make_short_help_cuts_at_the_limit():\n"
        '    helper = getattr(tools.text, "make_short_help")\n'
        '    assert helper("abcdef", 3) == "abc"\n\n\n'
        "def test_nothing_else():\n"
        "    assert True\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced(make_project, FILES, "tools", request.param)


def test_a_tests_question_the_graph_cannot_link_serves_the_tests_that_name_the_node(project):
    answer = ask_project(project, "which tests cover make_short_help", now=NOW)
    assert (answer.mode, answer.rule, answer.degradations) == ("lexical", "relation", (GRAPH_NO_TESTS,))
    assert [e.fact.meta.get("symbol") for e in answer.excerpts] == ["test_make_short_help_cuts_at_the_limit"]
    assert [e.rank for e in answer.excerpts] == [1]
    assert any(n.startswith("the graph holds no tests of") for n in answer.notes)  # the graph's own note kept
    assert answer.query == "which tests cover make_short_help"


def test_a_tests_question_about_a_node_no_test_names_keeps_the_graphs_empty_answer(project):
    answer = ask_project(project, "which tests cover lonely_helper", now=NOW)
    assert (answer.mode, answer.excerpts, answer.degradations) == ("graph", (), ())


def test_a_callers_question_keeps_the_graphs_answer(project):
    answer = ask_project(project, "who calls make_short_help", now=NOW)
    assert answer.mode == "graph" and files_of(answer) == ["src/tools/cli.py"]
    empty = ask_project(project, "who calls lonely_helper", now=NOW)
    assert (empty.mode, empty.excerpts) == ("graph", ())


def test_a_fallback_parses_the_question_and_its_content_words_once_each(project, monkeypatch):
    import kenning.answer.ask as ask_module

    parsed: list[str] = []
    real = ask_module.parse

    def counting(text, *args, **kwargs):
        parsed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(ask_module, "parse", counting)
    question = "who calls the short help"  # no node named: the walk from guessed starts finds nothing
    answer = ask_project(project, question, now=NOW)
    assert answer.mode == "lexical" and "words searched (the relation words left out): short help" in answer.notes
    assert parsed.count("the short help") == 1, parsed  # the note and the search share one parse
    assert parsed.count(question) == 1, parsed  # ask_project's budget check is the routed answer's parse
