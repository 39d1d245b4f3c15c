"""A "why" answer shows the decision's reasons, not only its title.

A decision node stands for its whole ADR file and cites the file's first section (title,
status, date). A "why did we choose X" answer adds, right after each decision it serves, the
sections of that file that give the decision and its reasons (the heading "Decision",
"Decision outcome", "Rationale", "Justification", "Décision" …: ``RATIONALE_SECTIONS``),
in file order, each citing its own fact, with the decision's node and path in ``explain``
and ``explain.section`` naming the heading. Ranking is not touched: the sections take the
rank after their decision, the rest follows, within the answer's limit.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.pack.select import DECISION_SECTIONS
from kenning.project import Project
from kenning.records import Answer, Excerpt, Fact
from kenning.search.snippet import make_snippet
from kenning.store import facts as fact_store
from kenning.store import lookups
from kenning.store.db import Connection

RATIONALE_SECTIONS = (*DECISION_SECTIONS, "rationale", "justification")


def with_rationale(conn: Connection, project: Project, answer: Answer, *, now: datetime, limit: int) -> Answer:
    """``answer`` with each served decision followed by its rationale sections."""
    served = {excerpt.fact.id for excerpt in answer.excerpts}
    files: FileCheck | None = None
    out: list[Excerpt] = []
    for excerpt in answer.excerpts:
        out.append(excerpt)
        node = (excerpt.explain or {}).get("node") or {}
        if node.get("kind") != "decision" or not node.get("path"):
            continue
        for fact in _sections(conn, project, str(node["path"])):
            if fact.id in served:
                continue
            served.add(fact.id)
            files = files or FileCheck(project.root, conn, split_spans)
            explain = {**(excerpt.explain or {}), "section": _heading(fact)}
            out.append(
                Excerpt(
                    fact,
                    freshness_of(fact, now=now, files=files),
                    make_snippet(fact.body, ()),
                    excerpt.score,
                    0,
                    explain=explain,
                    path=excerpt.path,
                )
            )
    if len(out) == len(answer.excerpts):
        return answer
    kept = tuple(replace(e, rank=rank) for rank, e in enumerate(out[:limit], 1))
    filtered = dict(answer.filtered)
    if len(out) > limit:
        filtered["limit"] = filtered.get("limit", 0) + len(out) - limit
    return replace(answer, excerpts=kept, filtered=filtered)


def _sections(conn: Connection, project: Project, path: str) -> list[Fact]:
    """The active decision facts of ``path`` whose heading gives the decision or its reasons."""
    ids = lookups.active_ids_located_in(conn, [path])
    found = fact_store.get_many(conn, project.name, ids)
    return [
        fact
        for fact in (found[i] for i in ids if i in found)
        if fact.type == "decision" and " > " in fact.title and _heading(fact).lower().startswith(RATIONALE_SECTIONS)
    ]


def _heading(fact: Fact) -> str:
    """The section's own heading: the last part of its title."""
    return fact.title.split(" > ")[-1].strip()
