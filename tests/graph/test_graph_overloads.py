"""A method's overloads are a node each (Java's ``getPet(String)`` and ``getPet(Integer)``): in
spring-petclinic ``Owner.getPet`` was one node with the first overload's lines, the other
overloads' calls were its own, ``owner.getPet(petId)`` led to ``getPet(String name)`` (``extracted``)
and ``graph neighbours kn://petclinic/97`` (``getPet(Integer id)``'s excerpt) found no node. A call
of an overloaded name reaches each overload, ``heuristic`` (the arguments' types, which decide,
are not read), and the overloads of one method count once against ``MAX_AMBIGUOUS``. A Python name
defined twice stays one node."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.store import graph as graph_store
from kenning.store.db import open_store
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

OWNER = (
    "class Owner {\n"
    "    public Pet getPet(String name) {\n"  # 2
    "        return getPet(name, false);\n"
    "    }\n\n"
    "    public Pet getPet(Integer id) {\n"  # 6
    "        for (Pet pet : getPets()) {\n"
    "            return pet;\n"
    "        }\n"
    "        return null;\n"
    "    }\n\n"
    "    public Pet getPet(String name, boolean ignoreNew) {\n"  # 13
    "        return null;\n"
    "    }\n\n"
    "    public List<Pet> getPets() {\n"
    "        return null;\n"
    "    }\n"
    "}\n"
)
# six constructors and the class: one target for ``new Store()``, not seven homonyms
STORE = "class Store {\n" + "".join(f"    Store({', '.join(['int a'] * n)}) {{ }}\n" for n in range(6)) + "}\n"
FILES = {
    "src/Owner.java": OWNER,
    "src/Store.java": STORE,
    "src/PetController.java": (
        "class PetController {\n    void show(Owner owner, Integer petId) {\n        Pet pet = owner.getPet(petId);\n"
        "        Store s = new Store();\n    }\n}\n"
    ),
    "app/twice.py": "def run():\n    return 1\n\n\ndef run():\n    return 2\n\n\ndef go():\n    return run()\n",
    # overloads on one line: the second and the third are one node (their key is the line's)
    "src/Line.java": (
        "class Line { int f() { return 1; } int f(int x) { return x; } int f(int x, int y) { return x; } }\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def clinic(request, make_project):
    return synced_on(request.param, make_project, FILES, "overloads")


def _nodes(project, qualname: str) -> list:
    conn = open_store(project)
    try:
        return sorted(graph_store.nodes_by(conn, "qualname", qualname, limit=20), key=lambda n: n.line_start)
    finally:
        conn.close()


def _edges(project, node, edge_type: str, *, forward: bool) -> set[tuple[str, int | None, str]]:
    """(qualified name, first line, link) of the nodes ``node``'s ``edge_type`` edges reach, one way."""
    conn = open_store(project)
    try:
        found = graph_store.edges_of(conn, node)
    finally:
        conn.close()
    return {
        ((e.dst if way else e.src).qualname, (e.dst if way else e.src).line_start, e.link)
        for e, way in found
        if way == forward and e.type == edge_type
    }


def test_each_overload_is_a_node_with_its_lines_its_excerpt_and_its_own_calls(clinic):
    overloads = _nodes(clinic, "Owner.getPet")
    assert [(n.line_start, n.line_end) for n in overloads] == [(2, 4), (6, 11), (13, 15)]
    assert len({n.fact_id for n in overloads}) == 3 and None not in {n.fact_id for n in overloads}
    by_string, by_id, _ = overloads
    # getPets is called from getPet(Integer id) only; getPet(String name) calls the two others
    assert _edges(clinic, by_id, "calls", forward=True) == {("Owner.getPets", 17, "extracted")}
    assert _edges(clinic, by_string, "calls", forward=True) == {
        ("Owner.getPet", 6, "heuristic"),
        ("Owner.getPet", 13, "heuristic"),
    }


def test_a_call_of_an_overloaded_name_reaches_each_overload_as_a_guess(clinic):
    (show,) = _nodes(clinic, "PetController.show")
    calls = _edges(clinic, show, "calls", forward=True)
    assert {c for c in calls if c[0] == "Owner.getPet"} == {
        ("Owner.getPet", 2, "heuristic"),
        ("Owner.getPet", 6, "heuristic"),
        ("Owner.getPet", 13, "heuristic"),
    }
    # the class and its six constructors are one target: an edge to each, none dropped as ambiguous
    assert len({c for c in calls if c[0].startswith("Store")}) == 7
    answer = ask_project(clinic, "who calls Owner.getPet", now=NOW)
    assert answer.notes[1] == "relation callers (incoming) from Owner.getPet (exact)", answer.notes
    assert [e.fact.title for e in answer.excerpts][:1] == ["void show(Owner owner, Integer petId) {"]


def test_a_python_name_defined_twice_stays_one_node(clinic):
    (run,) = _nodes(clinic, "app.twice.run")
    (go,) = _nodes(clinic, "app.twice.go")
    assert _edges(clinic, go, "calls", forward=True) == {("app.twice.run", run.line_start, "extracted")}


def test_each_symbol_node_is_defined_once_overloads_on_one_line_included(clinic):
    """A file's ``defines`` edges (stored by PostgreSQL, derived by SQLite): one per symbol node, none
    twice for the overloads one line holds."""
    conn = open_store(clinic)
    try:
        (file,) = graph_store.nodes_by(conn, "file_path", "src/Line.java", limit=1)
        defined = [e.dst.key for e, forward in graph_store.edges_of(conn, file) if forward and e.type == "defines"]
    finally:
        conn.close()
    assert sorted(defined) == [
        "symbol:src/Line.java:Line",
        "symbol:src/Line.java:Line.f",
        "symbol:src/Line.java:Line.f#1",
    ]
