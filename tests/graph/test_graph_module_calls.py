"""A call written through an imported module's dotted name (branch modcalls): ``import
app.greet`` then ``app.greet.greet()``, ``import app`` then ``app.greet.greet()`` (the package
does not re-export it), ``app.greet.Greeter.make()`` and ``app.greet.Greeter()`` reach the
symbol of that module, ``extracted``, and from a test give its ``tested_by`` edge, as
``from app.greet import greet; greet()`` always did; a homonym in another module is not
reached. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

GREET = (
    "def greet(name):\n    return 'hello ' + name\n\n\n"
    "class Greeter:\n    @classmethod\n    def make(cls):\n        return cls()\n\n"
    "    def hello(self):\n        return greet('x')\n"
)
# a homonym of each in another module: the dotted call names which one it is
OTHER = "def greet(name):\n    return name\n\n\nclass Greeter:\n    def make(self):\n        return 1\n"
TESTS = (
    "import app.greet\nimport app.sub.deep\nimport app.greet as g\nimport os\nimport other.greet\n"
    "from app import greet as module\n\n\n"
    "def test_dotted():\n    assert app.greet.greet('Ada')\n\n\n"
    "def test_alias():\n    assert g.greet('Ada')\n\n\n"
    "def test_from_package():\n    assert module.greet('Ada')\n\n\n"
    "def test_class_through_the_module():\n    assert app.greet.Greeter.make()\n    assert app.greet.Greeter()\n\n\n"
    "def test_deep():\n    assert app.sub.deep.deep()\n\n\n"
    "def test_outside():\n    assert os.path.join('a', 'b')\n\n\n"
    "def test_two_modules():\n    assert other.greet.greet('x') != app.greet.greet('Ada')\n"
)


def test_the_parser_hints_a_call_through_a_module_with_that_module():
    _, rel = parse_python_relations(TESTS, "tests/test_greet.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls"}
    assert calls == {
        ("test_dotted", "greet", "app.greet"),
        ("test_alias", "greet", "app.greet"),
        ("test_from_package", "greet", "app.greet"),
        ("test_class_through_the_module", "make", "app.greet.Greeter"),
        ("test_class_through_the_module", "Greeter", "app.greet"),
        ("test_deep", "deep", "app.sub.deep"),
        ("test_outside", "join", "os.path"),  # a module the project does not hold: no edge
        ("test_two_modules", "greet", "other.greet"),  # one reference per module, not one per name
        ("test_two_modules", "greet", "app.greet"),
    }


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_calls_through_a_module_reach_its_symbol_and_answer_which_tests_cover_it(make_project, engine):
    files = {
        "app/__init__.py": "",
        "app/greet.py": GREET,
        "app/sub/__init__.py": "",
        "app/sub/deep.py": "def deep():\n    return 1\n",
        "other/__init__.py": "",
        "other/greet.py": OTHER,
        "other/join.py": "class Path:\n    def join(self, *parts):\n        return parts\n",
        "tests/__init__.py": "",
        "tests/test_greet.py": TESTS,
        "tests/test_package.py": "import app\n\n\ndef test_package():\n    assert app.greet.greet('Ada')\n",
    }
    project = make_project(files, name="modcalls", config=engine_config(engine, "modcalls"))
    resync(project)
    greet = ("app.greet.greet", "extracted")
    assert callees(project, "tests.test_greet.test_dotted") == {greet}
    assert callees(project, "tests.test_greet.test_alias") == {greet}
    assert callees(project, "tests.test_greet.test_from_package") == {greet}
    assert callees(project, "tests.test_package.test_package") == {greet}
    assert callees(project, "tests.test_greet.test_class_through_the_module") == {
        ("app.greet.Greeter.make", "extracted"),
        ("app.greet.Greeter", "extracted"),
    }
    assert callees(project, "tests.test_greet.test_deep") == {("app.sub.deep.deep", "extracted")}
    assert callees(project, "tests.test_greet.test_outside") == set()  # os.path.join is not Path.join
    assert callees(project, "tests.test_greet.test_two_modules") == {greet, ("other.greet.greet", "extracted")}
    answer = ask_project(project, "which tests cover greet", now=NOW)
    assert answer.mode == "graph"
    tests = {e.fact.meta.get("symbol") for e in answer.excerpts}
    # not the test file itself: `from app import greet` imports the module app/greet.py (branch modcalls2)
    assert tests == {"test_dotted", "test_alias", "test_from_package", "test_package", "test_two_modules"}, tests


SHADOWED = (
    "from app import greet\nimport app.greet as g\n\n\n"
    "def hidden(make):\n    greet = make()\n    return greet.greet('Ada')\n\n\n"
    "def hidden_alias(items):\n    for g in items:\n        g.greet('Ada')\n\n\n"
    "def through_the_module():\n    return greet.greet('Ada') + g.greet('Ada')\n\n\n"
    "def nested_parameter():\n    def inner(greet):\n        return greet.hello()\n\n"
    "    return greet.greet('Ada')\n"
)


def test_a_local_hiding_an_imported_module_is_no_call_through_that_module():
    """``greet = make(); greet.greet()`` calls a method of whatever ``make`` gave, not
    ``app.greet.greet``: the import's hint went to it (modcalls2's found-not-fixed list). A
    parameter of a nested function hides the module in that function only, which has no scope
    of its own: the enclosing function's call keeps the module (Django's migration tests pass
    ``def inner(apps, schema_editor)`` beside calls of ``models.CharField``), and so, as before,
    does the nested function's own."""
    _, rel = parse_python_relations(SHADOWED, "app/use.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls"}
    assert calls == {
        ("hidden", "greet", None),
        ("hidden_alias", "greet", None),
        ("through_the_module", "greet", "app.greet"),
        ("nested_parameter", "greet", "app.greet"),
        ("nested_parameter", "hello", "app.greet"),
    }


def test_a_call_on_a_local_hiding_a_module_reaches_no_function_of_that_module(make_project):
    files = {"app/__init__.py": "", "app/greet.py": GREET, "app/use.py": SHADOWED}
    project = make_project(files, name="shadowed")
    resync(project)
    assert callees(project, "app.use.hidden") == set()  # a function of the module is no method
    assert callees(project, "app.use.through_the_module") == {("app.greet.greet", "extracted")}
