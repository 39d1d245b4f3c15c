"""Questions an ordinary project's developer asks, on a small fixture of its own (branch
walkanswers): which tests cover a function, what a file imports asked in French."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/__init__.py": "",
    "app/ranges.py": (
        "from app.units import to_bytes\n\n\n"
        "def parse_range(header):\n"
        '    """Parse an HTTP Range header into (start, end)."""\n'
        '    start, _, end = header.partition("-")\n'
        "    return to_bytes(start), to_bytes(end)\n"
    ),
    "app/units.py": "def to_bytes(value):\n    return int(value)\n",
    "tests/__init__.py": "",
    "tests/test_ranges.py": (
        "from app.ranges import parse_range\n\n\n"
        "def test_a_range_is_split_at_its_dash():\n"
        '    assert parse_range("0-9") == (0, 9)\n'
    ),
    "tests/test_units.py": (
        'from app.units import to_bytes\n\n\ndef test_bytes_are_integers():\n    assert to_bytes("7") == 7\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    """The files on SQLite, and served by PostgreSQL (the same graph from either store)."""
    project = make_project(FILES, name="ranges", config=engine_config(request.param, "ranges"))
    resync(project)
    return project


def _names(answer) -> list[str]:
    return [(e.explain or {}).get("node", {}).get("name") or e.fact.title for e in answer.excerpts]


@pytest.mark.parametrize(
    "question",
    ["which tests cover parse_range", "where is parse_range tested", "quels tests couvrent parse_range"],
)
def test_a_question_about_the_tests_of_a_function_lists_the_tests_that_call_it_from_the_graph(project, question):
    answer = ask_project(project, question, now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    names = _names(answer)
    assert names[0] == "tests.test_ranges.test_a_range_is_split_at_its_dash", names
    assert "tests.test_units.test_bytes_are_integers" not in names
    assert all(e.explain["relation"] == "tests" for e in answer.excerpts)


def test_what_a_file_imports_asked_in_french_is_walked_forward_in_the_graph(project):
    answer = ask_project(project, "qu'est-ce que app/ranges.py importe", now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    assert answer.excerpts[0].explain["relation"] == "dependencies"
    assert {e.fact.source.uri.split(":")[0] for e in answer.excerpts} == {"app/units.py"}


HOMONYMS = {
    "app/__init__.py": "from app.quoting import urlencode\n",
    "app/quoting.py": 'def urlencode(pairs):\n    return "&".join(f"{k}={v}" for k, v in pairs)\n',
    "app/forms.py": ("from urllib.parse import urlencode\n\n\ndef encode_form(data):\n    return urlencode(data)\n"),
    "app/client.py": ("from app.quoting import urlencode\n\n\ndef send(pairs):\n    return urlencode(pairs)\n"),
    "app/api.py": "from app import urlencode\n\n\ndef query(pairs):\n    return urlencode(pairs)\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_call_to_a_name_imported_from_another_library_is_not_a_call_to_the_projects_homonym(make_project, engine):
    project = make_project(HOMONYMS, name="homonyms", config=engine_config(engine, "homonyms"))
    resync(project)
    answer = ask_project(project, "who calls app.quoting.urlencode", now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    names = _names(answer)
    assert "app.forms.encode_form" not in names  # it calls urllib.parse.urlencode
    assert {"app.client.send", "app.api.query"} <= set(names)  # imported from the module, or re-exported


def test_a_name_imported_from_a_package_below_the_root_reaches_that_package_only(make_project):
    project = make_project(
        {
            "examples/tutorial/shop/__init__.py": "def create_app():\n    return {}\n",
            "examples/celery/factory.py": "def create_app():\n    return []\n",
            "examples/tutorial/tests/test_factory.py": (
                "from shop import create_app\n\n\ndef test_config():\n    assert create_app() == {}\n"
            ),
        },
        name="below",
    )
    resync(project)
    answer = ask_project(project, "what does test_config call", now=NOW)
    assert _names(answer) == ["examples.tutorial.shop.create_app"]


def test_the_word_tests_in_a_tests_question_never_names_a_start_node(make_project):
    files = {**FILES, "requirements/tests.txt": "pytest\n"}
    project = make_project(files, name="words")
    resync(project)
    answer = ask_project(project, "which tests cover the ranges module", now=NOW)
    assert [s["name"] for s in answer.excerpts[0].explain["start"]] == ["app/ranges.py"]
    assert _names(answer)[0] == "tests.test_ranges.test_a_range_is_split_at_its_dash"


@pytest.mark.parametrize(
    "question", ["where is to_bytes used", "find references to to_bytes", "où est utilisée to_bytes"]
)
def test_where_a_function_is_used_is_answered_by_what_depends_on_it(project, question):
    answer = ask_project(project, question, now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    assert answer.excerpts[0].explain["relation"] == "dependents"
    assert _names(answer)[0] == "app.ranges.parse_range"
