"""Inheritance asked in words (graph/inheritance.py): what extends or implements a class ("what
extends BaseEntity", "which classes implement Serializable", "qui hérite de Base") and what a class
extends or implements ("what does Owner extend", "de quoi hérite GrandChild"). No edge is stored
for inheritance; the ``bases`` references each class's file wrote answer, read either way, on both
engines: the nearest classes first, then theirs, each with the ``extends`` steps that lead to it
and the line that declares the subclass."""

from __future__ import annotations

import pytest
from engine_projects import memory_ask

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.answer.relations import relation_of
from kenning.route.rules import route
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

PKG = "src/main/java/org/clinic/model"
FILES = {
    f"{PKG}/BaseEntity.java": (
        "package org.clinic.model;\n\nimport java.io.Serializable;\n\n"
        "public class BaseEntity implements Serializable {\n    private Integer id;\n}\n"
    ),
    f"{PKG}/Person.java": "package org.clinic.model;\n\npublic class Person extends BaseEntity {\n    String n;\n}\n",
    f"{PKG}/Owner.java": "package org.clinic.model;\n\npublic class Owner extends Person {\n    String city;\n}\n",
    f"{PKG}/OwnerRepository.java": (
        "package org.clinic.model;\n\nimport org.springframework.data.jpa.repository.JpaRepository;\n\n"
        "public interface OwnerRepository extends JpaRepository<Owner, Integer> {\n}\n"
    ),
    # two classes named Shape: a base written by its name alone is a guess
    "src/main/java/org/geo/Shape.java": "package org.geo;\n\npublic class Shape {\n}\n",
    "src/main/java/org/draw/Shape.java": "package org.draw;\n\npublic class Shape {\n    int sides;\n}\n",
    "src/main/java/org/geo/Circle.java": "package org.geo;\n\npublic class Circle extends Shape {\n}\n",
    # four classes named Widget: a base written by that name alone is none of them
    **{
        f"src/main/java/org/w{i}/Widget.java": f"package org.w{i};\n\npublic class Widget {{\n  int w{i};\n}}\n"
        for i in range(4)
    },
    "src/main/java/org/w0/ToolButton.java": "package org.w0;\n\npublic class ToolButton extends Widget {\n}\n",
    # Rust: a trait a type implements, in a block of its own (one of two the type has), here or elsewhere
    "printer/src/sink.rs": (
        "pub trait Sink {\n    fn matched(&mut self) -> bool;\n\n    fn finish(&mut self) -> bool {\n"
        "        true\n    }\n}\n\npub struct Standard<W> {\n    wtr: W,\n}\n\n"
        "impl<W> fmt::Display for Standard<W> {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
        "        Ok(())\n    }\n}\n\nimpl<W: Clone> Sink for Standard<W> {\n    fn matched(&mut self) -> bool {\n"
        "        self.finish()\n    }\n}\n"
    ),
    "printer/src/json.rs": (
        "use crate::sink::Sink;\n\npub struct Json;\n\nimpl Sink for Json {\n    fn matched(&mut self) -> bool {\n"
        "        false\n    }\n}\n\npub fn drive(sink: &mut dyn Sink) -> bool {\n    sink.matched()\n}\n"
    ),
    "printer/src/core.rs": (
        "use crate::sink::Sink;\n\npub struct Core<S> {\n    sink: S,\n}\n\n"
        "impl<S: Sink> Core<S> {\n    fn step(&mut self) -> bool {\n        self.sink.matched()\n    }\n}\n"
    ),
    "printer/src/types.rs": "pub struct Kind;\n",  # a module named by a word of "which types implement Sink"
    "web/src/store.ts": (
        "export interface Reader {\n  read(): string;\n}\n\n"
        "export interface Store extends Reader {\n  get(): void;\n}\n\n"
        "export class Memory implements Store {\n  get() {}\n  read() { return ''; }\n}\n"
    ),
    "cmd/value.go": "package cmd\n\ntype SliceValue interface {\n\tAppend(v string) error\n}\n",
    "app/__init__.py": "from app.base import Base\n",
    "app/base.py": "class Base:\n    def run(self):\n        return 1\n",
    "app/models.py": (
        "from app.base import Base\n\n\nclass Child(Base):\n    pass\n\n\nclass GrandChild(Child):\n    pass\n"
    ),
    "app/other.py": "from app import Base\n\n\nclass ViaPackage(Base):\n    pass\n",
    "lib/unrelated.py": "class Base:\n    pass\n\n\nclass Local(Base):\n    pass\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "subclasses")


def _found(answer) -> list[tuple[str, int, str]]:
    """(class, hops, the declaring line's source) of each excerpt, in rank order."""
    return [
        (e.explain["node"]["name"], e.explain["hops"], e.path[-1]["source"]["uri"] if e.path else "")
        for e in answer.excerpts
    ]


def test_what_extends_a_class_lists_its_subclasses_then_theirs_each_with_the_line_that_declares_it(project):
    answer = ask_project(project, "what extends BaseEntity", now=NOW)
    assert (answer.mode, answer.degradations) == ("graph", ()), answer.notes
    assert _found(answer) == [("Person", 1, f"{PKG}/Person.java:3-3"), ("Owner", 2, f"{PKG}/Owner.java:3-3")]
    owner = answer.excerpts[1]
    assert [(s["type"], s["link"], s["walked"]) for s in owner.path] == [
        ("extends", "extracted", "backward"),
        ("extends", "extracted", "backward"),
    ]
    assert [s["from"]["name"] for s in owner.path] == ["Person", "Owner"]
    assert owner.explain["relation"] == "subclasses" and owner.explain["direction"] == "incoming"


def test_an_agent_asking_through_mcp_gets_the_same_subclasses_and_their_extends_steps(project):
    content = memory_ask(project, "what extends BaseEntity", NOW)
    assert content["mode"] == "graph"
    excerpts = content["excerpts"]
    assert [e["explain"]["node"]["name"] for e in excerpts] == ["Person", "Owner"]
    assert {e["explain"]["relation"] for e in excerpts} == {"subclasses"}
    assert [step["type"] for step in excerpts[1]["path"]] == ["extends", "extends"]


def test_python_bases_named_in_the_same_file_imported_or_re_exported_by_a_package(project):
    answer = ask_project(project, "qui hérite de app.base.Base", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert [(name, hops) for name, hops, _ in _found(answer)] == [
        ("app.models.Child", 1),
        ("app.other.ViaPackage", 1),
        ("app.models.GrandChild", 2),
    ]  # not lib.unrelated.Local, whose Base is its own file's
    reexported = ask_project(project, "subclasses of app.Base", now=NOW)  # the name the package gives it
    assert [name for name, _, _ in _found(reexported)] == [name for name, _, _ in _found(answer)]


def test_a_base_from_outside_the_project_is_found_by_the_name_its_subclasses_give_it(project):
    answer = ask_project(project, "which classes implement Serializable", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert [(name, hops) for name, hops, _ in _found(answer)] == [("BaseEntity", 0), ("Person", 1), ("Owner", 2)]
    said = "no node named 'Serializable': the classes whose files name a base so follow"
    assert any(n.startswith(said) for n in answer.notes), answer.notes
    spring = ask_project(project, "quelles classes implémentent l'interface JpaRepository", now=NOW)
    assert [name for name, _, _ in _found(spring)] == ["OwnerRepository"], spring.notes


def test_a_base_named_alone_that_two_classes_bear_is_a_guess(project):
    answer = ask_project(project, "what extends Shape", now=NOW)
    assert [(e.explain["node"]["name"], e.path[0]["link"]) for e in answer.excerpts] == [("Circle", "heuristic")]
    certain = ask_project(project, "what extends Person", now=NOW)
    assert [(e.explain["node"]["name"], e.path[0]["link"]) for e in certain.excerpts] == [("Owner", "extracted")]


def test_a_class_with_no_subclass_is_an_empty_graph_answer(project):
    answer = ask_project(project, "what extends OwnerRepository", now=NOW)
    assert answer.mode == "graph" and answer.excerpts == ()
    assert "the graph holds no subclasses of OwnerRepository (exact)" in answer.notes


def test_what_a_class_extends_its_bases_then_theirs_and_those_outside_the_project_named(project):
    answer = ask_project(project, "what does Owner extend", now=NOW)
    assert (answer.mode, answer.degradations) == ("graph", ()), answer.notes
    assert [(name, hops) for name, hops, _ in _found(answer)] == [("Person", 1), ("BaseEntity", 2)]
    base = answer.excerpts[1]
    assert [(s["from"]["name"], s["to"]["name"], s["walked"]) for s in base.path] == [
        ("Owner", "Person", "forward"),
        ("Person", "BaseEntity", "forward"),
    ]
    assert base.path[-1]["source"]["uri"] == f"{PKG}/Person.java:3-3"  # the line declaring the subclass
    assert "bases from outside the project (no node): Serializable" in answer.notes
    french = ask_project(project, "de quoi hérite app.models.GrandChild", now=NOW)
    assert [(name, hops) for name, hops, _ in _found(french)] == [("app.models.Child", 1), ("app.base.Base", 2)]
    guessed = ask_project(project, "superclasses of Circle", now=NOW)  # two classes named Shape
    assert sorted((e.fact.source.uri, e.path[0]["link"]) for e in guessed.excerpts) == [
        ("src/main/java/org/draw/Shape.java:3-5", "heuristic"),
        ("src/main/java/org/geo/Shape.java:3-4", "heuristic"),
    ]


def test_a_rust_trait_is_implemented_by_the_types_of_its_impl_blocks_each_at_its_own_line(project):
    answer = ask_project(project, "which types implement Sink", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert sorted((name, uri) for name, _, uri in _found(answer)) == [
        ("Json", "printer/src/json.rs:5-5"),
        ("Standard", "printer/src/sink.rs:19-19"),  # its ``impl Sink`` block, not its ``impl Display`` one
    ]
    shown = {e.explain["node"]["name"]: e.fact.source.uri for e in answer.excerpts}
    assert shown["Standard"].startswith("printer/src/sink.rs:19-")  # that block's excerpt, not the struct's
    bases = ask_project(project, "what does Standard implement", now=NOW)
    assert [name for name, _, _ in _found(bases)] == ["Sink"]
    assert "bases from outside the project (no node): Display" in bases.notes
    # a self call in an impl block reaches the trait's default method
    callers = ask_project(project, "who calls Sink.finish", now=NOW)
    assert [e.explain["node"]["name"] for e in callers.excerpts] == ["Standard.matched"], callers.notes
    # a trait's required method is a symbol, and the type's two blocks one list of bases: the calls of
    # a method of the type count those written on the trait's
    implemented = ask_project(project, "who calls Standard.matched", now=NOW)
    assert "calls written on what it implements or overrides count too: Sink.matched" in implemented.notes
    # a call on a value of a type parameter bound by the trait (``sink: S``, ``S: Sink``) or on a trait
    # object (``sink: &mut dyn Sink``) is the trait's
    assert [e.explain["node"]["name"] for e in implemented.excerpts] == ["Core.step", "drive"], implemented.notes


def test_typescript_interfaces_implemented_by_a_class_and_extended_by_an_interface(project):
    answer = ask_project(project, "what implements Reader", now=NOW)
    assert [(name, hops) for name, hops, _ in _found(answer)] == [("Store", 1), ("Memory", 2)], answer.notes
    assert _found(answer)[1][2] == "web/src/store.ts:9-9"  # ``export class Memory implements Store``


def test_a_go_interface_says_its_implementations_are_found_by_their_methods(project):
    # no Go type declares Append here (tests/graph/test_graph_go_implements.py: those that do)
    answer = ask_project(project, "what implements SliceValue", now=NOW)
    assert answer.mode == "graph" and answer.excerpts == ()
    assert (
        "a Go type implements an interface without naming it: the types declaring its methods, by name" in answer.notes
    )


def test_a_base_too_many_classes_bear_is_none_of_them_and_not_said_to_be_outside_the_project(project):
    answer = ask_project(project, "what does ToolButton extend", now=NOW)
    assert answer.mode == "graph" and answer.excerpts == ()
    assert not any(n.startswith("bases from outside the project") for n in answer.notes), answer.notes


def test_which_interfaces_a_class_implements_and_which_classes_implement_one_are_told_apart():
    assert relation_of("quelles interfaces implémente OwnerRepository").name == "superclasses"
    assert relation_of("quelles classes implémentent OwnerRepository").name == "subclasses"
    assert relation_of("which interfaces does Owner implement").name == "superclasses"
    assert relation_of("which classes implement Serializable").name == "subclasses"


@pytest.mark.parametrize(
    "question",
    ["which module implements the retry logic", "how is the cache implemented", "quel module implémente le cache"],
)
def test_code_that_implements_something_stays_a_search(question):
    assert route(question).rule != "relation"
