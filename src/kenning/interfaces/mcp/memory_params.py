"""Input types of the memory tools: bounds live in the schema the client sees, and the SDK
validates them before a tool runs (a violation is a validation error naming the field)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from kenning.citation import parse_fact_ref
from kenning.config import Project
from kenning.search.query import MAX_QUERY_BYTES, MAX_QUERY_CHARS


def _utf8_budget(text: str) -> str:
    size = len(text.encode("utf-8"))
    if size > MAX_QUERY_BYTES:
        raise ValueError(f"query is {size} UTF-8 bytes; the limit is {MAX_QUERY_BYTES} (shorten the query)")
    if not text.strip():
        raise ValueError("query is blank")
    return text


Query = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUERY_CHARS, description=f"At most {MAX_QUERY_BYTES} UTF-8 bytes."),
    AfterValidator(_utf8_budget),
]
Limit = Annotated[int, Field(ge=1, le=20)]
ProjectName = Annotated[str | None, Field(max_length=64, description="Default: this server's.")]
Projects = Annotated[str | None, Field(max_length=640, description="This server's, '*' or 'a,b'.")]
TypeFilter = Annotated[
    str | None, Field(max_length=40, pattern=r"^[a-z_]+$", description="observation, decision, doc, code, …")
]
MemoryType = Annotated[
    Literal["durable", "working"] | None, Field(description="Only durable or only working memories.")
]
PathFilter = Annotated[
    str | None, Field(max_length=300, description="Source-path prefix, e.g. `docs/` or `src/kenning/`.")
]
FactRef = Annotated[
    Annotated[int, Field(ge=1, le=2**31)] | Annotated[str, Field(min_length=1, max_length=200)],
    Field(description="42 or kn://<project>/42"),
]  # every form: kenning.citation.FORMS
IdRef = Annotated[
    Annotated[int, Field(ge=1, le=2**31)] | Annotated[str, Field(min_length=1, max_length=128)],
    Field(description="An id."),
]
FactRefs = Annotated[list[FactRef], Field(min_length=1, max_length=20)]


def fact_id(raw: int | str, project: Project) -> int:
    """An id as ``42``, ``"42"``, ``"#42"`` or ``kn://<project>/42`` (the one parser: ``kenning.citation``)."""
    return parse_fact_ref(raw, project.name)
