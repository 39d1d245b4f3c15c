"""Output schemas: the structured content each tool returns, declared so that clients can
validate it (``-> Annotated[CallToolResult, Model]``). Fields the text shows are typed; the
nested records follow ``kenning.fact/v1`` and ``kenning.answer/v1`` (docs/json.md) and are
left open here to keep the tool list small. Errors are not described here: an error result
carries ``{"error": {"type", "message", "hint"}}`` and ``isError``."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Obj = dict[str, Any]


class Out(BaseModel):
    model_config = ConfigDict(extra="allow")


class AnswerOut(Out):  # kenning.answer/v1
    schema_: str = Field(alias="schema")
    excerpts: list[Obj]


class SearchOut(AnswerOut):
    rollups: list[Obj]


class StrictOut(AnswerOut):
    withheld_weak: int
    withheld_may_be_more: bool


class BudgetOut(AnswerOut):
    budget: Obj


class FactsOut(Out):
    facts: list[Obj]
    missing: list[int]


class TimelineOut(Out):
    anchor: int
    timeline: list[Obj]


class ToolUsesOut(Out):
    tool_uses: list[Obj]
    missing: list[str]


class PackOut(Out):
    built: bool
    status: str


class SavedOut(Out):
    id: int
    citation: str
    created: bool  # (also `tags_added`, undeclared: the default profile's schemas stay within their token budget)


class SupersededOut(Out):
    old: Obj
    new: Obj
    reason: str


class FactOut(Out):  # kenning.fact/v1
    id: int
    citation: str
    lifecycle: str


class ForgottenOut(Out):
    forgotten: int
    citation: str


class GuidedOut(Out):  # step 1 (index + continuation), 2 (context), 3 (facts), auto (mode), or ended
    step: int | None = None
    continuation: str | None = None
