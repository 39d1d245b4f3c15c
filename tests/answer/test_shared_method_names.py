"""Who calls a method with a common name, on a project where many methods share names (branch
djwalk, Django): a call on an imported object the callee has nothing to do with ranks with
the implausible calls, and a method whose name too many methods share gets no false
"no callers" answer."""

from __future__ import annotations

import pytest
from engine_projects import files_of, synced

from conftest import NOW
from kenning.answer.ask import GRAPH_BLIND, ask_project
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

SAVERS = {f"app/saver{i}.py": f"class Saver{i}:\n    def save(self):\n        return {i}\n" for i in range(6)}
FILES = {
    "app/__init__.py": "",
    "app/query.py": "class QuerySet:\n    def all(self):\n        return self\n",
    # `handler` of no class the module names (`handler = Handler()` would reach Handler.all alone:
    # branch modcalls2)
    "app/handlers.py": (
        "from app.registry import make\n\n\nclass Handler:\n    def all(self):\n        return []\n\n\n"
        "handler = make(Handler)\n"
    ),
    # a receiver no import explains: the call the question is about, by the look of it
    "app/a_views.py": "def listing(books):\n    return books.all()\n",
    # an imported object the callee QuerySet.all has nothing to do with
    "app/b_checks.py": "from app.handlers import handler\n\n\ndef check():\n    return handler.all()\n",
    "app/c_store.py": "def keep(record):\n    record.save()\n",
    **SAVERS,
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced(make_project, FILES, "shared", request.param, commit=False)


def test_a_call_on_an_imported_object_the_callee_is_not_in_ranks_no_higher_than_an_unknown_receiver(project):
    answer = ask_project(project, "who calls QuerySet.all", now=NOW)
    assert answer.mode == "graph"
    # both heuristic and implausible (another file, no type known): source order decides,
    # where the imported `handler` used to rank first as if the import explained the call
    assert files_of(answer)[:2] == ["app/a_views.py", "app/b_checks.py"]


def test_callers_of_a_method_whose_name_too_many_methods_share_are_not_claimed_absent(project):
    answer = ask_project(project, "who calls Saver3.save", now=NOW)
    assert answer.mode == "lexical"
    assert GRAPH_BLIND in answer.degradations
    assert any("6 methods are named save (more than 5)" in note for note in answer.notes)
    # the words' answer never serves the method asked about as one of its callers (koel's
    # "who calls Streamer.stream" served Streamer.stream first)
    assert "app/saver3.py" not in files_of(answer)
    assert any("the excerpt of what the question names left out (1)" in note for note in answer.notes)


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_the_codes_callers_come_before_the_tests_calls_at_the_same_hop_and_trust(make_project, engine):
    files = {
        "app/__init__.py": "",
        "app/slugs.py": "def slugify(text):\n    return text.lower()\n",
        "tests/test_slugs.py": "from app.slugs import slugify\n\n\ndef test_lower():\n    assert slugify('A') == 'a'\n",
        "web/views.py": "from app.slugs import slugify\n\n\ndef page(title):\n    return slugify(title)\n",
    }
    project = synced(make_project, files, "slugs", engine, commit=False)
    answer = ask_project(project, "who calls slugify", now=NOW)
    assert answer.mode == "graph"
    assert files_of(answer) == ["web/views.py", "tests/test_slugs.py"]


def test_what_a_function_calls_says_which_calls_on_an_unknown_receiver_it_could_not_link(project):
    answer = ask_project(project, "what does keep call", now=NOW)
    assert (
        "calls on an object the graph cannot type, of names more than 5 methods share, are not linked: "
        ".save() (6 methods)" in answer.notes
    )


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_callers_caller_through_a_call_that_can_hardly_be_this_one_is_no_answer(make_project, engine):
    """ "who calls Error::from_walkdir" in ripgrep gave ``Walk.next``, then every function calling
    some ``.next()``: callers of the caller through an unlikely call (an unknown receiver in
    another file). A caller of the caller through a sure call stays."""
    files = {
        "app/__init__.py": "",
        "app/walk.py": (
            "def from_walkdir():\n    return 1\n\n\nclass Walk:\n    def next(self):\n        return from_walkdir()\n"
        ),
        "app/runner.py": "from app.walk import Walk\n\n\ndef run():\n    w = Walk()\n    return w.next()\n",
        "app/parse.py": "def parse(tokens):\n    return tokens.next()\n",
    }
    project = synced(make_project, files, "unlikely", engine, commit=False)
    answer = ask_project(project, "who calls from_walkdir", now=NOW)
    assert answer.mode == "graph"
    assert files_of(answer) == ["app/walk.py", "app/runner.py"]  # Walk.next, then run; not parse
