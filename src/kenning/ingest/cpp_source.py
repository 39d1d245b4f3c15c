"""C and C++ source made readable for tree-sitter's grammar (``tree_code``): which ``.h`` files are
C++, and the macros that make a declaration unreadable, blanked before parsing — the same length, so
every position, line and excerpt stays as written.

- An export macro between ``class`` or ``struct`` and the class's name (``class LEVELDB_EXPORT
  Slice {``, ``class Q_CORE_EXPORT QObject : …``): tree-sitter reads such a class as a function
  named after the class.
- A thread-safety annotation after a declarator (Clang's, by their names: ``MemTable* imm_
  GUARDED_BY(mutex_);``, ``void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);``): tree-sitter reads
  the field as a function named after the macro, or the method as one named
  ``EXCLUSIVE_LOCKS_REQUIRED``. Any other capitalised name may be a function's (``Status OK()``).
- An attribute-like macro, named in capitals with an underscore ({fmt}'s ``FMT_CONSTEXPR``,
  ``FMT_API``, ``FMT_BEGIN_NAMESPACE``): before a declaration's first keyword, after a declarator,
  before a C++ constructor's name, in ``if MACRO (…)``, or alone on its line between declarations.
  tree-sitter read it as a type or an expression: {fmt}'s ``format.h`` gave no symbol at all.
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
# What each of those names holds (a file without any has none: most files).
_ANNOTATION_WORDS = (
    b"GUARDED_BY", b"ACQUIRE", b"REQUIRES", b"RELEASE(", b"RELEASE_SHARED(", b"EXCLUDES(", b"CAPABILITY",
    b"LOCKS_REQUIRED", b"LOCKS_EXCLUDED", b"LOCK_RETURNED", b"LOCK_FUNCTION",
)  # fmt: skip
# One or more of them after a name or a closing parenthesis (the next line's too), before ``;`` or ``{``.
_ANNOTATION = re.compile(rb"(\w+|\))((?:\s+" + _ANNOTATION_CALL.pattern + rb")+)(?=\s*[;{])")
_STATEMENT_WORDS = frozenset({b"return", b"throw", b"case", b"co_return", b"else", b"do"})
# A macro's name as libraries write them: capitals and digits with an underscore (``FMT_CONSTEXPR``,
# ``FMT_API``, ``ABSL_MUST_USE_RESULT``, ``Q_DECL_NOTHROW``); one without (``WINAPI``) may be a type.
_NAME = rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"
_MACRO = _NAME + rb"(?!\s*\()"  # not called: ``ASSERT_EQ(a, b)`` is code
# Such macros before a declaration's first keyword (``FMT_NORETURN FMT_API void report_error(…);``,
# ``template <…> FMT_CONSTEXPR auto …``): a type is never followed by one of these words.
_DECLARATION_WORDS = (
    rb"(?:auto|void|bool|char|wchar_t|char8_t|char16_t|char32_t|int|long|short|unsigned|signed|float|double"
    rb"|inline|constexpr|consteval|constinit|static|extern|explicit|virtual|friend|template|typename|class"
    rb"|struct|union|enum|operator|using|namespace|std::|~)\b"
)
_LEADING = re.compile(rb"(?<![\w:.>-])((?:" + _MACRO + rb"[ \t]+)+)(?=" + _DECLARATION_WORDS + rb")")
# C++ alone: such macros opening a line before a name and its parameters, a constructor's
# (``FMT_CONSTEXPR join_view(It b, …)``, ``constexpr FMT_ALWAYS_INLINE basic_format_args(…)``): C has
# no function without a type (``SIZE_T f(…)``).
_CONSTRUCTOR = re.compile(
    rb"^[ \t]*(?:(?:constexpr|inline|explicit|virtual)[ \t]+)*((?:" + _MACRO + rb"[ \t]+)+)(?=~?[A-Za-z_]\w*[ \t]*\()",
    re.M,
)
# ``if FMT_CONSTEXPR20 (…)``: a macro that gives ``constexpr`` (or nothing) where C++17 may write it.
_IF_CONSTEXPR = re.compile(rb"\bif[ \t]+(" + _NAME + rb")(?=[ \t]*\()")
# Such macros after a declarator, before its body, its end or its trailing return type (``void f()
# FMT_NOEXCEPT {``, ``auto size() const FMT_NOEXCEPT -> size_t;``).
_TRAILING = re.compile(rb"(?:\)|\bconst)((?:[ \t]+" + _MACRO + rb")+)(?=[ \t]*(?:[{;]|->|override\b|final\b))")
# A line holding a macro alone, or a macro called without a semicolon (``FMT_BEGIN_NAMESPACE``, which
# opens a namespace, ``FMT_PRAGMA_GCC(push_options)``, ``Q_OBJECT``): tree-sitter reads an expression
# that swallows what follows. Not one that a body follows (``TEST(Suite, Name)`` then ``{``), nor one
# inside an expression: the next line begins a declaration, a comment or a directive, or is blank,
# and the line before (``_ENDS``) ends a statement, a block, a label or a comment.
_ALONE = re.compile(
    rb"^[ \t]*(" + _NAME + rb"(?:\([^()\n;]*(?:\([^()\n;]*\)[^()\n;]*)*\))?)"  # its arguments: one level nested
    rb"[ \t]*(?=\n[ \t]*(?:[A-Za-z_#/}~\[]|\n|\Z)|\Z)",
    re.M,
)
_ENDS = re.compile(rb"(?:[;{}:]|\*/|^[ \t]*(?://.*|#.*)?)[ \t]*\Z", re.M)


def _alone(source: bytes) -> list[tuple[int, int]]:
    """The spans of ``_ALONE``'s macros whose line before ends a statement, a block or a comment,
    or is such a macro (``FMT_BEGIN_NAMESPACE`` then ``FMT_BEGIN_EXPORT``)."""
    spans: list[tuple[int, int]] = []
    blanked_lines: set[int] = set()  # the starts of the lines whose macro is blanked
    for match in _ALONE.finditer(source):
        line_start = match.start()
        before = source.rfind(b"\n", 0, max(line_start - 1, 0)) + 1 if line_start else 0
        if not line_start or before in blanked_lines or _ENDS.search(source, before, line_start - 1):
            spans.append(match.span(1))
            blanked_lines.add(line_start)
    return spans


def _in_directive(source: bytes, at: int) -> bool:
    """Whether ``at`` is on a preprocessor line (``#if FMT_HAS_BUILTIN(x)``: its macros are read there)."""
    line_start = source.rfind(b"\n", 0, at) + 1
    return source[line_start:at].lstrip().startswith(b"#")


def reads_as_cpp(source: str) -> bool:
    """Whether a ``.h`` file is C++'s rather than C's."""
    return _CPP_HEADER.search(source) is not None


def without_macros(source: bytes, *, cpp: bool = True) -> bytes:
    """``source`` with its export macros, annotations and attribute-like macros blanked (spaces, the
    same length); ``cpp``: C++'s (else C's, which has no constructor)."""
    spans = [m.span(1) for m in _EXPORT_MACRO.finditer(source)] if b"class" in source or b"struct" in source else []
    if any(word in source for word in _ANNOTATION_WORDS):  # the expression costs 0.25 s a MB: most files have none
        for match in _ANNOTATION.finditer(source):
            if match.group(1) not in _STATEMENT_WORDS:  # the macros alone: a line break stays one
                spans += [call.span() for call in _ANNOTATION_CALL.finditer(source, *match.span(2))]
    for pattern in (_LEADING, _TRAILING, _IF_CONSTEXPR, *((_CONSTRUCTOR,) if cpp else ())):
        spans += [m.span(1) for m in pattern.finditer(source) if not _in_directive(source, m.start(1))]
    spans += _alone(source)
    if not spans:
        return source
    blanked = bytearray(source)
    for start, end in spans:
        blanked[start:end] = b" " * (end - start)
    return bytes(blanked)
