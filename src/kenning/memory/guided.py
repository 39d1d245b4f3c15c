"""``mem_search``: the guided three-step flow and the automatic one (SPEC §11).

Guided: step 1 discloses an index (ids and titles) and a cursor; step 2 takes ids from that
index and discloses their chronological context and a new cursor; step 3 takes ids from that
context and discloses their full records (at most ``max_details``). Every continuation is
checked against the stored state: the step, the ids, the options, the scope and the facts
themselves. Automatic: the same three steps in one call, choosing the best-ranked ids, with
no model call, so the same store and query always give the same answer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from kenning.citation import parse_fact_ref
from kenning.errors import OptionsChanged, ScopeChanged, SkippedStep, UndisclosedId, ValidationError
from kenning.memory import cursors
from kenning.memory.layers import Detail, Scope, details, find
from kenning.memory.timeline import Entry, around
from kenning.project import Project
from kenning.records import Answer
from kenning.store.handle import Connection

MAX_ANCHORS = 5


@dataclass(frozen=True)
class Options:
    limit: int = 20
    max_details: int = 3
    depth_before: int = 1
    depth_after: int = 1

    def check(self) -> Options:
        for name, value, low, high in (
            ("limit", self.limit, 1, 20),
            ("maxDetails", self.max_details, 1, 5),
            ("depthBefore", self.depth_before, 0, 3),
            ("depthAfter", self.depth_after, 0, 3),
        ):
            if not low <= value <= high:
                raise ValidationError(f"{name} must be between {low} and {high}, got {value}")
        return self


@dataclass(frozen=True)
class Asked:
    """What a continuation call passed besides the cursor (None = not passed)."""

    selected: tuple[str, ...]
    step: int | None = None
    query: str | None = None
    project: str | None = None
    types: tuple[str, ...] | None = None
    options: dict[str, int | None] | None = None


@dataclass(frozen=True)
class IndexStep:
    answer: Answer
    token: str | None  # None when nothing matched: nothing to continue


@dataclass(frozen=True)
class ContextStep:
    entries: tuple[Entry, ...]
    anchors: tuple[int, ...]
    token: str
    max_details: int


@dataclass(frozen=True)
class DetailStep:
    details: tuple[Detail, ...]


@dataclass(frozen=True)
class Ended:
    token: str


@dataclass(frozen=True)
class AutoResult:
    index: Answer
    anchors: tuple[int, ...]
    context: tuple[Entry, ...]
    details: tuple[Detail, ...]


def start(
    conn: Connection, project: Project, query: str, options: Options, scope: Scope, *, now: datetime
) -> IndexStep:
    options.check()
    answer, _ = find(conn, project, query, scope, options.limit, now=now)
    if not answer.excerpts:
        return IndexStep(answer, None)
    ids = [ex.fact.id for ex in answer.excerpts]
    token = cursors.issue(
        conn,
        step=1,
        project=project.name,
        query=query,
        options=asdict(options),
        scope=_scope_json(scope),
        disclosed=ids,
        now=now,
    )
    return IndexStep(answer, token)


def proceed(
    conn: Connection, project: Project, token: str, asked: Asked, *, now: datetime
) -> ContextStep | DetailStep | Ended:
    cursor = cursors.load(conn, token, now=now)
    _same_call(cursor, asked)
    if not asked.selected:
        cursors.close(conn, cursor.token)
        return Ended(cursor.token)
    wanted = cursor.step + 1
    if asked.step is not None and asked.step != wanted:
        raise SkippedStep(
            f"step {asked.step} asked, but this cursor comes from step {cursor.step}: the next step is {wanted}",
            hint=_next_hint(cursor.step),
        )
    ids = _selected_ids(cursor, asked.selected, project.name)
    options = Options(**cursor.options)
    if cursor.step == 1:
        if len(ids) > MAX_ANCHORS:
            raise ValidationError(
                f"at most {MAX_ANCHORS} anchors at step 2, got {len(ids)}",
                hint="select the few most relevant ids from the index",
            )
        entries = around(conn, project, ids, options.depth_before, options.depth_after, now=now)
        shown = [e.fact.id for e in entries]
        new = cursors.issue(
            conn,
            step=2,
            project=cursor.project,
            query=cursor.query,
            options=cursor.options,
            scope=cursor.scope,
            disclosed=shown,
            now=now,
        )
        return ContextStep(tuple(entries), tuple(ids), new, options.max_details)
    if len(ids) > options.max_details:
        raise ValidationError(
            f"at most maxDetails={options.max_details} details, got {len(ids)}",
            hint=f"select at most {options.max_details} ids from the context",
        )
    found, _ = details(conn, project, ids, now=now)
    return DetailStep(tuple(found))


def auto(
    conn: Connection, project: Project, query: str, options: Options, scope: Scope, *, now: datetime
) -> AutoResult:
    options.check()
    answer, _ = find(conn, project, query, scope, options.limit, now=now)
    anchors = tuple(ex.fact.id for ex in answer.excerpts[: options.max_details])
    context = (
        around(conn, project, list(anchors), options.depth_before, options.depth_after, now=now) if anchors else []
    )
    found, _ = details(conn, project, list(anchors), now=now)
    return AutoResult(answer, anchors, tuple(context), tuple(found))


def _scope_json(scope: Scope) -> dict[str, Any]:
    return {
        "types": sorted(scope.types),
        "path_prefix": scope.path_prefix,
        "memory_type": scope.memory_type,
        "prefer_working": scope.prefer_working,
    }


def _same_call(cursor: cursors.Cursor, asked: Asked) -> None:
    restart = f'restart with mem_search(query="{cursor.query}", mode="guided") and the options you want'
    if asked.project is not None and asked.project != cursor.project:
        raise ScopeChanged(f"this cursor searches project {cursor.project!r}, not {asked.project!r}", hint=restart)
    if asked.types is not None and sorted(asked.types) != cursor.scope["types"]:
        raise ScopeChanged("the type filter differs from the one this search started with", hint=restart)
    if asked.query is not None and asked.query != cursor.query:
        raise OptionsChanged("the query differs from the one this search started with", hint=restart)
    for name, value in (asked.options or {}).items():
        if value is not None and cursor.options.get(name) != value:
            raise OptionsChanged(
                f"{_camel(name)}={value} differs from this search's {_camel(name)}={cursor.options.get(name)}",
                hint=restart,
            )


def _selected_ids(cursor: cursors.Cursor, selected: tuple[str, ...], project: str) -> list[int]:
    disclosed = set(cursor.disclosed)
    ids: list[int] = []
    where = "the index (step 1)" if cursor.step == 1 else "the context (step 2)"
    for raw in selected:
        try:
            chosen = parse_fact_ref(raw, project)  # another project's kn://other/N: ScopeDenied
        except ValidationError:
            chosen = None
        if chosen is None or chosen not in disclosed:
            raise UndisclosedId(
                f"id {raw!r} was not shown by {where} of this search",
                hint=f"choose ids listed by {where}; never invent an id",
            )
        ids.append(chosen)
    return list(dict.fromkeys(ids))


def _next_hint(step: int) -> str:
    if step == 1:
        return "call step 2 first: mem_search(continuation=<cursor from step 1>, selectedIds=[ids from the index])"
    return "call mem_search(continuation=<cursor from step 2>, selectedIds=[ids from the context])"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
