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


OWNER = (
    "public class Owner {\n"
    "  public Pet getPet(String name) {\n    return getPet(name, false);\n  }\n\n"
    "  public Pet getPet(String name, boolean ignoreNew) {\n    return null;\n  }\n\n"
    "  public void addVisit(String name) {\n    getPet(name).visit();\n  }\n"
    "}\n"
)


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_an_overload_calling_another_is_among_the_method_s_callers(make_project, engine):
    project = synced(make_project, {"src/Owner.java": OWNER}, "overloads2", engine, commit=False)
    answer = ask_project(project, "who calls Owner.getPet", now=NOW)
    assert answer.mode == "graph", answer.notes
    callers = [(e.explain["node"]["name"], e.fact.source.uri) for e in answer.excerpts]
    assert ("Owner.getPet", "src/Owner.java:2-4") in callers, callers  # getPet(String) calls getPet(String, boolean)
    assert ("Owner.addVisit", "src/Owner.java:10-12") in callers, callers
    callees = ask_project(project, "what does Owner.getPet call", now=NOW)
    assert [e.fact.source.uri for e in callees.excerpts] == ["src/Owner.java:6-8"], callees.notes
