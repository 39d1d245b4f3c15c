"""A Django app's ``tests.py`` is test code (``ingest.test_files``): Django's tutorial layout,
``polls/tests.py`` beside ``polls/models.py``, answers "what tests cover X" from the graph. Before,
only ``tests/``, ``test_*.py`` and the like counted, and such a project had no ``tested_by`` edge."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.ask import ask_project

FILES = {
    "polls/__init__.py": "",
    "polls/models.py": (
        "class Question:\n    def __init__(self, pub_date):\n        self.pub_date = pub_date\n\n"
        "    def was_published_recently(self):\n        return self.pub_date > 0\n"
    ),
    "polls/tests.py": (
        "from polls.models import Question\n\n\nclass QuestionModelTests:\n"
        "    def test_was_published_recently_with_future_question(self):\n"
        "        future_question = Question(pub_date=1)\n"
        "        assert future_question.was_published_recently() is True\n"
    ),
}


def test_what_tests_cover_a_model_method_in_a_django_app(make_project):
    project = make_project(FILES, name="polls")
    resync(project)
    answer = ask_project(project, "what tests cover was_published_recently", now=NOW, limit=5)
    assert answer.mode == "graph"
    assert answer.excerpts[0].fact.source.uri.startswith("polls/tests.py")
    assert "test_was_published_recently_with_future_question" in answer.excerpts[0].fact.title
