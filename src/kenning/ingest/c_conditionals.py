"""C and C++ source read as the preprocessor would give it with no macro defined, for a file whose
conditional compilation leaves tree-sitter's grammar unbalanced braces (``tree_code``): jq's
``jv_print.c`` opens ``} else {`` inside one ``#ifdef USE_DECNUM`` and closes it in another, and its
``main.c`` writes ``int wmain(…) {`` under ``#ifdef WIN32``, ``int main(…) {`` under ``#else``: the
grammar swallowed ``jv_dump_string`` and four other functions into one excerpt and ``main`` was no
symbol. Directives and the lines of the branches not taken are blanked (spaces, the same length):
every position, line and excerpt stays as written. With no macro defined, ``#ifdef X`` is false,
``#ifndef X`` (an include guard) true, and ``#if`` reads each name as 0, as C does. An expression
is read token by token and evaluated here, over integers, comparisons, ``+``, ``-``, ``!``, ``&&`` and
``||`` alone: the file's text is data, never code to run (``#if 9 ** 9 ** 9`` is no expression read)."""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
# Each conditional directive of a source, its continuation lines with it.
DIRECTIVE_LINES = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b(?:[^\n]*\\\n)*[^\n]*", re.M)
# one token of an ``#if`` expression: a number, ``defined X``, a name, an operator
_TOKEN = re.compile(
    r"\s*(?:(?P<number>0[xX][0-9a-fA-F]{1,16}|\d{1,19})[uUlL]*(?![\w.])|(?P<defined>defined\s*(?:\(\s*\w+\s*\)|\w+))"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<operator>&&|\|\||==|!=|<=|>=|[<>!()+-]))"
)
_AS_PYTHON = {"&&": " and ", "||": " or ", "!": " not "}
_COMPARE: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}  # fmt: skip


def _condition(text: str) -> bool:
    """An ``#if`` expression's value with no macro defined (``defined(X)`` and every name 0); false
    when it cannot be read (an operator not read here, a character constant, a malformed one)."""
    text = re.sub(r"/\*.*?\*/|//.*", " ", text).strip()
    parts: list[str] = []
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            return False
        at = match.end()
        if match["number"]:
            number = match["number"]
            octal = number[0] == "0" and number[1:2].isdigit()
            if octal and not set(number) <= set("01234567"):
                return False
            parts.append(str(int(number, 8 if octal else 0)))
        elif match["defined"] or match["name"]:
            parts.append("0")
        elif match["operator"]:
            parts.append(_AS_PYTHON.get(match["operator"], match["operator"]))
    try:
        return bool(_value(ast.parse(" ".join(parts).strip(), mode="eval").body))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _value(node: ast.AST) -> int:
    """The value of an expression ``_condition`` wrote: integers and the operators it reads, no other."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub | ast.UAdd):
        value = _value(node.operand)
        return int(not value) if isinstance(node.op, ast.Not) else -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left, right = _value(node.left), _value(node.right)
        return left + right if isinstance(node.op, ast.Add) else left - right
    if isinstance(node, ast.BoolOp):
        values = [_value(v) for v in node.values]
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        value = _value(node.left)  # as C reads ``3 > 2 > 1``: ``(3 > 2) > 1``, not Python's chain
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            value = int(_COMPARE[type(op)](value, _value(comparator)))
        return value
    raise ValueError(f"not an #if expression read here: {ast.dump(node)[:60]}")


def undefined_view(source: bytes) -> bytes:
    """``source`` with its conditional directives and the branches not taken blanked."""
    return _view(source, keep_balanced=False)


def balanced_view(source: bytes) -> bytes:
    """``source`` with its conditional directives blanked, a group without alternatives kept
    whatever its condition when it closes the braces and parentheses it opens and names a macro
    (not ``#if 0``), every other group read as ``undefined_view`` reads it. {fmt}'s ``print`` calls
    ``write_console`` under ``#if defined(_WIN32)``: a caller the view with no macro defined blanked,
    and the graph had none."""
    return _view(source, keep_balanced=True)


def _view(source: bytes, *, keep_balanced: bool) -> bytes:
    lines = source.split(b"\n")
    whole = _whole_groups(lines) if keep_balanced else set()
    stack: list[tuple[bool, bool]] = []  # (this branch is kept, a branch of the group was taken)
    kept = True
    out: list[bytes] = []
    continued = False
    for number, line in enumerate(lines):
        if continued:  # a directive's continuation line
            out.append(_blank(line))
            continued = line.rstrip().endswith(b"\\")
            continue
        match = _DIRECTIVE.match(line)
        if match is None:
            out.append(line if kept else _blank(line))
            continue
        word, rest = match.group(1), match.group(2).decode("utf-8", "replace")
        if word in (b"if", b"ifdef", b"ifndef"):  # a group kept whole has no ``#elif`` nor ``#else``
            value = number in whole or (_condition(rest) if word == b"if" else word == b"ifndef")
            stack.append((value, value))
        elif stack and word == b"elif":
            _, taken = stack[-1]
            value = not taken and _condition(rest)
            stack[-1] = (value, taken or value)
        elif stack and word == b"else":
            _, taken = stack[-1]
            stack[-1] = (not taken, True)
        elif stack and word == b"endif":
            stack.pop()
        kept = all(k for k, _ in stack)
        out.append(_blank(line))
        continued = line.rstrip().endswith(b"\\")
    return b"\n".join(out)


# What a line's braces and parentheses are counted without: its strings, characters and comments.
_NOT_CODE = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//.*|/\*.*?\*/')


def _whole_groups(lines: list[bytes]) -> set[int]:
    """The line numbers of the ``#if``s without an ``#else`` or ``#elif`` that name a macro and
    balance their braces and parentheses (nested groups' lines counted in the branch that holds
    them). A group with alternatives keeps one: both sides of ``using value_type = #ifdef …
    std::iter_value_t<It>; #else typename …::value_type; #endif`` make no declaration."""
    # each open group: its ``#if``'s line, its braces' and parentheses' balance, whether it may be kept whole
    opened: list[tuple[int, list[int], bool]] = []
    whole: set[int] = set()
    continued = False
    for number, line in enumerate(lines):
        if continued:
            continued = line.rstrip().endswith(b"\\")
            continue
        match = _DIRECTIVE.match(line)
        if match is None:
            if not opened:
                continue
            code = _NOT_CODE.sub(b"", line) if b'"' in line or b"'" in line or b"/" in line else line
            braces, parens = code.count(b"{") - code.count(b"}"), code.count(b"(") - code.count(b")")
            for _, balance, _ in opened:  # a line counts in every group that holds it
                balance[0] += braces
                balance[1] += parens
            continue
        continued = line.rstrip().endswith(b"\\")
        word, rest = match.group(1), match.group(2)
        if word in (b"if", b"ifdef", b"ifndef"):
            named = word != b"if" or re.search(rb"[A-Za-z_]", re.sub(rb"/\*.*?\*/|//.*", b"", rest)) is not None
            opened.append((number, [0, 0], named))
        elif opened and word in (b"elif", b"else"):  # alternatives (``using T =`` / ``#else`` / another type)
            opened[-1] = (opened[-1][0], opened[-1][1], False)
        elif opened and word == b"endif":
            at, balance, may = opened.pop()
            if may and balance == [0, 0]:
                whole.add(at)
    return whole


def _blank(line: bytes) -> bytes:
    return line.translate(_BLANKS)


_BLANKS = bytes(c if chr(c) in " \t\n\r\v\f" else 32 for c in range(256))  # every other byte a space
