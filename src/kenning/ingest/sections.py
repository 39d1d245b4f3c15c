"""A document's sections as excerpts, shared by the parsers that cut by titles (Markdown,
reStructuredText): GitHub-style slugs for anchors, each unique in its document, and a section
cut into parts no longer than the cap (``#slug``, ``#slug-part-2``, …)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from .chunks import Chunk
from .split import Lines, split_range

_NOT_SLUG = re.compile(r"[^\w\- ]")


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
