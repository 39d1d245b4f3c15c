"""C read as the preprocessor gives it with no macro defined when its conditionals leave the grammar
unbalanced braces (jq, walked: ``jv_dump_string`` and four other functions of ``jv_print.c`` were
swallowed by the function before them, ``main`` of ``main.c`` was no symbol, ``util.c`` had none);
and a platform's branch kept when it balances its braces ({fmt}, walked: ``print`` calls
``write_console`` under ``#if defined(_WIN32)``, and "who calls write_console" had no answer)."""

from __future__ import annotations

import pytest

from kenning.ingest.c_conditionals import balanced_view, undefined_view
from kenning.ingest.tree_code import parse_code_relations

PRINT = """#include "jv.h"

static void dump_term(int x) {
  if (x) {
    put(1);
  } else {
#ifdef USE_DECNUM
    if (literal) {
      put(2);
    } else {
#endif
      put(3);
    }
#ifdef USE_DECNUM
  }
#endif
}

void dump_string(int x) {
  dump_term(x);
}
"""
MAIN = """#ifdef WIN32
int wmain(int argc, char **argv) {
#else
int main(int argc, char **argv) {
#endif
  return run(argc);
}
"""


def test_a_file_whose_conditionals_unbalance_its_braces_keeps_its_functions():
    _, rel = parse_code_relations(PRINT, "src/jv_print.c")
    assert rel is not None and [s.qualname for s in rel.symbols] == ["dump_term", "dump_string"]
    assert ("dump_string", "dump_term") in {(r.scope, r.target) for r in rel.refs if r.type == "calls"}
    _, rel = parse_code_relations(MAIN, "src/main.c")
    assert rel is not None and [(s.qualname, s.line_start, s.line_end) for s in rel.symbols] == [("main", 4, 7)]


@pytest.mark.parametrize(
    ("source", "kept"),
    [
        ("#ifndef GUARD_H\n#define GUARD_H\nint a;\n#endif\n", ["#define GUARD_H", "int a;"]),  # an include guard
        ("#if defined(X) || HAVE_Y\nint a;\n#elif !defined(Z)\nint b;\n#else\nint c;\n#endif\n", ["int b;"]),
        ("#if 0\nint a;\n#else\nint b;\n#endif\n", ["int b;"]),
        ("#if 1\nint a;\n#endif\n", ["int a;"]),
        ("#ifdef A\n#ifndef B\nint a;\n#endif\n#else\nint b;\n#endif\n", ["int b;"]),
        ("#if FOO(1, \\\n  2)\nint a;\n#endif\nint b;\n", ["int b;"]),  # a continued directive
        ("#if 9 ** 9 ** 9\nint a;\n#elif 1 << 99999999999\nint b;\n#else\nint c;\n#endif\n", ["int c;"]),
        ("#if X == 0755 || 0x10 > 15\nint a;\n#endif\n", ["int a;"]),  # octal and hexadecimal
        ("#if 3 > 2 > 1\nint a;\n#else\nint b;\n#endif\n", ["int b;"]),  # (3 > 2) > 1, as C reads it
        ("#if !X && (1 || Y)\nint a;\n#endif\n", ["int a;"]),
    ],
)
def test_no_macro_is_defined_and_every_position_stays(source, kept):
    """Also: an ``#if`` expression is read, never run (``9 ** 9 ** 9``, ``1 << …``: not read, false)."""
    view = undefined_view(source.encode()).decode()
    assert len(view) == len(source) and view.count("\n") == source.count("\n")
    assert [line for line in view.split("\n") if line.strip()] == kept


# A platform's declaration tree-sitter cannot read (MSVC's ``__declspec``), a platform's call, and a
# group whose branches each open a function (read with no macro defined, as before).
WINDOWS = """#include <stdio.h>

#ifdef _WIN32
extern "C" __declspec(dllimport) int __stdcall WriteConsoleW(  //
    void*, const void*, unsigned, unsigned*, void*);
#endif

bool write_console(int fd, const char* text) {
  return fd > 0;
}

void print(FILE* f, const char* text) {
#if defined(_WIN32) && !defined(FMT_USE_WRITE_CONSOLE)
  int fd = _fileno(f);
  if (_isatty(fd)) {
    if (write_console(fd, text)) return;
  }
#endif
  fwrite_all(text, f);
}

#ifdef WIN32
int wmain(int argc, wchar_t** argv) {
#else
int main(int argc, char** argv) {
#endif
  print(stdout, "hi");
  return 0;
}
"""


def test_a_platform_s_branch_that_balances_its_braces_is_read_and_its_calls_kept():
    """The view with no macro defined has no error here, the one that keeps the platform's branches
    one (the ``__declspec``): the least code left unread, not the fewest errors, chooses."""
    _, rel = parse_code_relations(WINDOWS, "src/format.cc")
    assert rel is not None and [s.qualname for s in rel.symbols] == ["write_console", "print", "main"]
    assert ("print", "write_console") in {(r.scope, r.target) for r in rel.refs if r.type == "calls"}


@pytest.mark.parametrize(
    ("source", "kept"),
    [
        ("#ifdef _WIN32\nint a;\n#endif\n", ["int a;"]),  # no alternative, balanced: kept
        ("#ifdef _WIN32\nint a;\n#else\nint b;\n#endif\n", ["int b;"]),  # alternatives: one
        ("#ifdef A\nf(a,\n#endif\n  b);\n", ["b);"]),  # a parenthesis left open: as with no macro defined
        ("#ifdef A\nif (a) {\n#endif\n}\n", ["}"]),  # a brace left open: as with no macro defined
        ("#if 0\nint a;\n#endif\n", []),  # no macro named
        ("#ifdef A\n#ifdef B\nint b;\n#else\nint c;\n#endif\n#endif\n", ["int c;"]),
    ],
)
def test_the_balanced_view_keeps_a_group_without_alternatives_that_balances_its_braces(source, kept):
    view = balanced_view(source.encode()).decode()
    assert len(view) == len(source) and view.count("\n") == source.count("\n")
    assert [line.strip() for line in view.split("\n") if line.strip()] == kept
