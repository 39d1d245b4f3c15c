"""A call on a module's global bound once, at top level, to an instance of a class the file
defines or imports (branch globals): ``app = Flask(__name__)`` then ``app.route()`` anywhere in
the module reaches ``Flask.route`` (or the method of a base that defines it), as a typed local
does; a global re-bound anywhere in the module, or hidden in a function by a parameter or local
of its name, keeps the attribute-call rule. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

PARSED = (
    "from flask import Flask\nfrom app.db import SQLAlchemy\nfrom app import client as clients\n"
    "from app.other import imported\n\n"
    "app = Flask(__name__)\ndb = SQLAlchemy()\nclient = clients.Client()\n"
    "twice = Flask('x')\ntwice = None\n"
    "looped = Flask('y')\nfor looped in []:\n    pass\n"
    "changed = Flask('z')\nimported = Flask('w')\n\n"
    "app.route('/')\n\n\n"
    "def view():\n"
    "    db.session()\n    client.send()\n    twice.close()\n    looped.run()\n    changed.reset()\n"
    "    imported.flush()\n\n\n"
    "def rebinds():\n    global changed\n    changed = make()\n\n\n"
    "def hides(client):\n    client.open()\n    db = make()\n    db.commit()\n\n\n"
    "class View:\n    def get(self):\n        return app.get('/x')\n"
)


def test_the_parser_names_the_class_of_a_global_bound_once_in_the_calls_hint():
    _, rel = parse_python_relations(PARSED, "src/app/views.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified and r.target.islower()}
    flask = "self:flask.Flask"
    assert calls == {
        (None, "route", flask),  # at the module's top level
        ("view", "session", "self:app.db.SQLAlchemy"),
        ("view", "send", "self:app.client.Client"),  # clients.Client(): the module's alias
        ("View.get", "get", flask),  # in a method
        ("view", "close", None),  # bound twice at top level
        ("view", "run", None),  # a loop target
        ("view", "reset", None),  # `global changed` in a function that assigns it
        ("view", "flush", "app.other.imported"),  # the name is imported too: its import's hint
        ("hides", "open", None),  # a parameter of the name hides the global
        ("hides", "commit", None),  # a local of the name hides it
    }


APP = "from app.base import Scaffold\n\n\nclass Flask(Scaffold):\n    def run(self):\n        return 1\n"
BASE = "class Scaffold:\n    def route(self, rule):\n        return rule\n"
VIEWS = (
    "from app.flask import Flask\n\n"
    "app = Flask()\n"
    "app.run()\n\n\n"
    "def index():\n    return app.route('/')\n\n\n"
    "def hidden(app):\n    return app.route('/')\n\n\n"
    "class Page:\n    def show(self):\n        return app.run()\n"
)
REBOUND = (
    "from app.flask import Flask\n\n"
    "app = Flask()\n\n\n"
    "def home():\n    return app.route('/home')\n\n\n"
    "def reset():\n    global app\n    app = None\n"
)
# as many other methods named `route` and `run` as make them too shared to link by name
ROUTERS = {
    f"app/router{i}.py": f"class Router{i}:\n    def route(self, rule):\n        return {i}\n\n"
    f"    def run(self):\n        return {i}\n"
    for i in range(6)
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_calls_on_a_typed_global_reach_the_method_of_its_class(make_project, engine):
    files = {
        "app/__init__.py": "",
        "app/flask.py": APP,
        "app/base.py": BASE,
        "app/views.py": VIEWS,
        "app/rebound.py": REBOUND,
        **ROUTERS,
    }
    project = make_project(files, name="globals", config=engine_config(engine, "globals"))
    resync(project)
    route = ("app.base.Scaffold.route", "extracted")  # on Flask's base, two files away
    run = ("app.flask.Flask.run", "extracted")
    assert callees(project, "app.views.index") == {route}
    assert callees(project, "app.views.Page.show") == {run}
    assert run in callees(project, "app.views")  # at the module's top level
    # a parameter hides the global; `global app` re-binds it: 7 homonyms, no edge
    assert callees(project, "app.views.hidden") == set()
    assert callees(project, "app.rebound.home") == set()
    answer = ask_project(project, "who calls Scaffold.route", now=NOW)
    assert answer.mode == "graph"
    callers = {e.fact.source.uri.split(":")[0] for e in answer.excerpts}
    assert callers == {"app/views.py"}, callers


ANNOTATED = (
    "from app.client import Client\n\n"
    "MAP: dict[str, int] = {}\n"
    "current: Client | None = None\n"
    "if True:\n    nested: Client = make()\n"
    "twice: Client = make()\ntwice: list = []\n"
    "plain = {}\n\n\n"
    "def load():\n"
    "    global MAP, current, plain\n"
    "    MAP = build()\n    current = make()\n    plain = build()\n"
    "    MAP.items()\n    current.send()\n    plain.items()\n    nested.close()\n    twice.pop()\n\n\n"
    "def hides(MAP):\n    MAP.items()\n\n\n"
    "class Config:\n    plain: Client\n"
)


def test_a_global_annotated_at_top_level_keeps_its_class_where_a_function_rebinds_it():
    """httpx's ``HTTPCORE_EXC_MAP: dict[...] = {}`` re-bound by ``global HTTPCORE_EXC_MAP`` in a
    function: its ``.items()`` is the dict's, not the project's ``Headers.items``."""
    _, rel = parse_python_relations(ANNOTATED, "src/app/maps.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified}
    client = "self:app.client.Client"
    assert calls == {
        ("load", "items", "self:builtins.dict"),  # the annotation wins over `MAP = build()`
        ("load", "send", client),  # `Client | None`: the class
        ("load", "items", None),  # `plain`, not annotated (a class body's annotation is no global's)
        ("load", "close", client),  # annotated in a top-level `if` block
        ("load", "pop", None),  # annotated twice with two classes
        ("hides", "items", None),  # a parameter of the name hides the global
    }


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_calls_on_an_annotated_global_rebound_by_a_function_reach_its_class(make_project, engine):
    files = {
        "app/__init__.py": "",
        "app/flask.py": APP,
        "app/base.py": BASE,
        "app/lazy.py": (
            "from app.flask import Flask\n\n"
            "app: Flask | None = None\n\n\n"
            "def get():\n    global app\n    if app is None:\n        app = make()\n    return app.route('/')\n"
        ),
        **ROUTERS,
    }
    project = make_project(files, name="annotated", config=engine_config(engine, "annotated"))
    resync(project)
    assert callees(project, "app.lazy.get") == {("app.base.Scaffold.route", "extracted")}
