"""A caller that is one of a method's overloads (Java's ``toJson(Object)``, ``toJson(Object, Writer)``:
a node each, ``graph.build``) is served with the overload holding the call, on both engines."""

from __future__ import annotations

import pytest
from engine_projects import synced

from conftest import NOW
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

GSON = (
    "public class Gson {\n"
    "  public String toJson(Object src) {\n    return src.toString();\n  }\n\n"
    "  public void toJson(Object src, Writer writer) {\n    JsonWriter w = newJsonWriter(writer);\n  }\n\n"
    "  public JsonWriter newJsonWriter(Writer writer) {\n    return null;\n  }\n"
    "}\n"
)


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_caller_in_a_later_overload_is_served_with_the_overload_that_calls(make_project, engine):
    project = synced(make_project, {"src/Gson.java": GSON}, "overloads", engine, commit=False)
    answer = ask_project(project, "who calls newJsonWriter", now=NOW)
    assert answer.mode == "graph"
    first = answer.excerpts[0]
    assert first.fact.source.uri == "src/Gson.java:6-8"  # toJson(Object, Writer), not toJson(Object)
    assert first.path[-1]["line"] == 7
