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


# {fmt}'s headers, as written: attribute-like macros before declarations, after declarators, opening a
# namespace alone on their line, in ``if constexpr``; tree-sitter read most of format.h as one error.
FMT = (
    "FMT_BEGIN_NAMESPACE\n"
    "FMT_BEGIN_EXPORT\n"
    "\n"
    "FMT_NORETURN FMT_API void report_error(const char* message);\n"
    "\n"
    "template <typename Char> class basic_cstring_view {\n"
    " public:\n"
    "  FMT_CONSTEXPR basic_cstring_view(const Char* s) : data_(s) {}\n"
    "  constexpr FMT_ALWAYS_INLINE basic_cstring_view(int n) : data_(nullptr) {}\n"
    "  FMT_CONSTEXPR20 auto size() const FMT_NOEXCEPT -> size_t {\n"
    "    if FMT_CONSTEXPR20 (sizeof(Char) == 1) return 1;\n"
    "    return 0;\n"
    "  }\n"
    "  const Char* data_;\n"
    "};\n"
    "\n"
    "FMT_PRAGMA_GCC(push_options)\n"
    "FMT_END_EXPORT\n"
    "FMT_END_NAMESPACE\n"
)
# What stays: a macro called as a statement that goes on below, a constant's value, a returned
# constant, an enum's last constant, a directive's macros, a test's macro that a body follows, a C
# function whose type is capitalised.
KEPT = (
    "#if FMT_HAS_BUILTIN(__builtin_clz) && FMT_MSC_VERSION\n#endif\n"
    "void f() {\n"
    "  ASSERT_EQ(EBADF, errno)\n"
    '      << "closed";\n'
    "  const time_t TIME_MAX = INT32_MAX;\n"
    "  return JV_TRUE;\n"
    "}\n"
    "enum Color {\n  COLOR_RED,\n  COLOR_LAST\n};\n"
    "TEST(Suite, Name)\n{\n}\n"
)


def test_attribute_like_macros_are_blanked_where_a_declaration_holds_them():
    blanked = without_macros(FMT.encode()).decode()
    assert len(blanked) == len(FMT) and blanked.count("\n") == FMT.count("\n")
    assert "FMT_" not in blanked
    _, rel = parse_code_relations(FMT, "include/fmt/os.h")
    assert [s.qualname for s in rel.symbols] == [
        "basic_cstring_view",
        "basic_cstring_view.basic_cstring_view",
        "basic_cstring_view.basic_cstring_view",
        "basic_cstring_view.size",
    ]


def test_macros_in_code_directives_and_c_types_are_kept():
    assert without_macros(KEPT.encode()).decode() == KEPT
    c_source = b"SIZE_T length(const char* s) {\n  return 0;\n}\n"
    assert without_macros(c_source, cpp=False) == c_source  # C: no constructor, the type stays
    _, rel = parse_code_relations(c_source.decode(), "src/util.c")
    assert [s.qualname for s in rel.symbols] == ["length"]
