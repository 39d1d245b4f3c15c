"""C and C++ source read as the preprocessor would give it with no macro defined, for a file whose
conditional compilation leaves tree-sitter's grammar unbalanced braces (``tree_code``): jq's
``jv_print.c`` opens ``} else {`` inside one ``#ifdef USE_DECNUM`` and closes it in another, and its
``main.c`` writes ``int wmain(…) {`` under ``#ifdef WIN32``, ``int main(…) {`` under ``#else``: the
grammar swallowed ``jv_dump_string`` and four other functions into one excerpt and ``main`` was no
symbol. Directives and the lines of the branches not taken are blanked (spaces, the same length):
every position, line and excerpt stays as written. With no macro defined, ``#ifdef X`` is false,
``#ifndef X`` (an include guard) true, and ``#if`` reads each name as 0, as C does."""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*\w+\s*\)|\w+)")
_NUMBER = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_ALLOWED = re.compile(r"[\d\s()<>=!+\-*/%]*(?:(?:and|or|not)[\d\s()<>=!+\-*/%]*)*")


def _condition(text: str) -> bool:
    """An ``#if`` expression's value with no macro defined (``defined(X)`` and every name 0); false
    when it cannot be read."""
    text = re.sub(r"/\*.*?\*/|//.*", " ", text)
    text = _DEFINED.sub("0", text)
    text = _NUMBER.sub(lambda m: str(int(m.group(1), 0)), text)
    text = _NAME.sub("0", text)
    text = text.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    if not _ALLOWED.fullmatch(text):
        return False
    try:
        return bool(eval(text, {"__builtins__": {}}, {}))  # noqa: S307 (digits, operators and parentheses only)
    except Exception:  # noqa: BLE001 (an expression the preprocessor would read, this cannot: false)
        return False


def undefined_view(source: bytes) -> bytes:
    """``source`` with its conditional directives and the branches not taken blanked."""
    lines = source.split(b"\n")
    stack: list[tuple[bool, bool]] = []  # (this branch is kept, a branch of the group was taken)
    kept = True
    out: list[bytes] = []
    continued = False
    for line in lines:
        if continued:  # a directive's continuation line
            out.append(_blank(line))
            continued = line.rstrip().endswith(b"\\")
            continue
        match = _DIRECTIVE.match(line)
        if match is None:
            out.append(line if kept else _blank(line))
            continue
        word, rest = match.group(1), match.group(2).decode("utf-8", "replace")
        if word in (b"if", b"ifdef", b"ifndef"):
            value = _condition(rest) if word == b"if" else word == b"ifndef"
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


def _blank(line: bytes) -> bytes:
    return re.sub(rb"[^\s]", b" ", line)
