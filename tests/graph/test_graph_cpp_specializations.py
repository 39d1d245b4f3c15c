"""A C++ class template's specialization is named by its template and its arguments without their
spaces (``formatter<date>``, ``formatter<std::pair<K,V>,Char>``), or by its template alone when they
run long (``struct formatter<Tuple, Char,\n enable_if_t<…>> {…}``, as {fmt}'s headers write them).
Such a name once went whole into its calls' hints, which split on spaces, and a cold sync of {fmt}
stopped in the graph's resolution (an IndexError on the empty words of its line breaks)."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import resync
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FORMAT_H = (
    "namespace fmt {\n\n"
    "template <typename T, typename Char, typename Enable = void> struct formatter {\n"
    "  void report_error() {}\n"
    "};\n\n"
    "struct parse_context {\n  void report_error() {}\n};\n\n"
    "template <typename Tuple, typename Char>\n"
    "struct formatter<Tuple, Char,\n"
    "                 enable_if_t<is_tuple_like<Tuple>::value &&\n"
    "                             is_tuple_formattable<Tuple, Char>::value>> {\n"
    "  void set_brackets() {}\n"
    "  void parse() {\n"
    "    set_brackets();\n"
    "    report_error();\n"
    "  }\n"
    "};\n\n"
    "template <> struct formatter<date> {\n  void format() { set_brackets(); }\n  void set_brackets() {}\n};\n\n"
    "template <typename K, typename V> struct formatter<std::pair<K, V>,\n    char> {\n  void parse() {}\n};\n\n"
    "}  // namespace fmt\n"
)


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_specialization_is_named_by_its_template_and_its_calls_resolve(make_project, engine):
    project = make_project(
        {"include/fmt/ranges.h": FORMAT_H}, name="cppspecial", config=engine_config(engine, "cppspecial")
    )
    resync(project)
    # the specialization's own method is its own; `report_error` is the class's (the primary
    # template's, same name) or a guess between the two: never the whole template text as a class
    assert ("fmt.formatter.set_brackets", "extracted") in callees(project, "fmt.formatter.parse")
    assert all("\n" not in name and "<" not in name for name, _ in callees(project, "fmt.formatter.parse"))
    # short arguments name the specialization, without their spaces: its own method is its own
    assert callees(project, "fmt.formatter<date>.format") == {("fmt.formatter<date>.set_brackets", "extracted")}
    assert callees(project, "fmt.formatter<std::pair<K,V>,char>.parse") == set()  # the node is there, calling none
