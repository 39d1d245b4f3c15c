"""Markdown relations: links between files (``links_to``; an example's or a part's include too,
``ingest.doc_includes``) and decision records (ADR).

An ADR is a Markdown file under ``docs/adr``, ``docs/decisions``, ``adr/`` or ``decisions/``
(at any depth), or any file whose front matter says ``type: decision``. Both MADR (front
matter or ``* Status: …`` bullets) and Nygard (``## Status`` section) styles are read.
"Superseded by ADR-0007" and "Supersedes ADR-0003" (or a link to the other ADR's file)
become declared ``supersedes`` references.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from .chunks import Chunk
from .doc_includes import local_target, markdown_includes
from .markdown import parse_markdown
from .relations import Ref, Relations

ADR_DIRS = ("docs/adr", "docs/decisions", "adr", "decisions")

# A link, not an image (no `!` before it: see `_link_matches`); its target is group 1.
_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_NUMBER = re.compile(r"^(\d{1,5})(?=[-_. ]|$)")
_ADR_REF = re.compile(r"\bADR[-_ ]?0*(\d{1,5})\b", re.I)
_SUPERSEDED_BY = re.compile(r"superseded\s+by\b[:\s]*(.*)", re.I)
_SUPERSEDES = re.compile(r"(?:^|[\s*:>|-])supersedes\b[:\s]*(.*)", re.I)
_FIELD = re.compile(r"^\s*(?:[-*]\s*)?\**(status|date)\**\s*:\s*\**\s*(.+?)\s*$", re.I | re.M)
_STATUS_SECTION = re.compile(r"^#{1,6}\s*status\s*$\n+((?:(?!#).*\n?){1,6})", re.I | re.M)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_markdown_relations(text: str, path: str) -> tuple[list[Chunk], Relations]:
    chunks = parse_markdown(text, path)
    front = (chunks[0].meta.get("front_matter") if chunks else None) or {}
    refs = [*_links(text, path), *markdown_includes(text, path)]
    decision = None
    if is_decision(path, front):
        decision = decision_info(text, path, front, chunks[0].title if chunks else path)
        meta = {"status": decision["status"], "date": decision["date"], "id": decision["name"]}
        chunks = [replace(c, type="decision", meta={**c.meta, "decision": meta}) for c in chunks]
        refs.extend(_supersedes(text, path))
    return chunks, Relations(refs=tuple(refs), decision=decision)


def is_decision(path: str, front: dict[str, Any]) -> bool:
    if isinstance(front, dict) and str(front.get("type", "")).lower() == "decision":
        return True
    folder = posixpath.dirname(path.lower())
    return any(folder == d or folder.endswith("/" + d) for d in ADR_DIRS)


def adr_name(path: str, front: dict[str, Any]) -> str:
    """``ADR-0007`` from front matter ``id`` or the file name's leading number, else the stem."""
    ident = front.get("id") if isinstance(front, dict) else None
    if ident is not None:
        match = _ADR_REF.search(str(ident)) or re.fullmatch(r"0*(\d{1,5})", str(ident))
        if match:
            return f"ADR-{int(match.group(1)):04d}"
        return str(ident)
    stem = PurePosixPath(path).stem
    match = _NUMBER.match(stem) or _ADR_REF.match(stem)
    return f"ADR-{int(match.group(1)):04d}" if match else stem


def decision_info(text: str, path: str, front: dict[str, Any], title: str) -> dict[str, Any]:
    status = front.get("status") if isinstance(front, dict) else None
    date = front.get("date") if isinstance(front, dict) else None
    for key, value in _FIELD.findall(text):
        if key.lower() == "status" and status is None:
            status = value
        elif key.lower() == "date" and date is None:
            date = value
    if status is None:
        section = _STATUS_SECTION.search(text)
        if section:
            status = " ".join(section.group(1).split())
    date_match = _DATE.search(str(date)) if date is not None else None
    return {
        "name": adr_name(path, front),
        "title": title,
        "status": " ".join(str(status).split())[:200] if status else None,
        "date": date_match.group(0) if date_match else None,
    }


def _links(text: str, path: str) -> Iterator[Ref]:
    if "](" not in text:  # every link has one: no need to scan the text with the pattern
        return
    folder = posixpath.dirname(path)
    line, counted = 1, 0  # lines counted up to `counted`, from one link to the next
    for match in _link_matches(text):
        target = local_target(match.group(1), folder)
        if target and target != path:
            start = match.start()
            line += text.count("\n", counted, start)
            counted = start
            yield Ref("links_to", "file", target, line)


def _link_matches(text: str) -> Iterator[re.Match[str]]:
    """The matches of ``(?<!!)`` + ``_LINK``, as ``finditer`` gives them, about ten times faster:
    a pattern that starts with a look-behind makes the regex engine try every position, one
    that starts with ``[`` jumps from bracket to bracket. A match after ``!`` (an image) is
    dropped and the search resumes one character later, where the look-behind's would."""
    pos = 0
    while (match := _LINK.search(text, pos)) is not None:
        start = match.start()
        if start and text[start - 1] == "!":
            pos = start + 1
            continue
        yield match
        pos = match.end()


def _supersedes(text: str, path: str) -> Iterator[Ref]:
    """Refs from this ADR: ``Supersedes X`` gives this -> X; ``Superseded by Y`` gives Y -> this."""
    folder = posixpath.dirname(path)
    for lineno, line in enumerate(text.splitlines(), start=1):
        for pattern, reverse in ((_SUPERSEDED_BY, True), (_SUPERSEDES, False)):
            match = pattern.search(line)
            if not match:
                continue
            rest = match.group(1)
            targets = [("decision", f"ADR-{int(m.group(1)):04d}") for m in _ADR_REF.finditer(rest)]
            if not targets:
                targets = [("file", t) for t in (local_target(m.group(1), folder) for m in _link_matches(rest)) if t]
            for kind, target in targets:
                yield Ref("supersedes", kind, target, lineno, reverse=reverse)
            break
