"""A Go interface's methods are definitions of their own (parser ``code/26``,
``ingest.tree_defs._go_interface``): pocketbase's ``App`` interface (1,535 lines) was one excerpt
and none of its methods a node, so "who calls App.Save" had no answer and a question about one
method was served the whole interface. Now each method has a symbol, its doc comment and its
excerpt, and a call on a value of the interface's type reaches it, on both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.answer.search import search_project
from kenning.ingest.tree_code import parse_code_relations
from kenning.search.options import SearchOptions
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

APP = (
    "package core\n\n// App is the main interface of the application.\ntype App interface {\n"
    "\t// Save validates and persists a record in the data database.\n\tSave(record int) error\n\n"
    "\t// Logger returns the active application logger.\n\tLogger() string\n\n\tio.Closer\n}\n"
)
FILES = {
    "go.mod": "module github.com/acme/base\n\ngo 1.21\n",
    "core/app.go": APP,
    "apis/record.go": (
        'package apis\n\nimport "github.com/acme/base/core"\n\n'
        "func CreateRecord(app core.App) error {\n\treturn app.Save(1)\n}\n"
    ),
}


def test_a_go_interfaces_methods_are_symbols_with_their_own_excerpts():
    chunks, rel = parse_code_relations(APP, "core/app.go")
    assert [(s.qualname, s.line_start, s.line_end) for s in rel.symbols] == [
        ("App", 3, 4),
        ("App.Save", 5, 6),
        ("App.Logger", 8, 9),
    ]
    save = next(c for c in chunks if c.meta.get("symbol") == "App.Save")
    assert save.meta["kind"] == "method" and "validates and persists" in save.body


@pytest.fixture(params=["sqlite", ENGINE])
def base(request, make_project):
    return synced_on(request.param, make_project, FILES, "gobase")


def test_a_call_on_a_value_of_the_interfaces_type_reaches_its_method(base):
    answer = ask_project(base, "who calls App.Save", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert [e.fact.title for e in answer.excerpts] == ["func CreateRecord(app core.App) error {"], answer.notes
    found = search_project(base, "validates and persists a record", SearchOptions(), now=NOW)
    assert found.excerpts[0].fact.source.uri == "core/app.go:5-6"
