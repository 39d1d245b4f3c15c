"""The files a document pulls its examples and shared parts from: each include is a ``links_to``
reference from the document to the file, as a Markdown link is, so that "what links to
docs_src/app.py" finds the page that shows it.

- Markdown: Typer's ``{* docs_src/first_steps/tutorial001.py hl[3] *}`` (FastAPI's
  ``{* ../../docs_src/first_steps/tutorial001.py *}``, from ``docs/en/``) and the
  ``pymdownx.snippets`` line ``--8<-- "snippets/note.md"`` (both from the project's root, where
  ``mkdocs.yml`` is, its leading ``../`` dropped: kenning does not read ``mkdocs.yml``), mdBook's
  ``{{#include ../listings/main.rs:2:10}}`` (``rustdoc_include``, ``playground``; from the page's
  folder), MyST's ```` ```{literalinclude} ../src/app.py ````;
- reStructuredText: ``.. literalinclude:: ../src/app.py``, ``.. include:: parts/setup.rst``;
- AsciiDoc: ``include::partials/setup.adoc[]`` (not Antora's ``example$x.adoc`` resource ids).

A path with a line or anchor selector (``main.rs:2:10``, ``main.rs:anchor``) names the file; a
path that leaves the project, a URL, or one built from attributes (``{sourcedir}``) is no reference.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from .relations import Ref

# (pattern, from the project's root): group 1 is the path.
_MARKDOWN = (
    (re.compile(r"^[ \t]*\{\*[ \t]*([^\s*]+)[^\n]*?\*\}", re.MULTILINE), True),
    (re.compile(r"""^[ \t]*-+8<-+[ \t]+["']([^"'\n]+)["']""", re.MULTILINE), True),
    (re.compile(r"\{\{#(?:include|rustdoc_include|playground)[ \t]+([^\s}]+)"), False),
    (re.compile(r"^[ \t]*(?:`{3,}|~{3,}|:{3,})\{(?:literalinclude|include)\}[ \t]+(\S+)", re.MULTILINE), False),
)
_MARKDOWN_CUES = ("{*", "8<-", "{{#", "include}")
_RST = re.compile(r"^[ \t]*\.\.[ \t]+(?:literalinclude|include)::[ \t]+(\S+)", re.MULTILINE)
_ASCIIDOC = re.compile(r"^include::([^\[\s]+)\[", re.MULTILINE)
# A selector after the file's name: ``main.rs:2:10``, ``main.rs:anchor`` (the name has a suffix).
_SELECTOR = re.compile(r"^([^:]*\.[\w+-]+):[^/]*$")
_LEADING_UP = re.compile(r"^(?:\.\.?/)+")  # ``../../`` before a path from the root
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:", re.I)  # an URL's scheme (`https:`, `mailto:`): not a local file


def markdown_includes(text: str, path: str) -> Iterator[Ref]:
    """The files a Markdown page includes (module docstring), in the order of the page's lines."""
    if not any(cue in text for cue in _MARKDOWN_CUES):
        return
    found = [(m.start(), m.group(1), rooted) for pattern, rooted in _MARKDOWN for m in pattern.finditer(text)]
    yield from _refs(text, path, sorted(found))


def rst_includes(text: str, path: str) -> Iterator[Ref]:
    """The files a reStructuredText document includes (``literalinclude``, ``include``)."""
    if "include::" in text:
        yield from _refs(text, path, [(m.start(), m.group(1), False) for m in _RST.finditer(text)])


def asciidoc_includes(text: str, path: str) -> Iterator[Ref]:
    """The files an AsciiDoc document includes (``include::path[]``)."""
    if "include::" in text:
        yield from _refs(text, path, [(m.start(), m.group(1), False) for m in _ASCIIDOC.finditer(text)])


def _refs(text: str, path: str, found: list[tuple[int, str, bool]]) -> Iterator[Ref]:
    folder = posixpath.dirname(path)
    line, counted = 1, 0  # lines counted up to ``counted``, from one include to the next
    for start, raw, rooted in found:
        target = _target(_LEADING_UP.sub("", raw), "") if rooted else _target(raw, folder)
        if target is None or target == path:
            continue
        line += text.count("\n", counted, start)
        counted = start
        yield Ref("links_to", "file", target, line)


def _target(raw: str, folder: str) -> str | None:
    """The project path an include's ``raw`` path names from ``folder`` (its selector dropped:
    ``main.rs:2:10``); None for an attribute or a resource id (``{sourcedir}/x``,
    ``example$x.adoc``), and as for a link (``local_target``)."""
    if any(c in raw for c in "{}$<>"):
        return None
    selected = _SELECTOR.match(raw)
    target = local_target(selected.group(1) if selected else raw, folder)
    return None if target == "." else target


def local_target(raw: str, folder: str) -> str | None:
    """The project path a link's target ``raw`` names from ``folder`` (a leading ``/``: from the
    root; its ``#fragment`` and ``?query`` dropped); None for an anchor in the page, a URL, or a
    path out of the project."""
    if raw.startswith(("#", "//")) or _SCHEME.match(raw):
        return None
    target = raw.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    joined = posixpath.normpath(target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target))
    return None if joined.startswith("..") else joined
