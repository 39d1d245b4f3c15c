"""A Rust value of a type parameter bound by a trait (``sink: S`` with ``S: Sink``, on the function,
on its ``impl`` block or in a ``where`` clause), a trait object (``&mut dyn Sink``) or an ``impl
Trait`` is called as one of the trait: ripgrep's searcher calls its sink so, and those calls
reached no method before (``S`` names no type of the project)."""

from __future__ import annotations

from kenning.ingest.parsers import load_relations, parser_for

SOURCE = """use crate::sink::Sink;

pub struct Core<'s, M: 's, S> {
    matcher: M,
    sink: S,
}

impl<'s, M: Matcher, S: Sink> Core<'s, M, S> {
    fn matched(&mut self) -> bool {
        self.sink.matched()
    }
}

fn run<S: Sink>(sink: &mut S, other: &mut dyn Sink, third: impl Sink, plain: S) {
    sink.begin();
    other.finish();
    third.context();
}

fn walk<W>(w: W) where W: Walker + Clone {
    w.next_item();
}

fn free<T>(t: T) {
    t.anything();
}
"""


def test_a_value_of_a_bounded_type_parameter_a_trait_object_or_impl_trait_is_called_as_the_trait_s():
    _, relations = load_relations(parser_for("src/core.rs"))(SOURCE, "src/core.rs")
    calls = [(r.target, r.scope, r.hint) for r in relations.refs if r.type == "calls"]
    assert calls == [
        ("matched", "Core.matched", "self:.Sink"),  # a field of a type parameter of the impl block
        ("begin", "run", "self:.Sink"),
        ("finish", "run", "self:.Sink"),
        ("context", "run", "self:.Sink"),
        ("next_item", "walk", "self:.Walker"),  # bound in a where clause
        ("anything", "free", "self:.T"),  # no bound: the parameter's own name, as before
    ]


def test_a_trait_object_behind_a_shared_pointer_types_a_parameter_or_a_field_and_supertraits_are_bases():
    source = (
        "pub trait Printer: Sink + fmt::Debug {\n    fn p(&self);\n}\n\n"
        "struct C {\n    sink: Box<dyn Sink>,\n    m: Arc<dyn Matcher + Send>,\n}\n\n"
        "impl C {\n    fn go(&self, r: Rc<dyn Printer>) {\n        self.sink.matched();\n        self.m.find_at();\n"
        "        r.p();\n    }\n}\n"
    )
    _, relations = load_relations(parser_for("src/c.rs"))(source, "src/c.rs")
    assert [(r.type, r.target, r.hint) for r in relations.refs] == [
        ("calls", "matched", "self:.Sink"),
        ("calls", "find_at", "self:.Matcher"),
        ("calls", "p", "self:.Printer Sink Debug"),  # the trait, then its supertraits
        ("bases", "Printer", ".Printer Sink Debug"),
    ]
