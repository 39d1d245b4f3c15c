from __future__ import annotations

import pytest

from kenning.ingest.parsers import parser_for
from kenning.ingest.tree_code import parse_code_relations

SAMPLES = {
    "svc/server.go": (
        'package main\n\nimport (\n  "fmt"\n  "github.com/x/y/v2"\n)\n\ntype Server struct {\n  x int\n}\n\n'
        "func (s *Server) Run() {\n  fmt.Println(1)\n}\n\nfunc main() {}\n",
        {("Server", 8), ("Server.Run", 12), ("main", 16)},
        {("module", "go:y")},  # the package its path names (``go_packages``); the standard library's none
    ),
    "src/lib.rs": (
        "use std::io;\n\nstruct P { x: i32 }\n\nimpl P {\n    fn new() -> P { P { x: 1 } }\n}\n\nfn main() {}\n",
        {("P", 3), ("P", 5), ("P.new", 6), ("main", 9)},
        {("module", "std::io")},
    ),
    "src/A.java": (
        "import java.util.List;\n\npublic class A {\n  public A() {}\n  void run() {}\n}\n",
        {("A", 3), ("A.A", 4), ("A.run", 5)},
        {("module", "java.util.List")},
    ),
    "src/a.c": (
        '#include "b.h"\n#include <stdio.h>\n\nstruct s { int a; };\n\nint *f(int x) {\n  return 0;\n}\n',
        {("s", 4), ("f", 6)},
        {("file", "src/b.h"), ("module", "stdio.h")},
    ),
    "src/a.cpp": (
        "#include <vector>\nnamespace n {\nclass K {\n public:\n  void m() {}\n};\n}\n",
        {("n", 2), ("n.K", 3), ("n.K.m", 5)},
        {("module", "vector")},
    ),
    # members defined outside their class, named as the class's; an anonymous namespace's kept
    "src/impl.cc": (
        "namespace n {\nnamespace {\nclass R {\n  void go() {}\n};\n}\n"
        "void K::m() {}\ntemplate <typename T>\nvoid L<T>::put(T t) {}\nK::~K() {}\nstruct K::Rep {\n  int x;\n};\n}\n",
        {("n", 1), ("n.R", 3), ("n.R.go", 4), ("n.K.m", 7), ("n.L.put", 9), ("n.K.~K", 10), ("n.K.Rep", 11)},
        set(),
    ),
    "lib/a.rb": (
        "require_relative 'b'\n\nmodule M\n  class C\n    def run\n    end\n  end\nend\n",
        {("M", 3), ("M.C", 4), ("M.C.run", 5)},
        {("stem", "lib/b")},
    ),
    "web/a.js": (
        "import x from './y.js';\nexport const f = () => 1;\nfunction g() {}\n",
        {("f", 2), ("g", 3)},
        {("stem", "web/y")},
    ),
}


def test_a_header_that_reads_as_cpp_is_read_as_cpp_and_an_export_macro_hides_no_class():
    """Most headers of a C++ project are ``.h`` (leveldb's ``db/memtable.h``): read with C's
    grammar, their classes and inline methods were no symbols; ``class LEVELDB_EXPORT Slice {``
    read as a function named ``Slice``. A C header stays C (parser ``code/6``)."""
    header = (
        "#include <string>\nnamespace db {\nclass LEVELDB_EXPORT Slice {\n public:\n"
        "  size_t size() const { return n_; }\n private:\n  size_t n_;\n};\n"
        "struct EXPORT Options : public Base {\n  int x() { return 1; }\n};\n}\n"
    )
    chunks, rel = parse_code_relations(header, "db/slice.h")
    assert [s.qualname for s in rel.symbols] == ["db", "db.Slice", "db.Slice.size", "db.Options", "db.Options.x"]
    slice_ = next(c for c in chunks if c.meta["symbol"] == "db.Slice")
    assert slice_.title == "class LEVELDB_EXPORT Slice {"  # the excerpt as written
    assert {c.meta["language"] for c in chunks} == {"cpp"}
    plain_c = "#ifndef A_H\n#define A_H\nstruct s {\n  int a;\n};\nint f(int x);\n#endif\n"
    chunks, rel = parse_code_relations(plain_c, "src/a.h")
    assert [s.qualname for s in rel.symbols] == ["s"] and chunks[0].meta["language"] == "c"


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_each_language_gives_symbols_with_their_first_line_and_its_imports(path):
    text, symbols, imports = SAMPLES[path]
    assert parser_for(path) == "code/7"
    chunks, rel = parse_code_relations(text, path)
    assert {(s.qualname, s.line_start) for s in rel.symbols} == symbols
    assert {(r.target_kind, r.target) for r in rel.refs if r.type == "imports"} == imports
    assert all(c.type == "code" for c in chunks)


def test_a_file_without_definitions_falls_back_to_text_excerpts():
    chunks, rel = parse_code_relations("console.log('hi');\n", "web/boot.js")
    assert len(chunks) == 1 and chunks[0].body == "console.log('hi');" and rel.symbols == ()


def test_a_definition_is_titled_by_its_signature_not_its_annotations():
    """Java's ``@Override`` and ``@Test`` on lines of their own titled every such method: an answer
    listed six "@Override" (gson's ``TypeAdapterFactory.create`` implementations). The excerpt keeps
    them (parser ``code/6``)."""
    source = (
        'public class A {\n  @Override\n  @SuppressWarnings({\n      "x"})\n  public void run() {\n  }\n\n'
        "  @Test public void t() {}\n}\n"
    )
    chunks, _ = parse_code_relations(source, "src/A.java")
    run = next(c for c in chunks if c.meta["symbol"] == "A.run")
    assert run.title == "public void run() {" and run.body.lstrip().startswith("@Override")
    assert next(c for c in chunks if c.meta["symbol"] == "A.t").title == "@Test public void t() {}"
