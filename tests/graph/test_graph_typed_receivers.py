"""A call on a receiver of known class (branch receivers): ``x = Client()`` then ``x.send()``,
``def f(x: Client)``, ``x: Client = ...``, ``self.conn = Client()`` then ``self.conn.send()``
reach ``Client.send`` (or the method of its first base that defines it), however many methods
share the name; a name bound otherwise too, an unknown class or an untyped parameter keep the
attribute-call rule. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

PARSED = (
    "from typing import Optional\n"
    "from app.client import Client\n"
    "from app import client as clients\n\n\n"
    "class Local:\n    def go(self):\n        return 1\n\n\n"
    "class Holder:\n"
    "    def __init__(self, other):\n"
    "        self.conn = clients.Client()\n"
    "        self.twice = Local()\n"
    "        self.other = other\n\n"
    "    def use(self):\n"
    "        self.conn.send()\n"
    "        self.twice.go()\n"
    "        self.other.go()\n\n"
    "    def later(self):\n"
    "        self.twice = None\n\n\n"
    "def typed(a: Client, b: 'Client', c: Optional[Client], d: Client | None = None):\n"
    "    a.send()\n    b.open()\n    c.close()\n    d.reset()\n"
    "    e: Client = make()\n    e.flush()\n"
    "    f = Local()\n    f.go()\n\n\n"
    "def untyped(a, b=None):\n"
    "    a.send()\n"
    "    c = Local()\n    c = 3\n    c.go()\n"
    "    for d in []:\n        d.open()\n    d = Client()\n"
    "    e = make()\n    e.close()\n"
    "    g = unknown.Thing()\n    g.flush()\n"
    "    h = Client()\n    h.reset()\n    return lambda h: h\n"
)


def test_the_parser_names_the_class_of_a_typed_local_or_attribute_in_the_calls_hint():
    _, rel = parse_python_relations(PARSED, "src/app/views.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified and r.target.islower()}
    client = "self:app.client.Client"
    assert calls == {
        ("Holder.use", "send", client),  # self.conn = clients.Client() in __init__
        ("Holder.use", "go", None),  # self.twice bound twice (Local(), None); self.other untyped
        ("typed", "send", client),  # a: Client
        ("typed", "open", client),  # b: 'Client'
        ("typed", "close", client),  # Optional[Client]
        ("typed", "reset", client),  # Client | None
        ("typed", "flush", client),  # e: Client = make()
        ("typed", "go", "self:.Local"),  # a class of the file, as a self call's hint names it
        ("untyped", "send", None),  # an untyped parameter
        ("untyped", "go", None),  # re-bound to something else
        ("untyped", "open", None),  # a loop variable, then a Client
        ("untyped", "close", None),  # a function's result
        ("untyped", "flush", None),  # a class the file cannot name
        ("untyped", "reset", None),  # h: a lambda's parameter hides it
    }


CLIENT = (
    "from app.base import Base\n\n\n"
    "class Client(Base):\n"
    "    def send(self):\n        return 1\n\n"
    "    def update(self, words):\n        return words\n"
)
BASE = "class Base:\n    def close(self):\n        return True\n"
USES = (
    "from collections import Counter\n\nfrom app.client import Client\n\n\n"
    "def local():\n    client = Client()\n    client.send()\n    return client.close()\n\n\n"
    "def annotated(client: Client):\n    return client.send()\n\n\n"
    "class Service:\n"
    "    def __init__(self):\n        self.client = Client()\n\n"
    "    def run(self):\n        return self.client.send()\n\n\n"
    "def rebound():\n    client = Client()\n    client = make()\n    return client.send()\n\n\n"
    "def unknown():\n    client = Unknown()\n    return client.send()\n\n\n"
    "def untyped(client):\n    return client.send()\n\n\n"
    "def make():\n    return None\n\n\n"
    "def tally(words):\n    counts = Counter(words)\n    counts.update(words)\n    return counts.close()\n"
)
# as many other methods named `send` and `close` as make them too shared to link by name
SENDERS = {
    f"app/sender{i}.py": f"class Sender{i}:\n    def send(self):\n        return {i}\n\n"
    f"    def close(self):\n        return {i}\n"
    for i in range(6)
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_calls_on_a_typed_local_parameter_or_attribute_reach_the_method_of_its_class(make_project, engine):
    files = {"app/__init__.py": "", "app/client.py": CLIENT, "app/base.py": BASE, "app/uses.py": USES, **SENDERS}
    project = make_project(files, name="typed", config=engine_config(engine, "typed"))
    resync(project)
    send = ("app.client.Client.send", "extracted")
    # close: defined on Client's base, which Client's file imports (two files away)
    close = ("app.base.Base.close", "extracted")
    assert callees(project, "app.uses.local") == {send, close, ("app.client.Client", "extracted")}
    assert callees(project, "app.uses.annotated") == {send}
    assert callees(project, "app.uses.Service.run") == {send}
    # re-bound, an unknown class, an untyped parameter: an attribute call, 7 homonyms, no edge
    assert callees(project, "app.uses.rebound") == {("app.client.Client", "extracted"), ("app.uses.make", "extracted")}
    assert callees(project, "app.uses.unknown") == set()
    assert callees(project, "app.uses.untyped") == set()
    answer = ask_project(project, "who calls Client.send", now=NOW)
    assert answer.mode == "graph"
    callers = {e.fact.source.uri.split(":")[0] for e in answer.excerpts}
    assert callers == {"app/uses.py"}, callers


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_the_negative_cases_reach_a_lone_method_heuristically(make_project, engine):
    """Never worse than before: where ``send`` is one method, the calls no type explains still
    reach it heuristically, as ``obj.send()`` did."""
    files = {"app/__init__.py": "", "app/client.py": CLIENT, "app/base.py": BASE, "app/uses.py": USES}
    project = make_project(files, name="lone", config=engine_config(engine, "lone"))
    resync(project)
    # a class imported from outside the project: neither its methods nor its bases' are the project's
    assert callees(project, "app.uses.tally") == set()
    for caller in ("untyped", "unknown"):
        assert ("app.client.Client.send", "heuristic") in callees(project, f"app.uses.{caller}")
    assert callees(project, "app.uses.rebound") == {
        ("app.client.Client", "extracted"),
        ("app.client.Client.send", "heuristic"),
        ("app.uses.make", "extracted"),
    }
    assert callees(project, "app.uses.local") == {
        ("app.client.Client", "extracted"),
        ("app.client.Client.send", "extracted"),
        ("app.base.Base.close", "extracted"),
    }


DETAIL = (
    "from app.base import Root\n\n\n"
    "class Mixin(Root):\n    def context(self):\n        return {}\n\n\n"
    "class BaseDetail(Mixin):\n    def get(self):\n        return self.get_object()\n"
)
DATES = (
    "from app.detail import BaseDetail\n\n\n"
    "class DateDetail(BaseDetail):\n"
    "    def show(self):\n        return self.get_object(), self.context(), super().get()\n"
)
ROOT = "class Root:\n    def get_object(self):\n        return 1\n"
GETTERS = {
    f"app/getter{i}.py": f"class Getter{i}:\n    def get_object(self):\n        return {i}\n\n"
    f"    def context(self):\n        return {i}\n\n    def get(self):\n        return {i}\n"
    for i in range(6)
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_self_call_reaches_the_method_of_a_base_two_imports_up(make_project, engine):
    """``DateDetail`` (dates.py) imports ``BaseDetail`` (detail.py), whose base ``Mixin`` has
    the base ``Root``, imported from base.py: ``self.get_object()`` reaches ``Root.get_object``,
    however many methods share the name."""
    files = {"app/__init__.py": "", "app/base.py": ROOT, "app/detail.py": DETAIL, "app/dates.py": DATES, **GETTERS}
    project = make_project(files, name="upwards", config=engine_config(engine, "upwards"))
    resync(project)
    assert callees(project, "app.dates.DateDetail.show") == {
        ("app.base.Root.get_object", "extracted"),
        ("app.detail.Mixin.context", "extracted"),
        ("app.detail.BaseDetail.get", "extracted"),  # super().get()
    }
    assert callees(project, "app.detail.BaseDetail.get") == {("app.base.Root.get_object", "extracted")}
    answer = ask_project(project, "who calls Root.get_object", now=NOW)
    assert {e.fact.source.uri.split(":")[0] for e in answer.excerpts} == {"app/dates.py", "app/detail.py"}
