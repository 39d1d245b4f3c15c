"""A document's sections as excerpts, shared by the parsers that cut by titles (Markdown,
reStructuredText, AsciiDoc): GitHub-style slugs for anchors, each unique in its document, and a
section cut into parts no longer than the cap (``#slug``, ``#slug-part-2``, …)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from .chunks import Chunk
from .identifiers import add_keywords
from .split import Lines, span_length, split_range, trim

# (title path, anchor slug, first line, last line, keywords): one section of a document.
Section = tuple[str, str, int, int, str]

_NOT_SLUG = re.compile(r"[^\w\- ]")


def outline(
    doc_title: str,
    headings: list[tuple[int, int, str]],
    root: int | None,
    first: int,
    last: int,
    anchors: Mapping[int, str] | None = None,
) -> list[Section]:
    """A document's sections: the text before its first heading (from line ``first``), then one
    per heading ((start line, level, name)), each up to the next, the last to line ``last``. A
    section's title is its heading path, which starts with ``doc_title`` unless its first heading
    is a named one of level ``root`` (Markdown's ``# Title``; None: no heading titles the
    document); its keywords are those of that path, its slug unique in the document: the anchor
    the document gives a heading (``anchors``, by the heading's index; its first use), else one
    made from its name."""
    given = anchors or {}
    used: set[str] = set(given.values())
    slugs: list[str] = []
    taken: set[str] = set()  # the given anchors used once already
    for i, (_, _, name) in enumerate(headings):
        anchor = given.get(i)
        if anchor and anchor not in taken:
            taken.add(anchor)
            slugs.append(anchor)
        else:
            slugs.append(unique_slug(slugify(name) or "section", used))
    preamble_slug = slugify(doc_title)
    if not preamble_slug or preamble_slug in used:
        preamble_slug = "top"
    preamble_slug = unique_slug(preamble_slug, used)

    # A section's keywords are those of its heading path: the path's keywords (and the keys
    # already taken) are kept on the stack, each heading adding its own to its parent's.
    title_words: list[str] = []
    title_seen: set[str] = set()
    add_keywords(title_words, title_seen, doc_title)
    first_heading = headings[0][0] if headings else last + 1
    sections: list[Section] = [(doc_title, preamble_slug, first, first_heading - 1, " ".join(title_words))]
    stack: list[tuple[int, str, list[str], set[str]]] = []
    for i, (start, level, name) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        if stack:
            words, seen = list(stack[-1][2]), set(stack[-1][3])
        elif level != root or not name:  # the path starts with the document's title
            words, seen = list(title_words), set(title_seen)
        else:
            words, seen = [], set()
        add_keywords(words, seen, name)
        stack.append((level, name, words, seen))
        trail = [t for _, t, _, _ in stack if t]  # an empty heading adds nothing to the path
        if stack[0][0] != root or not stack[0][1]:
            trail.insert(0, doc_title)
        end = headings[i + 1][0] - 1 if i + 1 < len(headings) else last
        sections.append((" > ".join(trail), slugs[i], start, end, " ".join(words)))
    return sections


def packed_chunks(
    doc: Lines, doc_title: str, headings: list[tuple[int, int, str]], titled: bool, max_chars: int
) -> list[Chunk]:
    """The excerpts of a document cut by its titles (reStructuredText, AsciiDoc): its sections
    (``outline``; ``titled``: its first heading, of level 0, is the document's title), those that
    fit together packed into one (``packed``), each cut into parts when longer than ``max_chars``."""
    sections = outline(doc_title, headings, 0 if titled else None, 0, len(doc.text) - 1)
    used = {slug for _, slug, _, _, _ in sections}  # a section's parts take slugs not used
    chunks: list[Chunk] = []
    for title, slug, first, last, keywords in packed(doc, sections, max_chars):
        chunks.extend(section_chunks(doc, title, slug, first, last, max_chars, "doc", {}, used, keywords))
    return chunks


def packed(doc: Lines, sections: list[Section], max_chars: int) -> list[Section]:
    """Sections that fit together within ``max_chars`` as one excerpt, under the first one's
    title, anchor and keywords (the others' titles are in its text): about as many excerpts as
    plain text makes of the file (``ingest.text``), each now titled, rather than one per short
    section (docs/benchmarks.md, "rstsections": for reStructuredText that made Django's store
    4.5 % larger and ranked no better; the others' keywords added, a second variant, ranked a
    little worse)."""
    kept: list[Section] = []
    for section in sections:
        name, slug, first, last, keywords = section
        if trim(doc, first, last) is None:
            continue  # no text (the lines before a document's first title)
        if kept and span_length(doc, kept[-1][2], last) <= max_chars:
            head = kept[-1]
            kept[-1] = (head[0], head[1], head[2], last, head[4])
        else:
            kept.append(section)
    return kept


def section_chunks(
    doc: Lines,
    title: str,
    slug: str,
    first: int,
    last: int,
    max_chars: int,
    kind: str,
    meta: dict[str, Any],
    used: set[str],
    keywords: str,
) -> list[Chunk]:
    """Chunks of one section: a single one, or parts ``#slug``, ``#slug-part-2``, …"""
    chunks = []
    for n, piece in enumerate(split_range(doc, first, last, max_chars), start=1):
        anchor = slug if n == 1 else unique_slug(f"{slug}-part-{n}", used)
        chunks.append(
            Chunk(
                type=kind,
                title=title if n == 1 else f"{title} (part {n})",
                body=piece.body,
                anchor=f"#{anchor}",
                line_start=piece.first + 1,
                line_end=piece.last + 1,
                keywords=keywords,
                meta=dict(meta) if meta else {},
            )
        )
    return chunks


def slugify(text: str) -> str:
    """GitHub-style slug: lowercase, punctuation except ``-`` and ``_`` dropped, spaces to ``-``."""
    return _NOT_SLUG.sub("", text.lower()).replace(" ", "-")


def unique_slug(slug: str, used: set[str]) -> str:
    """``slug``, or ``slug-1``, ``slug-2``… if already taken; records the result in ``used``."""
    candidate, n = slug, 0
    while candidate in used:
        n += 1
        candidate = f"{slug}-{n}"
    used.add(candidate)
    return candidate


def stem(path: str) -> str:
    """File name without its extension (``docs/guide.md`` gives ``guide``)."""
    name = PurePosixPath(path.replace("\\", "/")).name
    return PurePosixPath(name).stem or name or "document"
