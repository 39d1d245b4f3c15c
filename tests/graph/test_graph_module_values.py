"""What a name taken from a module of the project stands for (branch modcalls2), on both engines:

- a value the module binds (``app.registry.SHELLS.copy()``, ``from app.registry import SHELLS;
  SHELLS.copy()``) is of the class the module binds it to: a builtin's reaches none of the
  project's methods, nor its functions; a project class's reaches its method, ``extracted``,
  through a package that re-exports it too; one of unknown class gets the attribute-call rule
  (methods of that name, never a function);
- ``from app import greet`` with ``app/greet.py`` imports a module: ``greet.hello()`` reaches
  its ``hello``, and the test file is no ``tested_by`` of a function named ``greet``;
- a plain call of a name the function binds itself (a nested function or class, a parameter,
  a loop variable) calls that local, never a project symbol of its name; a test's parameter
  (a pytest fixture) and a local the function imports keep their links."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import resync
from kenning.ingest.python_code import parse_python_relations
from kenning.ingest.relations import GLOBALS
from kenning.store import graph as graph_store
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

REGISTRY = (
    "from app.sites import Site\n\n"
    "SHELLS = {'bash': 1}\nNAMES: list[str] = []\nsite = Site()\nunknown = build()\nLABEL = 'x'\n\n\n"
    "class Config:\n    name = Site()\n\n\n"
    "class Local(Site):\n    def ping(self):\n        return 1\n\n\nLOCAL = Local()\n"
)
SITES = "class Site:\n    def register(self, model):\n        return model\n"
# homonyms elsewhere: functions and methods named as what the calls above call
THINGS = (
    "def copy():\n    return 1\n\n\ndef clear():\n    return 2\n\n\ndef run():\n    return 3\n\n\n"
    "def on_commit(func):\n    return func\n\n\ndef helper():\n    return 4\n\n\n"
    "class Box:\n    def copy(self):\n        return 5\n\n    def append(self, x):\n        return x\n\n"
    "    def run(self):\n        return 6\n\n    def register(self, model):\n        return model\n"
)
TESTS = (
    "import app.registry\nfrom app import greet\nfrom app import site\nfrom app.registry import SHELLS\n\n\n"
    "def test_a_dict_through_the_module():\n    app.registry.SHELLS.copy()\n    app.registry.SHELLS.clear()\n\n\n"
    "def test_a_dict_imported():\n    SHELLS.copy()\n\n\n"
    "def test_an_annotated_list():\n    app.registry.NAMES.append(1)\n\n\n"
    "def test_a_project_instance():\n    app.registry.site.register(1)\n\n\n"
    "def test_an_instance_the_package_re_exports():\n    site.register(2)\n\n\n"
    "def test_an_instance_of_the_module_s_own_class():\n"
    "    app.registry.LOCAL.ping()\n    app.registry.LOCAL.register(3)\n\n\n"
    "def test_a_value_of_unknown_class():\n    app.registry.unknown.run()\n\n\n"
    "def test_a_module_from_its_package():\n    greet.hello()\n\n\n"
    "def test_a_nested_function():\n    def on_commit(func):\n        return func\n\n    on_commit(1)\n\n\n"
    "def locals_(helper):\n    helper()\n    for copy in [len]:\n        copy()\n\n\n"
    "def test_a_fixture(helper):\n    helper()\n\n\n"
    "def imports_its_local(box):\n    cls = box\n    if cls is None:\n"
    "        from other.things import Box as cls\n    cls()\n"
)


def test_the_parser_writes_a_module_s_typed_globals_and_no_call_of_a_local_name():
    _, rel = parse_python_relations(REGISTRY, "app/registry.py")
    globals_ = {(r.target, r.hint, r.line) for r in rel.refs if r.type == GLOBALS}
    assert globals_ == {
        ("SHELLS", "builtins.dict", 3),
        ("NAMES", "builtins.list", 4),  # annotated
        ("site", "app.sites.Site", 5),
        ("LABEL", "builtins.str", 7),
        ("LOCAL", ".Local app.sites.Site", 19),  # a class of the file, then its bases
    }  # not `unknown` (of no known class), nor `Config.name` (a class's attribute)
    _, rel = parse_python_relations(TESTS, "tests/test_values.py")
    plain = {(r.scope, r.target) for r in rel.refs if r.type == "calls" and not r.qualified}
    # on_commit, helper and copy are the functions' own names; not a test's parameter (a pytest
    # fixture: the function of that name), nor a local the function imports
    assert plain == {("test_a_fixture", "helper"), ("imports_its_local", "Box")}
    source = "def f():\n    global helper\n    helper = make()\n    helper()\n"
    _, rel = parse_python_relations(source, "app/x.py")
    assert {(r.scope, r.target) for r in rel.refs if r.type == "calls"} == {("f", "make"), ("f", "helper")}
    # a nested function passed to the typed local of its name: that local keeps its class
    source = (
        "import threading\n\n\ndef f():\n    def worker():\n        pass\n\n"
        "    worker = threading.Thread(target=worker)\n    worker.join()\n"
    )
    _, rel = parse_python_relations(source, "app/x.py")
    assert {(r.target, r.hint) for r in rel.refs if r.type == "calls"} == {
        ("Thread", "threading"),
        ("join", "self:threading.Thread"),
    }


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_calls_on_a_module_s_values_and_modules_reach_what_they_name(make_project, engine):
    files = {
        "app/__init__.py": "from app.registry import site\n",
        "app/greet.py": "def hello():\n    return 1\n\n\ndef greet():\n    return 2\n",
        "app/registry.py": REGISTRY,
        "app/sites.py": SITES,
        "other/__init__.py": "",
        "other/things.py": THINGS,
        "tests/__init__.py": "",
        "tests/test_values.py": TESTS,
    }
    project = make_project(files, name="modvalues", config=engine_config(engine, "modvalues"))
    resync(project)
    test = "tests.test_values."
    assert callees(project, test + "test_a_dict_through_the_module") == set()
    assert callees(project, test + "test_a_dict_imported") == set()
    assert callees(project, test + "test_an_annotated_list") == set()
    register = {("app.sites.Site.register", "extracted")}
    assert callees(project, test + "test_a_project_instance") == register
    assert callees(project, test + "test_an_instance_the_package_re_exports") == register
    assert callees(project, test + "test_an_instance_of_the_module_s_own_class") == {
        ("app.registry.Local.ping", "extracted"),
        ("app.sites.Site.register", "extracted"),  # its base's
    }
    assert callees(project, test + "test_a_value_of_unknown_class") == {("other.things.Box.run", "heuristic")}
    assert callees(project, test + "test_a_module_from_its_package") == {("app.greet.hello", "extracted")}
    assert callees(project, test + "test_a_nested_function") == set()
    assert callees(project, test + "locals_") == set()
    assert callees(project, test + "test_a_fixture") == {("other.things.helper", "extracted")}
    assert callees(project, test + "imports_its_local") == {("other.things.Box", "extracted")}
    conn = open_store(project)
    try:
        (greet,) = graph_store.nodes_by(conn, "qualname", "app.greet.greet", limit=1)
        assert [e for e, _ in graph_store.edges_of(conn, greet) if e.type == "tested_by"] == []
    finally:
        conn.close()
