"""C++ source made readable before parsing (``ingest.cpp_source``, parser ``code/6``): export macros
and thread-safety annotations blanked, the same length, so positions and excerpts stay as written."""

from __future__ import annotations

from kenning.ingest.cpp_source import reads_as_cpp, without_macros
from kenning.ingest.tree_code import parse_code_relations

SOURCE = (
    "class LEVELDB_EXPORT DBImpl : public DB {\n"
    "  MemTable* imm_ GUARDED_BY(mutex_);\n"
    "  void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);\n"
    "  void Delete(int n)\n      EXCLUSIVE_LOCKS_REQUIRED(mutex_) {\n  }\n"
    "  Status F(int x) LOCKS_EXCLUDED(mu_) { return CHECKED(x); }\n"
    "  int y = MAX(1, 2);\n"
    "  static Status OK() { return Status(); }\n"
    "};\n"
)


def test_macros_are_blanked_in_place_and_calls_of_capitalised_functions_kept():
    blanked = without_macros(SOURCE.encode()).decode()
    assert len(blanked) == len(SOURCE) and blanked.count("\n") == SOURCE.count("\n")
    for macro in ("LEVELDB_EXPORT", "GUARDED_BY", "EXCLUSIVE_LOCKS_REQUIRED", "LOCKS_EXCLUDED"):
        assert macro not in blanked
    assert "return CHECKED(x);" in blanked and "= MAX(1, 2);" in blanked  # statements, not declarations
    assert "static Status OK() {" in blanked  # a function whose name is capitalised


def test_an_annotated_field_is_a_field_and_an_annotated_method_no_symbol_named_after_its_macro():
    chunks, rel = parse_code_relations(SOURCE + "void DBImpl::G() {\n  imm_->Ref();\n}\n", "db/db_impl.cc")
    assert [s.qualname for s in rel.symbols] == ["DBImpl", "DBImpl.Delete", "DBImpl.F", "DBImpl.OK", "DBImpl.G"]
    assert [(r.target, r.hint) for r in rel.refs if r.type == "fields"] == [("DBImpl", "DBImpl imm_=MemTable")]
    assert {r.target for r in rel.refs if r.type == "calls"} >= {"CHECKED", "MAX", "Ref"}
    assert chunks[0].title.startswith("class LEVELDB_EXPORT DBImpl")  # the excerpt as written


def test_a_header_is_cpp_when_it_reads_as_cpp():
    assert reads_as_cpp("#pragma once\nnamespace db {\n}\n")
    assert reads_as_cpp("template <typename T>\nT f();\n")
    assert reads_as_cpp("class Slice;\n")
    assert not reads_as_cpp("#ifndef A_H\nstruct s { int a; };\nint f(int x);\n#endif\n")
