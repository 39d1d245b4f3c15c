"""A context pack within a token budget (``recall_context``).

Items are the lenient ranking, best first. Each item is a citation line and as much of its
body as fits; an item is only added when at least its line and ``MIN_BODY_CHARS`` of body
fit, so the pack never ends on a bare title. The budget covers the whole text: header,
framing line and items (tokens estimated as characters ÷ 4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from kenning.memory.layers import Scope, find
from kenning.project import Project
from kenning.records import Answer, Excerpt, Freshness
from kenning.search import lexical
from kenning.search.serve import noting_sync
from kenning.store.handle import Connection
from kenning.tokens import chars_for, cut, estimate

MIN_BODY_CHARS = 80
MAX_BODY_CHARS = 1_200


@dataclass(frozen=True)
class Pack:
    answer: Answer  # the items packed, as excerpts
    items: tuple[str, ...]  # their rendered text
    matching: int  # facts matching the query under the scope
    left_out: int
    bodies_cut: int
    max_tokens: int

    @property
    def used_tokens(self) -> int:
        return estimate("\n".join(self.items))


def item_head(ex: Excerpt, badge: str) -> str:
    fact = ex.fact
    day = (fact.dates.source or fact.dates.indexed)[:10]
    return f"[{fact.citation}] {fact.type} · {fact.title} ({badge}, {day}, score {ex.score:.3g})"


def pack(
    conn: Connection,
    project: Project,
    query: str,
    scope: Scope,
    *,
    max_tokens: int,
    max_items: int,
    reserved_chars: int,
    badge: Callable[[Freshness], str],
    now: datetime,
) -> Pack:
    """Fill ``max_tokens`` minus ``reserved_chars`` (the caller's header and framing)."""
    answer, parsed = find(conn, project, query, scope, max_items, now=now)
    filters = lexical.Filters(scope.types, ("active",), scope.path_prefix, scope.memory_type)
    matching = max(lexical.count_matches(conn, parsed, filters), len(answer.excerpts))
    room = chars_for(max_tokens) - reserved_chars
    items: list[str] = []
    kept: list[Excerpt] = []
    bodies_cut = 0
    for ex in answer.excerpts[:max_items]:
        head = item_head(ex, badge(ex.freshness))
        body_room = min(MAX_BODY_CHARS, room - len(head) - 2 - 4)  # newline, indent, separator
        if body_room < MIN_BODY_CHARS:
            break
        body, lost = cut(" ".join(ex.fact.body.split()), body_room - 2)
        if lost:
            body += " …"
            bodies_cut += 1
        text = f"{head}\n  {body}"
        items.append(text)
        kept.append(ex)
        room -= len(text) + 1
    served = Answer(
        query=answer.query,
        mode="bounded",
        rule=None,
        level=answer.level,
        searched=answer.searched,
        excerpts=tuple(kept),
        empty_reason=answer.empty_reason,
        filtered=answer.filtered,
    )
    return Pack(
        noting_sync(served, project), tuple(items), matching, max(0, matching - len(kept)), bodies_cut, max_tokens
    )
