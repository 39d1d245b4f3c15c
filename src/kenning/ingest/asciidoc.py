"""AsciiDoc (``.adoc``, ``.asciidoc``) cut by its section titles, as reStructuredText is: sections
that fit together within the cap are one excerpt, titled by the first one's path.

A section title is a line at the margin of one to six ``=`` (or Markdown's ``#``, which
Asciidoctor also reads) then a space and the title, perhaps closed by the same marks; its level
is the number of marks less one (``= Document Title`` is level 0, ``== Section`` level 1). It
follows a blank line, a comment, an attribute entry or a block's attributes (``[appendix]``,
``[[install]]``): after a line of text it is that paragraph's. Lines inside a delimited block (a
listing ``----``, a literal ``....``, a comment ``////``, a passthrough ``++++``, an example
``====``, a sidebar ``****``, a quote ``____``, an open block ``--``, a table ``|===``) are never
titles, and a blank line inside one is no paragraph break. Two-line (underlined) titles, which
Asciidoctor reads only for compatibility, are not looked for. A file with no title is plain
text, cut into runs of paragraphs (``ingest.text``).
"""

from __future__ import annotations

import re

from .chunks import Chunk
from .sections import packed_chunks, stem
from .split import index_lines, split_lines
from .text import parse_text

_TITLE = re.compile(r"(={1,6}|#{1,6})[ \t]+(\S.*?)(?:[ \t]+\1)?[ \t]*")
# A delimiter line: four or more of one of these characters (two for an open block), or a table's.
_DELIMITER = re.compile(r"(?:(-|\.|/|\+|=|\*|_)\1{3,}|--|[|,:!]={3,})[ \t]*")


def parse_asciidoc(text: str, path: str, *, max_chars: int = 2400) -> list[Chunk]:
    """Section chunks of an AsciiDoc document; runs of paragraphs when it has no title."""
    lines = split_lines(text.removeprefix("\ufeff"))
    headings, blocks = find_titles(lines)
    if not headings:
        return parse_text(text, path, max_chars=max_chars)
    doc = index_lines(lines, blocks)
    # the first title is the document's when it is level 0 and no text comes before it
    start, level, name = headings[0]
    titled = level == 0 and all(_no_text(line) for line in lines[:start])
    doc_title = name if titled else stem(path)
    if titled:  # the comments and attributes above the title are its section's, not one of their own
        headings[0] = (0, level, name)
    return packed_chunks(doc, doc_title, headings, titled, max_chars)


def find_titles(lines: list[str]) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """The section titles of a document ((first line, level, name), in order; a section's first
    line is that of the attributes right above its title) and its delimited blocks ([first, end)
    line ranges), outside of which alone titles are looked for."""
    titles: list[tuple[int, int, str]] = []
    blocks: list[tuple[int, int]] = []
    closing: str | None = None  # the delimiter line that ends the block open now
    opened = 0
    for at, line in enumerate(lines):
        if closing is not None:
            if line.rstrip() == closing:
                blocks.append((opened, at + 1))
                closing = None
            continue
        first = line[:1]
        if first and first in "-./+=*_|,:!" and _DELIMITER.fullmatch(line):
            closing, opened = line.rstrip(), at
            continue
        if first and first in "=#" and (not at or _no_text(lines[at - 1])):
            found = _TITLE.fullmatch(line)
            if found:  # the section starts at the attribute lines right above its title
                start = at
                while start and _attributes(lines[start - 1]):
                    start -= 1
                titles.append((start, len(found[1]) - 1, found[2].strip()))
    if closing is not None:  # a block never closed runs to the end, as Asciidoctor reads it
        blocks.append((opened, len(lines)))
    return titles, blocks


def _no_text(line: str) -> bool:
    """Whether ``line`` is no paragraph's text: blank, a comment, an attribute entry
    (``:toc: left``), a block's attributes or anchor (``[appendix]``, ``[[install]]``)."""
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith("//")
        or (stripped.startswith(":") and ":" in stripped[1:])
        or _attributes(stripped)
    )


def _attributes(line: str) -> bool:
    """Whether ``line`` holds a block's attributes or anchor (``[appendix]``, ``[[install]]``)."""
    stripped = line.strip()
    return stripped.startswith("[") and stripped.endswith("]")
