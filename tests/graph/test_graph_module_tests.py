"""A test that imports a module of the project tests that module's file (parser ``python/13``):
``import app.greet`` and ``from app import greet`` (with ``app/greet.py``) give ``tested_by``
edges from ``app/greet.py`` to the test file, ``declared``, so "which tests cover app/greet.py"
finds a test that patches the module and calls nothing of it by name. A module the project does
not hold gives none; a file that is no test gives none. An incremental sync that adds the module
after its test gives the edges a cold sync gives. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import file_testers

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

GREET = "def hello():\n    return 1\n"
PATCHING = (
    "from app import greet\n\n\n"
    "def test_patched(monkeypatch):\n    monkeypatch.setattr(greet, 'hello', lambda: 2)\n    assert greet\n"
)
PLAIN = "import app.greet\nimport os\n\n\ndef test_present():\n    assert app.greet and os.sep\n"
USER = "import app.greet\nfrom app import greet as module\n\n\ndef use():\n    return module, app.greet\n"
FILES = {
    "app/__init__.py": "",
    "app/greet.py": GREET,
    "app/use.py": USER,
    "tests/__init__.py": "",
    "tests/test_patching.py": PATCHING,
    "tests/test_plain.py": PLAIN,
}
EXPECTED = {
    ("file", "tests.test_patching", "declared"),
    ("file", "tests.test_plain", "declared"),
}


def test_a_test_importing_a_module_gives_a_tested_by_reference_of_it():
    _, rel = parse_python_relations(PLAIN, "tests/test_plain.py")
    tested = {(r.target_kind, r.target, r.reverse) for r in rel.refs if r.type == "tested_by"}
    assert tested == {("module", "app.greet", True), ("module", "os", True)}
    _, rel = parse_python_relations(USER, "app/use.py")  # no test: no tested_by
    assert not [r for r in rel.refs if r.type == "tested_by"]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_which_tests_cover_a_module_finds_the_tests_that_import_it(make_project, engine):
    project = make_project(FILES, name="modtests", config=engine_config(engine, "modtests"))
    resync(project)
    assert file_testers(project, "app/greet.py") == EXPECTED  # not app/use.py (no test), nor os
    assert file_testers(project, "app/__init__.py") == set()  # `from app import greet`: the module, not the package
    answer = ask_project(project, "which tests cover app/greet.py", now=NOW)
    assert answer.mode == "graph"
    assert {e.fact.source.uri.split("#")[0].split(":")[0] for e in answer.excerpts} == {
        "tests/test_patching.py",
        "tests/test_plain.py",
    }, [e.fact.source.uri for e in answer.excerpts]


def test_a_module_added_after_its_test_gets_the_edges_a_cold_sync_gives(make_project):
    """Before ``app/greet.py`` exists, ``from app import greet`` names a symbol of the package
    (none); the module's arrival resolves that reference again, and the plain import's."""
    project = make_project({k: v for k, v in FILES.items() if k != "app/greet.py"}, name="later")
    resync(project)
    (project.root / "app/greet.py").write_text(GREET, encoding="utf-8")
    resync(project)
    cold = make_project(FILES, name="cold")
    resync(cold)
    assert file_testers(project, "app/greet.py") == file_testers(cold, "app/greet.py") == EXPECTED


def test_a_test_that_can_hardly_call_the_module_comes_after_a_test_that_imports_it(make_project):
    """``stream.flush()`` on a value nothing types, in another file, reaches ``Greeter.flush`` by
    its name alone (``heuristic``): such a test comes after the test file that imports the module,
    although test functions otherwise come before test files."""
    greet = GREET + "\n\nclass Greeter:\n    def flush(self):\n        return 1\n"
    guess = "def test_stream(tmp_path):\n    stream = (tmp_path / 'x').open('w')\n    stream.flush()\n"
    files = {**FILES, "app/greet.py": greet, "tests/test_stream.py": guess}
    project = make_project(files, name="unlikely")
    resync(project)
    answer = ask_project(project, "which tests cover app/greet.py", now=NOW)
    order = [e.fact.source.uri.split("#")[0].split(":")[0] for e in answer.excerpts]
    assert order[-1] == "tests/test_stream.py", order
    assert set(order[:2]) == {"tests/test_patching.py", "tests/test_plain.py"}, order
