"""The shapes kenning speaks in: the fact record and the answer. Values only, no I/O.

``Fact.to_json`` and ``Answer.to_json`` are the documented JSON forms
(``kenning.fact/v1`` and ``kenning.answer/v1``, see docs/schemas.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kenning.citation import format_citation

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

FACT_SCHEMA = "kenning.fact/v1"
ANSWER_SCHEMA = "kenning.answer/v1"


class FreshnessState(StrEnum):
    CURRENT = "current"
    STALE = "stale"
    SOURCE_MISSING = "source_missing"
    UNVERIFIED = "unverified"
    HYPOTHESIS = "hypothesis"


class Lifecycle(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    RETIRED = "retired"


class Replaced(StrEnum):
    """Why a sync superseded a fact with a newer reading of the same source (its stored
    ``lifecycle_reason``): the file's excerpt changed, the ledger's record changed, or the commit
    was read again by a newer projection (``graph.projections.GIT_PROJECTION``). Such a fact is
    ``superseded`` (``superseded_by`` names its successor, so an old citation still leads to it),
    but ``kenning status`` counts it apart as ``replaced``: an older reading of a source, not
    knowledge a later decision or note superseded."""

    SOURCE_CHANGED = "source changed"
    PARSER_CHANGED = "read again by another parser"  # the same bytes, a new parser version
    LEDGER_RECORD_CHANGED = "ledger record changed"
    COMMIT_READ_AGAIN = "commit read again"


class EmptyReason(StrEnum):
    NO_MATCH = "no_match"
    INDEX_MISSING = "index_missing"
    PROJECT_UNREADABLE = "project_unreadable"
    ALL_FILTERED = "all_filtered"
    NO_PROJECT = "no_project"  # across projects: none registered, no transverse memory


@dataclass(frozen=True)
class Source:
    """Where a fact comes from: kind (file, commit, task, session, manual), URI, fingerprint."""

    kind: str  # file, commit, task, session, manual
    uri: str
    fingerprint: str | None = None


@dataclass(frozen=True)
class Location:
    """One place an excerpt's content stands (identical content is stored once)."""

    uri: str
    path: str
    line_start: int | None
    line_end: int | None
    fingerprint: str


@dataclass(frozen=True)
class Dates:
    """When the source last changed, when it was indexed, when a person confirmed it.

    ``source_kind`` says where ``source`` comes from: ``commit`` (the last commit that touched
    a file unmodified since, or a commit fact's own date), ``mtime`` (the file's modification
    time: not under git, modified or untracked), ``declared`` (a date the source states:
    front matter, an ADR, a ledger record) or ``saved`` (when a memory or note was saved)."""

    source: str | None
    indexed: str
    confirmed: str | None = None
    source_kind: str | None = None


@dataclass(frozen=True)
class Freshness:
    """A fact's freshness, computed at read (SPEC §5)."""

    state: FreshnessState
    checked: str
    changed: str | None = None  # when the source changed (stale) or went missing
    age_days: int | None = None  # for facts without a re-readable source
    detail: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state.value, "checked": self.checked}
        if self.changed is not None:
            out["changed"] = self.changed
        if self.age_days is not None:
            out["age_days"] = self.age_days
        if self.detail is not None:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class Fact:
    """The fact record ``kenning.fact/v1``."""

    id: int
    project: str
    type: str
    title: str
    body: str
    source: Source
    dates: Dates
    lifecycle: Lifecycle = Lifecycle.ACTIVE
    superseded_by: int | None = None
    lifecycle_reason: str | None = None  # why it is no longer active (``Replaced``, a later decision…)
    producer: str = "projection"
    locations: tuple[Location, ...] = ()
    tags: tuple[str, ...] = ()
    importance: int | None = None
    why: str | None = None
    how_to_apply: str | None = None
    memory_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def citation(self) -> str:
        return format_citation(self.project, self.id)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "citation": self.citation,
            "project": self.project,
            "type": self.type,
            "title": self.title,
            "body": self.body,
            "source": {
                "kind": self.source.kind,
                "uri": self.source.uri,
                "fingerprint": self.source.fingerprint,
            },
            "dates": {
                "source": self.dates.source,
                "source_kind": self.dates.source_kind,
                "indexed": self.dates.indexed,
                "confirmed": self.dates.confirmed,
            },
            "lifecycle": self.lifecycle.value,
            "superseded_by": self.superseded_by,
            "lifecycle_reason": self.lifecycle_reason,
            "producer": self.producer,
            "locations": [
                {
                    "uri": loc.uri,
                    "path": loc.path,
                    "lines": [loc.line_start, loc.line_end] if loc.line_start else None,
                    "fingerprint": loc.fingerprint,
                }
                for loc in self.locations
            ],
            "tags": list(self.tags),
            "importance": self.importance,
            "why": self.why,
            "how_to_apply": self.how_to_apply,
            "memory_type": self.memory_type,
        }
        if self.meta:
            out["meta"] = self.meta
        return out


@dataclass(frozen=True)
class Excerpt:
    """A fact as served: freshness computed now, a snippet, a score and a rank."""

    fact: Fact
    freshness: Freshness
    snippet: str
    score: float
    rank: int
    explain: dict[str, Any] | None = None
    path: tuple[dict[str, Any], ...] | None = None  # typed edges, for graph answers

    def to_json(self, *, full_body: bool = False) -> dict[str, Any]:
        out = self.fact.to_json()
        if not full_body:
            out.pop("body")
        out["freshness"] = self.freshness.to_json()
        out["snippet"] = self.snippet
        out["score"] = round(self.score, 6)
        out["rank"] = self.rank
        if self.explain is not None:
            out["explain"] = self.explain
        if self.path is not None:
            out["path"] = list(self.path)
        return out


@dataclass(frozen=True)
class ScopeEntry:
    """A project left out of an answer's scope, and why."""

    project: str
    reason: str | None = None


@dataclass(frozen=True)
class Answer:
    """The answer contract ``kenning.answer/v1``: sourced excerpts, or why there are none."""

    query: str
    mode: str
    rule: str | None
    level: int
    searched: tuple[str, ...]
    excerpts: tuple[Excerpt, ...] = ()
    excluded: tuple[ScopeEntry, ...] = ()
    degradations: tuple[str, ...] = ()
    empty_reason: EmptyReason | None = None
    filtered: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": ANSWER_SCHEMA,
            "query": self.query,
            "scope": {
                "projects": list(self.searched),
                "excluded": [{"project": e.project, "reason": e.reason} for e in self.excluded],
            },
            "mode": self.mode,
            "rule": self.rule,
            "level": self.level,
            "degradations": list(self.degradations),
            "empty_reason": self.empty_reason.value if self.empty_reason else None,
            "filtered": dict(self.filtered),
            "notes": list(self.notes),
            "excerpts": [e.to_json() for e in self.excerpts],
        }


@dataclass(frozen=True)
class Spans:
    """The excerpts a file gives now: their fingerprints and their keys."""

    fingerprints: frozenset[str]
    keys: frozenset[str]


def span_key(anchor: str, symbol: object, title: str) -> str:
    """The name of a span apart from its text (``anchor``: the URI after the path)."""
    if isinstance(symbol, str) and symbol:
        return f"symbol {symbol}"
    if anchor.startswith("#"):
        return anchor
    return f"title {title}"
