"""Input types of the memory tools: bounds live in the schema the client sees, and the SDK
validates them before a tool runs (a violation is a validation error naming the field)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from kenning.config import Project
from kenning.errors import ScopeDenied, ValidationError
from kenning.search.query import MAX_QUERY_BYTES, MAX_QUERY_CHARS


def _utf8_budget(text: str) -> str:
    size = len(text.encode("utf-8"))
    if size > MAX_QUERY_BYTES:
        raise ValueError(f"query is {size} UTF-8 bytes; the limit is {MAX_QUERY_BYTES} (shorten the query)")
    if not text.strip():
        raise ValueError("query is blank")
    return text


Query = Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS,
                             description=f"Search text, at most {MAX_QUERY_CHARS} characters and "
                                         f"{MAX_QUERY_BYTES} UTF-8 bytes."),
                  AfterValidator(_utf8_budget)]
Limit = Annotated[int, Field(ge=1, le=20, description="Most rows to return (1-20).")]
ProjectName = Annotated[str | None, Field(max_length=64, description="Project name; only this server's "
                                                                      "project is allowed (default: it).")]
TypeFilter = Annotated[str | None, Field(max_length=40, pattern=r"^[a-z_]+$",
                                         description="Only facts of this type: observation, decision, doc, "
                                                     "code, session_summary, …")]
MemoryType = Annotated[Literal["durable", "working"] | None,
                       Field(description="Only durable or only working memories.")]
PathFilter = Annotated[str | None, Field(max_length=300, description="Source-path prefix, e.g. `docs/` or "
                                                                     "`src/kenning/`.")]
FactRef = Annotated[int | str, Field(description="An id: 42, \"42\" or kn://<project>/42.")]
FactRefs = Annotated[list[FactRef], Field(min_length=1, max_length=20, description="1-20 ids: 42, \"42\" or "
                                                                                  "kn://<project>/42.")]

_CITATION = re.compile(r"^kn://(?P<project>[A-Za-z0-9._-]+)/(?P<id>\d+)$")


def fact_id(raw: int | str, project: Project) -> int:
    """An id as an integer, a digit string or ``kn://<project>/<id>`` of this project."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        if raw < 1:
            raise ValidationError(f"not a fact id: {raw}")
        return raw
    text = str(raw).strip().lstrip("#")
    if text.isdigit():
        return int(text)
    match = _CITATION.match(text)
    if not match:
        raise ValidationError(f"not a fact id: {raw!r}", hint=f"use 42, \"42\" or kn://{project.name}/42")
    if match["project"] != project.name:
        raise ScopeDenied(f"{text} belongs to project {match['project']!r}; this server serves {project.name!r}",
                          hint=f"use the kenning server of project {match['project']!r}")
    return int(match["id"])
