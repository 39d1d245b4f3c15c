"""Markdown files cut into one excerpt per section, following the heading hierarchy.

Only block structure is parsed (headings, setext headings, fences, indented code:
``markdown_blocks``), so a ``#`` line inside a fenced block is never taken for a heading.
Front matter is read only when it is valid YAML giving a mapping; otherwise its lines are
treated as Markdown content, so that nothing written in the file is lost. An MDX page is read
with its components' tags, comments and imports left out (``ingest.mdx``), its lines kept.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Any

from . import markdown_blocks
from .chunks import Chunk
from .mdx import custom_anchor
from .mdx import structure as mdx_structure
from .sections import outline, section_chunks, stem
from .split import index_lines

_FRONT_MATTER = re.compile(r"---[ \t]*\n((?:.*?\n)??)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
# What sends front matter to PyYAML's loader (see ``_loader``).
_YAML_EDGE = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\uffef]|[!&*|>%@`{}\\[\\]\\\\]")


def parse_markdown(text: str, path: str, *, max_chars: int = 2400) -> list[Chunk]:
    """Cut a Markdown document into section chunks (see the module docstring).

    Titles are heading paths (``Guide > Install > On Debian``), anchors GitHub-style slugs,
    line numbers 1-based in the original file, front matter included in the count.
    """
    source = text.removeprefix("\ufeff")
    if "\r" in source:  # lines end as markdown-it and split_lines see them
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    mdx = path.lower().endswith(".mdx")
    if mdx:  # its components, comments and imports are no text of the page (``ingest.mdx``)
        source = mdx_structure(source)
    lines = source.split("\n")
    front, body_start = _front_matter(source)
    markdown = source
    if body_start:  # front matter lines stay, blank, so that line numbers hold
        rest = source.split("\n", body_start)
        markdown = "\n" * body_start + (rest[-1] if len(rest) > body_start else "")
    found, fences = markdown_blocks.blocks(markdown)
    if mdx:  # fumadocs' anchors: ``## Stringbools [#stringbool]``
        found = [
            (line, level, *custom_anchor(name)) if not given else (line, level, name, given)
            for line, level, name, given in found
        ]
    doc = index_lines(lines, fences)
    headings = [(line, level, name) for line, level, name, _ in found]
    anchors = {i: anchor for i, (_, _, _, anchor) in enumerate(found) if anchor}

    h1 = next((name for _, level, name in headings if level == 1 and name), None)
    fm_title = front.get("title") if front else None
    doc_title = h1 or (fm_title.strip() if isinstance(fm_title, str) else "") or stem(path)
    kind = front["type"] if front and isinstance(front.get("type"), str) else "doc"
    meta = {"front_matter": front} if front else {}

    sections = outline(doc_title, headings, 1, body_start, len(lines) - 1, anchors)
    used = {slug for _, slug, _, _, _ in sections}  # a section's parts take slugs not used
    chunks: list[Chunk] = []
    for title, slug, first, last, keywords in sections:
        chunks.extend(section_chunks(doc, title, slug, first, last, max_chars, kind, meta, used, keywords))
    return chunks


def _front_matter(text: str) -> tuple[dict[str, Any], int]:
    """Front matter mapping (JSON-safe) and the number of lines it occupies, or ``({}, 0)``."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, 0
    import yaml  # here: a sync of files without front matter never loads PyYAML (start-up time)

    try:
        data = yaml.load(match.group(1), Loader=_loader(match.group(1)))  # noqa: S506 (safe loaders only)
    except Exception:  # any YAML error (or a pathological document): not front matter
        return {}, 0
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return {}, 0
    closing_line = match.group(1).count("\n") + 1
    return _json_safe(data), closing_line + 1


def _loader(text: str) -> type[Any]:
    """libyaml's safe loader (C, about ten times faster) for front matter written with plain
    and quoted scalars, block mappings and sequences, comments: there both read the same (a
    differential fuzz of 1.2 million such texts found no difference); PyYAML's own for anything
    else (tags, anchors, block scalars, flow collections, tabs, unusual characters), where
    the two differ on edge cases — the reference stays PyYAML's."""
    fast, reference = loaders()
    return fast if fast is not reference and not _YAML_EDGE.search(text) else reference


@cache
def loaders() -> tuple[type[Any], type[Any]]:
    """libyaml's safe loader (PyYAML's where PyYAML was built without libyaml) and PyYAML's."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader), yaml.SafeLoader


def _json_safe(value: Any) -> Any:
    """YAML values made JSON-serialisable: dates to ISO strings, sets to lists, keys to str."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
