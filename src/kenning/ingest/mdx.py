"""MDX pages (``.mdx``: Docusaurus, Nextra, fumadocs, Starlight, Mintlify) read as Markdown once
what MDX reads as JavaScript is out of the way of the block structure.

CommonMark reads a line holding only a component's tag (``<Tabs items={["Zod", "Zod Mini"]}>``,
``</Tab>``) as the start of an HTML block, which runs to the next blank line: a fenced example
inside the tab, its code holding a blank line, then ended the block halfway through the code, its
closing fence opened a new one, and every heading after it fell inside code. zod's API page lost
``abort``, ``path``, ``.superRefine()``, ``.check()`` and ``Codecs`` that way, their text filed
under ``when (part 5)``; and a heading inside a comment (``{/* ### .refine() */}``) was one,
leaving ``*/}`` in the titles of the sections after it (walked, docs/benchmarks.md "zodgin").

:func:`structure` gives the text the block parser reads: outside fenced code, comments
(``{/* … */}``), lines of tags only and the ESM statements (``import``/``export``, which run to
a blank line as MDX reads them) blank, every line kept, so line numbers hold; front matter as it
is. The excerpts' text is that text too: a tab's labels (``Zod``, ``Zod Mini``) and the imports
are no words of the page, and a preamble of imports alone is no excerpt. :func:`custom_anchor`: fumadocs' heading
anchors, ``## Stringbools [#stringbool]``.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.S)
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# A line of whole tags only: opening, closing or self-closing, attributes on the line (``<Tab value="Zod">``).
# One blank opens the attributes; the class takes the blanks after it (``\s+`` there split a run of blanks
# two ways: quadratic in a long line that never closes its tag).
_TAG = r"</?[A-Za-z][\w.:-]*(?:\s(?:[^<>{}\"']|\"[^\"]*\"|'[^']*'|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})*)?/?>"
_TAGS_LINE = re.compile(rf"\s*(?:{_TAG}\s*)+")
# The start of a tag whose attributes go on over the next lines (``<Tabs`` then ``items={[…]}`` then ``>``).
_OPEN_TAG = re.compile(r"\s*<[A-Za-z][\w.:-]*(?:\s[^<>]*)?")
_ESM = re.compile(r"(?:import|export)[\s{*\"']")  # ``import {``, ``export const``; not ``import:`` (YAML)
_ANCHOR = re.compile(r"\s\[#([\w.:-]+)\]\Z")
TAG_LINES = 32  # a multi-line opening tag longer than this is taken for text, not blanked


def structure(text: str) -> str:
    """``text`` as the block parser reads an MDX page (the module doc): same lines, JSX blank."""
    if "{/*" in text:
        text = _COMMENT.sub(lambda comment: re.sub(r"[^\n]", " ", comment[0]), text)
    lines = text.split("\n")
    fence: str | None = None
    i = _after_front_matter(lines)
    while i < len(lines):
        line = lines[i]
        opened = _FENCE.match(line)
        if fence is not None:  # inside fenced code: only its closing fence ends it
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence) and not line.strip(" `~"):
                fence = None
            i += 1
            continue
        if opened:
            fence = opened[1]
        elif _ESM.match(line):
            while i < len(lines) and lines[i].strip():  # an ESM block runs to a blank line
                lines[i] = ""
                i += 1
            continue
        elif _TAGS_LINE.fullmatch(line):
            lines[i] = ""
        elif _OPEN_TAG.fullmatch(line):
            end = _tag_end(lines, i)
            if end is not None:
                lines[i : end + 1] = [""] * (end + 1 - i)
                i = end
        i += 1
    return "\n".join(lines)


def _after_front_matter(lines: list[str]) -> int:
    """The first line after the front matter (``---`` … ``---``), 0 without one."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i + 1
    return 0


def _tag_end(lines: list[str], start: int) -> int | None:
    """The line where the tag opened on ``start`` closes, when its lines hold nothing else: the
    first one ending with ``>``, within ``TAG_LINES`` lines."""
    for i in range(start + 1, min(start + TAG_LINES, len(lines))):
        stripped = lines[i].rstrip()
        if not stripped:
            return None  # a blank line first: text, not a tag
        if stripped.endswith(">") and "<" not in stripped.lstrip()[1:]:
            return i
    return None


def custom_anchor(name: str) -> tuple[str, str]:
    """(title, anchor or '') of an MDX heading's text: fumadocs' ``Stringbools [#stringbool]`` gives
    ``Stringbools`` and ``stringbool``."""
    found = _ANCHOR.search(name)
    return (name[: found.start()].rstrip(), found[1]) if found else (name, "")
