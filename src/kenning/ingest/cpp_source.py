"""C++ source made readable for tree-sitter's grammar (``tree_code``): which ``.h`` files are C++,
and the macros that make a declaration unreadable, blanked before parsing — the same length, so
every position, line and excerpt stays as written.

- An export macro between ``class`` or ``struct`` and the class's name (``class LEVELDB_EXPORT
  Slice {``, ``class Q_CORE_EXPORT QObject : …``): tree-sitter reads such a class as a function
  named after the class.
- A thread-safety annotation after a declarator (Clang's, by their names: ``MemTable* imm_
  GUARDED_BY(mutex_);``, ``void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);``): tree-sitter reads
  the field as a function named after the macro, or the method as one named
  ``EXCLUSIVE_LOCKS_REQUIRED``. Any other capitalised name may be a function's (``Status OK()``).
"""

from __future__ import annotations

import re

# A ``.h`` file that reads as C++: a namespace, a template, a class, an access label at a line's start.
_CPP_HEADER = re.compile(r"^[ \t]*(?:namespace\b|template\s*<|class\s+\w|(?:public|private|protected)\s*:)", re.M)
_EXPORT_MACRO = re.compile(
    rb"\b(?:class|struct)[ \t]+([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+(?=[A-Za-z_]\w*[ \t]*(?:final[ \t]*)?[:{\n])"
)
# Clang's thread-safety annotations, as projects name them (``GUARDED_BY``, ``ABSL_GUARDED_BY``,
# ``EXCLUSIVE_LOCKS_REQUIRED``…): a name alone could be a function's (``static Status OK()``).
_ANNOTATION_NAME = (
    rb"(?:[A-Z0-9]+_)*(?:PT_)?(?:GUARDED_BY|ACQUIRED_(?:BEFORE|AFTER)|REQUIRES(?:_SHARED)?|(?:TRY_)?ACQUIRE(?:_SHARED)?"
    rb"|RELEASE(?:_SHARED)?|EXCLUDES|ASSERT_(?:SHARED_)?CAPABILITY|RETURN_CAPABILITY|(?:EXCLUSIVE|SHARED)_LOCKS_REQUIRED"
    rb"|LOCKS_EXCLUDED|LOCK_RETURNED|(?:EXCLUSIVE|SHARED)_(?:TRYLOCK|LOCK)_FUNCTION|UNLOCK_FUNCTION)"
)
_ANNOTATION_CALL = re.compile(_ANNOTATION_NAME + rb"\([^()\n]*\)")
# One or more of them after a name or a closing parenthesis (the next line's too), before ``;`` or ``{``.
_ANNOTATION = re.compile(rb"(\w+|\))((?:\s+" + _ANNOTATION_CALL.pattern + rb")+)(?=\s*[;{])")
_STATEMENT_WORDS = frozenset({b"return", b"throw", b"case", b"co_return", b"else", b"do"})


def reads_as_cpp(source: str) -> bool:
    """Whether a ``.h`` file is C++'s rather than C's."""
    return _CPP_HEADER.search(source) is not None


def without_macros(source: bytes) -> bytes:
    """``source`` with its export macros and annotations blanked (spaces, the same length)."""
    spans = [m.span(1) for m in _EXPORT_MACRO.finditer(source)] if b"class" in source or b"struct" in source else []
    if b"(" in source:
        for match in _ANNOTATION.finditer(source):
            if match.group(1) not in _STATEMENT_WORDS:  # the macros alone: a line break stays one
                spans += [call.span() for call in _ANNOTATION_CALL.finditer(source, *match.span(2))]
    if not spans:
        return source
    blanked = bytearray(source)
    for start, end in spans:
        blanked[start:end] = b" " * (end - start)
    return bytes(blanked)
