"""A question across projects is read as one about decisions (served from decision facts alone)
when it says "decisions", or "decide" of a person or in the passive; "how does click decide which
pager to use" asks how code decides: it was read as a decisions question and found nothing
(bench/cross_questions.py), where asked of click alone it found its answer first."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.across.window import read


@pytest.mark.parametrize(
    "question",
    [
        "What did I decide about memory in all my projects since September?",
        "what have we decided about caching",
        "what was decided about sqlite",
        "decisions about retention",
        "qu'ai-je décidé sur la mémoire",
        "pourquoi avons-nous décidé de garder sqlite",
        "ce qui a été décidé pour le cache",
        "quelles décisions depuis septembre",
    ],
)
def test_a_question_about_what_was_decided_reads_decisions(question):
    assert read(question, now=NOW).decisions


@pytest.mark.parametrize(
    "question",
    [
        "how does click decide which pager to use",
        "how is freshness decided for a moved file",
        "who decides the order of middleware",
        "what decides the number of workers",
    ],
)
def test_a_question_about_how_code_decides_does_not(question):
    reading = read(question, now=NOW)
    assert not reading.decisions and reading.words == question.lower()


def test_asked_across_projects_how_code_decides_is_answered_from_the_code(make_project, isolated_home):
    from conftest import resync
    from kenning.across.answers import ask_all
    from kenning.across.stores import OneShot
    from kenning.config import load_project
    from kenning.registry import list_entries, register

    files = {"src/pager.py": 'def pick_pager():\n    """Decide which pager to use: PAGER, then less, then more."""\n'}
    project = make_project(files, name="clicky")
    resync(project)
    register(isolated_home, project.name, project.root)
    answer = ask_all(
        "how does clicky decide which pager to use", list_entries(isolated_home), now=NOW, stores=OneShot(load_project)
    )
    assert answer.rule != "window" and [e.fact.source.uri for e in answer.excerpts][:1] == ["src/pager.py:1-2"]
