"""Citations of facts (``kn://<project>/<id>``): the one formatter and the one parser that the
CLI, the MCP tools and the records share. Values only, no I/O."""

from __future__ import annotations

import re

from kenning.errors import ScopeDenied, ValidationError

SCHEME = "kn://"
_CITATION = re.compile(r"^kn://(?P<project>[A-Za-z0-9._-]+)/(?P<id>\d+)$")
FORMS = '42, "42", #42 or kn://<project>/42'  # what ``parse_fact_ref`` accepts, for help texts


def format_citation(project: str, fact_id: int) -> str:
    return f"{SCHEME}{project}/{fact_id}"


def parse_fact_ref(raw: int | str, project: str) -> int:
    """A fact id of ``project`` from ``42``, ``"42"``, ``"#42"`` or ``kn://<project>/42``.

    Raises ``ValidationError`` for anything else (ids start at 1) and ``ScopeDenied`` for a
    citation of another project."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ValidationError(f"not a fact id: {raw!r}", hint=f"use {FORMS.replace('<project>', project)}")
    if isinstance(raw, int):
        text = str(raw)
    else:
        text = raw.strip()
        text = text[1:] if text.startswith("#") else text
    if text.isdigit() and text.isascii():
        found = int(text)
    else:
        match = _CITATION.match(text)
        if not match:
            raise ValidationError(f"not a fact id: {raw!r}", hint=f"use {FORMS.replace('<project>', project)}")
        if match["project"] != project:
            raise ScopeDenied(
                f"{text} belongs to project {match['project']!r}, not {project!r}",
                hint=f"ask project {match['project']!r} itself (its --project path, or its kenning server)",
            )
        found = int(match["id"])
    if found < 1:
        raise ValidationError(f"not a fact id: {raw!r} (ids start at 1)")
    return found
