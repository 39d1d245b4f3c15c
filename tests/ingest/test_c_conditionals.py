"""C read as the preprocessor gives it with no macro defined when its conditionals leave the grammar
unbalanced braces (jq, walked: ``jv_dump_string`` and four other functions of ``jv_print.c`` were
swallowed by the function before them, ``main`` of ``main.c`` was no symbol, ``util.c`` had none)."""

from __future__ import annotations

import pytest

from kenning.ingest.c_conditionals import undefined_view
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
