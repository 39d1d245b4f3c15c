"""Plain text and reStructuredText cut into runs of paragraphs."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from .chunks import Chunk
from .identifiers import keywords_for
from .split import EXCERPT_CHARS, anchors, index_lines, split_lines, split_range

# A text line followed by an underline of one repeated punctuation character (3 or more).
_RST_TITLE = re.compile(r"^(?P<title>[ \t]*\S[^\n]*)\n(?P<rule>([!-/:-@\[-`{-~])\3{2,})[ \t]*$", re.M)
_ADORNMENT = re.compile(r"\s*([!-/:-@\[-`{-~])\1*\s*")


def parse_text(text: str, path: str, *, max_chars: int = EXCERPT_CHARS) -> list[Chunk]:
    """Chunks of paragraphs (blank-line separated) packed greedily up to ``max_chars``.

    Title: the file name, or for ``.rst`` the first underlined title; ``(part N)`` is
    appended for N ≥ 2. Anchor: ``:start-end`` line range (1-based, inclusive), and ``#part-N``
    after it for a part whose range an earlier part has (a line longer than ``max_chars``, cut
    into parts: a minified script's): each excerpt of a file has a URI of its own.
    """
    lines = split_lines(text.removeprefix("\ufeff"))
    doc = index_lines(lines)
    name = PurePosixPath(path.replace("\\", "/")).name or path
    title = (rst_title("\n".join(lines)) if name.lower().endswith(".rst") else None) or name
    keywords = keywords_for(title)
    chunks = []
    pieces = split_range(doc, 0, len(lines) - 1, max_chars)
    for n, (piece, anchor) in enumerate(zip(pieces, anchors(pieces), strict=True), start=1):
        chunks.append(
            Chunk(
                type="doc",
                title=title if n == 1 else f"{title} (part {n})",
                body=piece.body,
                anchor=anchor,
                line_start=piece.first + 1,
                line_end=piece.last + 1,
                keywords=keywords,
            )
        )
    return chunks


def rst_title(text: str) -> str | None:
    """Text of the first reStructuredText section title (underlined, optionally overlined)."""
    for match in _RST_TITLE.finditer(text):
        title = match.group("title").strip()
        if not _ADORNMENT.fullmatch(title):
            return title
    return None
