"""Go's interfaces are satisfied without being named (``graph.go_interfaces``): "what implements
Shape" finds the types whose package declares every method Shape declares, on ``T`` or ``*T``, in
any of its files — each by a ``heuristic`` ``implements`` step sourced by the type's declaration,
on both engines. A type missing one method, another interface, and the interface itself are not
implementers (gin, walked: "what implements the Binding interface" served interfaces). Read the
other way, "which interfaces does Circle implement" finds the interfaces whose methods it declares."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "go.mod": "module github.com/acme/geo\n\ngo 1.21\n",
    "shapes/shape.go": (
        "package shapes\n\n// Shape is anything with an area and a perimeter.\ntype Shape interface {\n"
        "\tArea() float64\n\tPerimeter() float64\n}\n\n"
        "// Solid is a shape with a volume too: an interface, no implementer.\ntype Solid interface {\n"
        "\tArea() float64\n\tPerimeter() float64\n\tVolume() float64\n}\n"
    ),
    "shapes/square.go": (
        "package shapes\n\ntype Square struct {\n\tSide float64\n}\n\n"
        "func (s *Square) Area() float64 {\n\treturn s.Side * s.Side\n}\n"
    ),
    "shapes/square_perimeter.go": (  # the other method, in another file of the package
        "package shapes\n\nfunc (s Square) Perimeter() float64 {\n\treturn 4 * s.Side\n}\n"
    ),
    "shapes/line.go": (  # one method of two: no implementer
        "package shapes\n\ntype Line struct {\n\tLength float64\n}\n\nfunc (l Line) Area() float64 {\n\treturn 0\n}\n"
    ),
    "round/circle.go": (  # another package: Go does not care where
        "package round\n\ntype Circle struct {\n\tRadius float64\n}\n\n"
        "func (c Circle) Area() float64 {\n\treturn 3.14 * c.Radius * c.Radius\n}\n\n"
        "func (c Circle) Perimeter() float64 {\n\treturn 2 * 3.14 * c.Radius\n}\n"
    ),
    "round/oval.go": (  # Area and Perimeter split between two types of one package: neither has both
        "package round\n\ntype Oval struct{}\n\ntype Ring struct{}\n\n"
        "func (o Oval) Area() float64 {\n\treturn 1\n}\n\nfunc (r Ring) Perimeter() float64 {\n\treturn 1\n}\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "geo")


def test_the_types_declaring_every_method_of_an_interface_implement_it(project) -> None:
    answer = ask_project(project, "what implements Shape", now=NOW, explain=True)
    assert answer.mode == "graph", answer.notes
    found = {e.fact.title: e for e in answer.excerpts}
    assert set(found) == {"type Square struct {", "type Circle struct {"}, list(found)
    square = found["type Square struct {"]
    assert [(s["type"], s["link"], s["walked"], s["source"]["uri"]) for s in square.path] == [
        ("implements", "heuristic", "backward", "shapes/square.go:3-5")
    ]
    assert square.freshness.state.value == "current"
    assert all(s["freshness"] == "current" for e in answer.excerpts for s in e.path), [e.path for e in answer.excerpts]
    french = ask_project(project, "qui implémente Shape", now=NOW)
    assert {e.fact.title for e in french.excerpts} == set(found)


def test_an_interface_that_covers_it_and_other_questions_are_left_alone(project) -> None:
    solid = ask_project(project, "what implements Solid", now=NOW)
    assert not any(e.path and e.path[-1]["type"] == "implements" for e in solid.excerpts)
    callers = ask_project(project, "who calls Area", now=NOW)
    assert not any(e.path and e.path[-1]["type"] == "implements" for e in callers.excerpts)


def test_the_interfaces_a_go_type_implements(project) -> None:
    answer = ask_project(project, "which interfaces does Circle implement", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert [e.fact.title for e in answer.excerpts] == ["type Shape interface {"], answer.notes
    assert [(s["type"], s["link"], s["walked"]) for s in answer.excerpts[0].path] == [
        ("implements", "heuristic", "forward")
    ]
    line = ask_project(project, "what does Line implement", now=NOW)  # Area alone: no interface
    assert not any(e.path and e.path[-1]["type"] == "implements" for e in line.excerpts)
