"""Titles for the pieces of a configuration file cut by its lines (``parse_text``): where in the
file a piece begins, instead of ``manual.yml (part 18)``.

- YAML: the keys that enclose the piece's first line, a list item named by its ``name``, ``title``
  or ``id`` (a GitHub Actions step, an entry of jq's manual) — ``ci.yml: jobs › linux › Build ›
  run``, ``manual.yml: Builtin operators and functions › `map(f)` › body`` (a list's own key is left
  out before a named item). A block scalar's lines (``run: |``) are text, never keys.
- TOML and INI: the table (section) the piece's first line lies in — ``Cargo.toml: [dependencies]``.

A piece that begins outside any key or table (the file's first) keeps its title, and so does one
whose context would say nothing. What is read here is data: no YAML or TOML is loaded, a line
is only looked at."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .chunks import Chunk
from .split import split_lines

YAML = frozenset({"yaml"})
TABLES = frozenset({"toml", "ini"})
MAX_TITLE = 120  # characters of context at most: the outer keys give way first
_SEPARATOR = " › "
# A key's colon: followed by a blank or the line's end (``url: http://x``'s first, not ``http:``'s).
_COLON = re.compile(r":(?:\s|$)")
_YAML_ITEM = re.compile(r"-(?:\s|$)")
_BLOCK = re.compile(r"[|>][-+0-9]*\s*(?:#.*)?")
_NAMING_KEYS = ("name", "title", "id")
_TABLE = re.compile(r"(\[\[?[^\]\n]+\]\]?)\s*(?:[#;].*)?")


def retitled(chunks: Sequence[Chunk], text: str, language: str) -> list[Chunk]:
    """``chunks`` (``parse_text``'s, of one file) with each piece after the first titled by where it
    begins, when ``language`` is one this module reads; else as they are."""
    if len(chunks) < 2 or (language not in YAML and language not in TABLES):
        return list(chunks)
    lines = split_lines(text.removeprefix("\ufeff"))
    contexts = _yaml_contexts(lines) if language in YAML else _table_contexts(lines)
    name = chunks[0].title
    out = [chunks[0]]
    for chunk in chunks[1:]:
        where = contexts[chunk.line_start - 1] if 0 < chunk.line_start <= len(contexts) else ()
        out.append(replace(chunk, title=f"{name}: {_joined(where)}") if where else chunk)
    return out


def _joined(where: Sequence[str]) -> str:
    parts = list(where)
    while len(parts) > 1 and len(_SEPARATOR.join(parts)) > MAX_TITLE:
        parts.pop(0)
    title = _SEPARATOR.join(parts)
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1] + "…"


def _table_contexts(lines: Sequence[str]) -> list[tuple[str, ...]]:
    """Per line, the ``[table]`` (or ``[[array]]``) it lies in, its header line included; nothing
    before the first."""
    current: tuple[str, ...] = ()
    found = []
    for line in lines:
        match = _TABLE.fullmatch(line.strip())
        if match and not line[:1].isspace():
            current = (match.group(1),)
        found.append(current)
    return found


class _Node:
    """A key or a list item open at a line: its indentation and what it is called (an item: by its
    ``name``, ``title`` or ``id``, once read)."""

    __slots__ = ("indent", "item", "label")

    def __init__(self, indent: int, label: str, item: bool) -> None:
        self.indent, self.label, self.item = indent, label, item


def _yaml_contexts(lines: Sequence[str]) -> list[tuple[str, ...]]:
    """Per line, the labels of the keys and named items open there, outermost first."""
    stack: list[_Node] = []
    block: int | None = None  # a block scalar's key indentation: deeper lines are its text
    found: list[tuple[str, ...]] = []
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and (not stripped or indent > block):
            found.append(_labels(stack))
            continue
        block = None
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            found.append(_labels(stack))
            continue
        while stack and stack[-1].indent >= indent:
            stack.pop()
        block = _open(stack, stripped, indent)
        found.append(_labels(stack))
    return found


def _open(stack: list[_Node], stripped: str, indent: int) -> int | None:
    """Push what a line opens (a list item, a key); the indentation of a key whose value is a
    block scalar, whose text the next, deeper lines are."""
    key_indent = indent
    if _YAML_ITEM.match(stripped):
        body = stripped[1:].lstrip()
        stack.append(_Node(indent, "", item=True))
        key_indent = indent + (len(stripped) - len(body))
        stripped = body
    found = _key_of(stripped)
    if found is None:
        return None
    key, rest = found
    value = _scalar(rest)
    parent = stack[-1] if stack else None
    if parent is not None and parent.item and not parent.label and key in _NAMING_KEYS and value:
        parent.label = value
    if value:  # a key with its value on its line holds nothing below it
        return None
    stack.append(_Node(key_indent, key, item=False))
    return key_indent if _BLOCK.fullmatch(rest) else None


def _key_of(text: str) -> tuple[str, str] | None:
    """``key: rest`` as (key, what follows its colon), a quoted key unquoted; None for a line that
    opens no key (text, a nested item, a flow collection). Read in one pass: a line of any length
    costs its length (a regular expression with a lazy key backtracked over a long line)."""
    if not text or text[0] in "#{[" or _YAML_ITEM.match(text):
        return None
    if text[0] in "'\"":
        end = text.find(text[0], 1)
        after = text[end + 1 :].lstrip(" \t") if end > 0 else ""
        return (text[1:end], after[1:].strip()) if _COLON.match(after) else None
    colon = _COLON.search(text)
    if colon is None or "#" in text[: colon.start()]:
        return None
    return text[: colon.start()].rstrip(), text[colon.end() :].strip()


def _scalar(rest: str) -> str:
    """A one-line value as it reads (quotes and a trailing comment left out), or "" for none."""
    if not rest or rest[0] in "|>[{&*!":
        return ""
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        return rest[1:end].strip() if end > 0 else rest[1:].strip()
    return rest.split(" #", 1)[0].strip()


def _labels(stack: Sequence[_Node]) -> tuple[str, ...]:
    """The open keys' names and the named items', a list's key left out before its named item."""
    labels: list[str] = []
    for n, node in enumerate(stack):
        if node.item:
            if node.label:
                if labels and n > 0 and not stack[n - 1].item and labels[-1] == stack[n - 1].label:
                    labels.pop()
                labels.append(node.label)
            continue
        labels.append(node.label)
    return tuple(labels)
