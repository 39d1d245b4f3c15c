"""A "why did we choose X" question on a project whose decision records do not match it (here:
none at all) walks from the best other node its words find, and says so: the commits touching
the README are no decision (walkthrough of 2026-12-02, cuts6)."""

from __future__ import annotations

import subprocess

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project

FILES = {
    "README.md": "# My project\n\nGreets people. We chose SQLite because it needs no server.\n",
    "app/__init__.py": "",
    "app/greet.py": 'def greet(name):\n    return f"Hello, {name}!"\n',
    "docs/adr/0001-python.md": "# 1. Python\n\nStatus: accepted\n\n## Decision\n\nWe write it in Python.\n",
}


@pytest.fixture
def project(make_project):
    project = make_project(FILES, "hello")
    git = ["git", "-C", str(project.root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "first greet"], check=True)
    resync(project)
    return project


def test_a_why_question_no_decision_matches_says_it_walked_from_another_node_and_one_that_matches_does_not(project):
    answer = ask_project(project, "why did we choose SQLite", now=NOW)
    assert answer.mode == "graph"
    assert "relation decisions (incoming) from README.md (lexical)" in answer.notes
    assert "no decision record matches the question: what touches README.md (lexical) instead" in answer.notes
    assert [e.fact.type for e in answer.excerpts] == ["commit"]  # the answer itself is unchanged
    answer = ask_project(project, "why did we choose Python", now=NOW)  # a decision matches: no such note
    assert [e.fact.source.uri for e in answer.excerpts][:1] == ["docs/adr/0001-python.md#1-python"]
    assert not [n for n in answer.notes if n.startswith("no decision record")]
