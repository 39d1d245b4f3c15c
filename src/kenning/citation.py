"""Citations of facts (``kn://<project>/<id>``): the one formatter and the one parser that the
CLI, the MCP tools and the records share. Values only, no I/O."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.errors import NotFound, ScopeDenied, ValidationError

SCHEME = "kn://"
_CITATION = re.compile(r"^kn://(?P<project>[A-Za-z0-9._-]+)/(?P<id>[0-9]+)$")  # ASCII digits: `²` is no id
MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger id never reaches a query (OverflowError)
_MAX_DIGITS = 19
# what ``parse_fact_ref`` accepts, for help texts: ``#42`` quoted, as a shell reads a bare # as a comment
FORMS = "42, '#42' or kn://<project>/42"


def format_citation(project: str, fact_id: int) -> str:
    return f"{SCHEME}{project}/{fact_id}"


def parse_fact_ref(raw: int | str, project: str) -> int:
    """A fact id of ``project`` from ``42``, ``"42"``, ``"#42"`` or ``kn://<project>/42``.

    Raises ``ValidationError`` for anything else (ids start at 1) and ``ScopeDenied`` for a
    citation of another project."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ValidationError(f"not a fact id: {raw!r}", hint=f"use {FORMS.replace('<project>', project)}")
    if isinstance(raw, int):
        if not 1 <= raw <= MAX_ID:
            raise ValidationError(f"not a fact id: {_shown(raw)} (ids run from 1 to {MAX_ID})")
        text = str(raw)
    else:
        text = raw.strip()
        text = text[1:] if text.startswith("#") else text
    if text.isdigit() and text.isascii():
        found = int(text) if len(text) <= _MAX_DIGITS else 0
    else:
        match = _CITATION.match(text)
        if not match:
            raise ValidationError(f"not a fact id: {_shown(raw)}", hint=f"use {FORMS.replace('<project>', project)}")
        if match["project"] != project:
            raise ScopeDenied(
                f"{text} belongs to project {match['project']!r}, not {project!r}",
                hint=f"ask project {match['project']!r} itself (its --project path, or its kenning server)",
            )
        found = int(match["id"]) if len(match["id"]) <= _MAX_DIGITS else 0
    if not 1 <= found <= MAX_ID:
        raise ValidationError(f"not a fact id: {_shown(raw)} (ids run from 1 to {MAX_ID})")
    return found


def cited_project(raw: int | str) -> str | None:
    """The project a ``kn://<project>/<id>`` citation names (None for a bare id or anything else)."""
    match = _CITATION.match(raw.strip()) if isinstance(raw, str) else None
    return match["project"] if match else None


def facts_not_found(ids: Sequence[int], project: str) -> NotFound:
    """The one refusal of a look-up by id where none of the ids exists (CLI `get`, `memory
    get`, MCP `memory_get`); when some exist, the answer lists the others as ``missing``."""
    return NotFound(f"no fact {', '.join(f'#{i}' for i in ids)} in project {project!r}")


def _shown(raw: object) -> str:
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "…"
