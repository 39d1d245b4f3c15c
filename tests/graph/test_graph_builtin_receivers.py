"""A method called on a builtin value reaches no project method (branch walk4): on a literal
(``", ".join(parts)``, ``"{}".format(x)``, ``{}.get(k)``), on a name bound one way only to a
literal (``table = {}``) or to a builtin class (``names = list(x)``), on a name annotated with a
builtin class or container (``x: dict``, ``x: dict[str, int]``, ``typing.List[int]``). httpx's
``HTTPCORE_EXC_MAP.items()`` and every ``", ".join()`` were callers of the project's own
``items`` and ``join`` methods. An untyped parameter keeps the attribute-call rule; a file that
shadows a builtin class (``class dict``) keeps its own. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import resync
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

MODELS = (
    "class Headers:\n    def items(self):\n        return []\n\n    def get(self, key):\n        return key\n\n\n"
    "class Path:\n    def join(self, other):\n        return other\n\n    def format(self):\n        return ''\n"
)
USES = (
    "import typing\n\n"
    "LOOKUP: dict[str, int] = {}\n"
    "PLAIN: dict = {}\n\n\n"
    "def literals(parts):\n"
    "    return ', '.join(parts) + '{}'.format(1) + f'{parts}'.join(parts) + {}.get(1)\n\n\n"
    "def bound():\n"
    "    table = {}\n    names = list(table)\n    words = [w for w in names]\n"
    "    return table.items(), names.copy(), words.index(1)\n\n\n"
    "def annotated(a: dict, b: typing.List[int], c: list[Headers] | None = None):\n"
    "    return a.get(1), b.index(2), c.copy(), LOOKUP.items(), PLAIN.get(2)\n\n\n"
    "def untyped(thing, other=None):\n"
    "    return thing.items(), other.join(thing)\n"
)
SHADOWED = (
    "class dict:\n    def get(self, key):\n        return key\n\n\n"
    "def use():\n    table = dict()\n    return table.get(1)\n"
)


def test_the_parser_names_the_builtin_class_of_a_literal_or_builtin_typed_receiver():
    _, rel = parse_python_relations(USES, "src/app/uses.py")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified}
    assert not {c for c in calls if c[0] == "literals"}  # a method of a literal: no reference at all
    assert {c for c in calls if c[0] in ("bound", "annotated")} == {
        ("bound", "items", "self:builtins.dict"),
        ("bound", "copy", "self:builtins.list"),
        ("bound", "index", "self:builtins.list"),
        ("annotated", "get", "self:builtins.dict"),  # a: dict, and PLAIN: dict
        ("annotated", "index", "self:builtins.list"),  # typing.List[int]
        ("annotated", "copy", "self:builtins.list"),  # list[Headers] | None: a list, not a Headers
        ("annotated", "items", "self:builtins.dict"),  # LOOKUP: dict[str, int]
    }
    assert {c for c in calls if c[0] == "untyped"} == {("untyped", "items", None), ("untyped", "join", None)}
    _, rel = parse_python_relations(SHADOWED, "src/app/shadow.py")
    assert {(r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified} == {("get", "self:.dict")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_method_called_on_a_builtin_value_reaches_no_project_method(make_project, engine):
    files = {"app/__init__.py": "", "app/models.py": MODELS, "app/uses.py": USES}
    project = make_project(files, name="builtins", config=engine_config(engine, "builtins"))
    resync(project)
    for caller in ("literals", "bound", "annotated"):
        assert callees(project, f"app.uses.{caller}") == set(), caller
    assert callees(project, "app.uses.untyped") == {
        ("app.models.Headers.items", "heuristic"),
        ("app.models.Path.join", "heuristic"),
    }
