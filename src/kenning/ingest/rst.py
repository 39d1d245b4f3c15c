"""reStructuredText cut by its section titles (``.rst``, and the ``.txt`` documentation Django
and others write in it): sections that fit together within the cap are one excerpt, titled by the
first one's path.

A section title is a line of text at the margin underlined, and perhaps overlined, by one
punctuation character repeated at least as long as the title; its level is the order in which
its adornment style (character, overline or not) first appears, as docutils reads it. Titles
give each excerpt a path (``Testing Flask Applications > The Test Client``) and an anchor
(``#the-test-client``), as Markdown headings do (``ingest.sections`` cuts both). A file with no
title is plain text, cut into runs of paragraphs (``ingest.text``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .chunks import Chunk
from .sections import packed_chunks, stem
from .split import index_lines, split_lines
from .text import parse_text

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1*[ \t]*")
# An internal hyperlink target (a Sphinx label), which names what follows it: ``.. _quickstart:``.
_TARGET = re.compile(r"\.\. _(?:`[^`]+`|[^:`]+):[ \t]*")
_PUNCTUATION = frozenset(chr(c) for c in range(33, 127) if not chr(c).isalnum())


class Title(NamedTuple):
    start: int  # the section's first line (its overline, or the title's own)
    level: int
    name: str


def parse_rst(text: str, path: str, *, max_chars: int = 2400) -> list[Chunk]:
    """Section chunks of a reStructuredText document; runs of paragraphs when it has no title."""
    lines = split_lines(text.removeprefix("\ufeff"))
    titles = find_titles(lines)
    if not titles:
        return parse_text(text, path, max_chars=max_chars)
    doc = index_lines(lines)
    # The first title is the document's when nothing but blank lines and explicit markup (a Sphinx
    # label, ``.. currentmodule::``, a comment) comes before it; that markup then opens its section.
    titled = _markup_only(lines[: titles[0].start])
    doc_title = titles[0].name if titled else stem(path)
    starts = [0 if titled and not at else _targets_above(lines, t.start) for at, t in enumerate(titles)]
    headings = [(start, t.level, t.name) for start, t in zip(starts, titles, strict=True)]
    return packed_chunks(doc, doc_title, headings, titled, max_chars)


def _markup_only(lines: list[str]) -> bool:
    """Whether ``lines`` hold nothing but blank lines and explicit markup blocks (``..`` at the
    margin, then indented lines)."""
    text = [line for line in lines if line.strip()]
    return not text or (text[0].startswith("..") and all(line.startswith("..") or line[:1].isspace() for line in text))


def _targets_above(lines: list[str], start: int) -> int:
    """Where the section of the title at ``start`` begins: at the internal hyperlink targets
    right above it (``.. _quickstart:``, blank lines between them allowed), which name it: they
    belong to its excerpt, not to the end of the one before."""
    begin, at = start, start - 1
    while at >= 0 and (not lines[at].strip() or _TARGET.fullmatch(lines[at])):
        if lines[at].strip():
            begin = at
        at -= 1
    return begin


def find_titles(lines: list[str]) -> list[Title]:
    """The section titles of a document, in order, each with its level: the line above each
    adornment line that underlines it (the adornments looked for first: most lines are not)."""
    styles: list[tuple[str, bool]] = []
    titles: list[Title] = []
    for at, under in enumerate(lines):
        if not at or under[:1] not in _PUNCTUATION or not _ADORNMENT.fullmatch(under):
            continue
        name, before = lines[at - 1], lines[at - 2] if at > 1 else ""
        if _is_title(name, under, before):
            over = at > 1 and before.rstrip() == under.rstrip()
            style = (under[0], over)
            if style not in styles:
                styles.append(style)
            titles.append(Title(at - 2 if over else at - 1, styles.index(style), name.strip()))
    return titles


def _is_title(name: str, under: str, before: str) -> bool:
    """Whether ``name`` is a title the adornment line ``under`` underlines: text at the margin,
    after a blank line or an overline, and an underline at least as long."""
    if not name.strip() or name[:1].isspace() or _ADORNMENT.fullmatch(name):
        return False
    if len(under.rstrip()) < max(3, len(name.rstrip())):
        return False
    return not before.strip() or before.rstrip() == under.rstrip()
