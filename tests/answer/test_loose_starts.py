"""A tests question whose start is one plain word of several ("which tests cover installing shell
completion", started from the module ``completion``) is answered by its words, test code first, the
note naming the start and the words it does not stand for; a start that stands for the question's
words stays the graph's (typer, walked: bench/questions/typer.walk.jsonl)."""

from __future__ import annotations

import pytest
from engine_projects import files_of, memory_ask, synced

from conftest import NOW
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

FILES = {
    "app/__init__.py": "",
    "app/completion.py": (
        "def show_script(shell):\n"
        '    """The completion script of ``shell``, printed for the user to source."""\n'
        '    return f"complete -F _app {shell}"\n'
    ),
    "app/installer.py": (
        "from pathlib import Path\n\n\n"
        "def install_shell_completion(shell, rc_path):\n"
        '    """Append the completion script of ``shell`` to the shell\'s rc file."""\n'
        '    Path(rc_path).write_text(f"# completion for {shell}\\n")\n'
    ),
    "tests/__init__.py": "",
    "tests/test_show.py": (
        "from app.completion import show_script\n\n\n"
        "def test_show_script_names_the_shell():\n"
        '    assert "zsh" in show_script("zsh")\n'
    ),
    "tests/test_install.py": (
        "from app.installer import install_shell_completion\n\n\n"
        "def test_install_shell_completion_writes_the_rc_file(tmp_path):\n"
        '    rc = tmp_path / ".zshrc"\n'
        '    install_shell_completion("zsh", rc)\n'
        "    assert rc.exists()\n"
    ),
}
LOOSE = "which tests cover installing shell completion"


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced(make_project, FILES, "shellapp", request.param)


def test_a_tests_question_whose_start_is_one_word_of_several_is_answered_by_its_words(project):
    answer = ask_project(project, LOOSE, now=NOW)
    assert (answer.mode, answer.rule, answer.degradations) == ("lexical", "relation", ())
    assert files_of(answer)[:1] == ["tests/test_install.py"], files_of(answer)
    assert (
        "the graph's start 'completion' stands for one of the question's words, not for 'installing', 'shell'"
    ) in answer.notes
    assert "words searched (the relation words left out): installing shell completion" in answer.notes


def test_through_mcp_the_same_words_answer(project):
    answer = memory_ask(project, LOOSE, NOW)
    assert answer["mode"] == "lexical"
    assert answer["excerpts"][0]["source"]["uri"].startswith("tests/test_install.py")


@pytest.mark.parametrize(
    "question",
    [
        "which tests cover completion",  # the start is the question's one word
        "which tests cover the completion module",  # "module" is relation vocabulary
        "which tests cover shell completion",  # one word left: the start still stands for the question
    ],
)
def test_a_start_that_stands_for_the_question_keeps_the_graph_answer(project, question):
    answer = ask_project(project, question, now=NOW)
    assert answer.mode == "graph", answer.notes
    assert files_of(answer)[:1] == ["tests/test_show.py"], files_of(answer)
    assert not any("stands for one of" in note for note in answer.notes)


def test_a_typed_name_is_never_a_loose_start(project):
    answer = ask_project(project, "which tests cover `show_script` when installing shell completion", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert files_of(answer)[:1] == ["tests/test_show.py"], files_of(answer)
