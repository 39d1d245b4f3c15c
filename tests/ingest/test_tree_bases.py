"""The bases a class's file names (``bases`` references, ``tree_calls``): read by resolution to follow
a self call into a base, and by the inheritance relations (``graph.inheritance``). A nested type is
named by its last name, generic or not; Rust names a type's traits block by block."""

from __future__ import annotations

import pytest

from kenning.ingest.parsers import load_relations, parser_for


def bases(source: str, path: str) -> list[tuple[str, int | None, str | None]]:
    _, relations = load_relations(parser_for(path))(source, path)
    return [(r.target, r.line, r.hint) for r in relations.refs if r.type == "bases"]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("src/A.kt", "class A : JsonAdapter.Factory, Base<T>(), Outer.Inner<X> {\n}\n"),
        ("Sources/A.swift", "class A: JsonAdapter.Factory, Base<T>, Outer.Inner<X> {\n}\n"),
        ("src/A.java", "class A extends JsonAdapter.Factory implements Base<T>, Outer.Inner<X> {\n}\n"),
    ],
)
def test_a_nested_type_is_a_base_by_its_last_name_generic_or_not(path, source):
    assert bases(source, path) == [("A", 1, ".A Factory Base Inner")]


def test_typescript_implements_and_an_interface_s_extends_are_bases():
    source = (
        "interface Store extends Reader, Writer<T> {\n  get(): void;\n}\n"
        "class Memory extends Base implements Store, Api<X> {\n  get() {}\n}\n"
    )
    assert bases(source, "src/store.ts") == [
        ("Store", 1, ".Store Reader Writer"),
        ("Memory", 4, ".Memory Base Store Api"),
    ]


def test_rust_names_a_type_s_traits_block_by_block_each_at_its_own_line():
    source = (
        "struct Standard<W> {\n    wtr: W,\n}\n\n"
        "impl<W> fmt::Display for Standard<W> {\n    fn fmt(&self) {}\n}\n\n"
        "impl<W: Clone> Sink for Standard<W> {\n    fn matched(&mut self) -> bool {\n        self.finish()\n    }\n}\n"
    )
    assert bases(source, "src/sink.rs") == [("Standard", 5, ".Standard Display"), ("Standard", 9, ".Standard Sink")]
    _, relations = load_relations(parser_for("src/sink.rs"))(source, "src/sink.rs")
    (call,) = [r for r in relations.refs if r.type == "calls"]
    assert call.hint == "self:.Standard Display Sink"  # a self call may reach either trait's default method


def test_a_rust_trait_s_required_methods_are_symbols():
    source = "pub trait Sink {\n    /// Called on a match.\n    fn matched(&mut self) -> bool;\n}\n"
    _, relations = load_relations(parser_for("src/sink.rs"))(source, "src/sink.rs")
    assert [(s.qualname, s.kind, s.line_start, s.line_end) for s in relations.symbols] == [
        ("Sink", "trait", 1, 1),
        ("Sink.matched", "method", 2, 3),
    ]
