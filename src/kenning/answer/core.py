"""The core-mode answer: the pack's source facts, each shown with its own text.

The pack's context is the opening of the README (or of the configured context file), which
usually spans several sections, so several facts: the answer cites each fact of that opening
the pack shows, in file order, within the room one entry has (``budget.ENTRY_CHARS``), then
every included convention and decision in pack order.

Every snippet is drawn from the body of the fact it cites (``pack.select.shown_text``: the
fact's text as the pack shows it), never from the manifest, whose ids may name other facts
once the store has been rebuilt: an id whose fact no longer comes from the source the pack
took it from counts as a pack source no longer in the store.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.pack.budget import ENTRY_CHARS, MIN_ENTRY_TEXT
from kenning.pack.select import shown_text
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt, Fact
from kenning.store import facts as fact_store
from kenning.store.db import Connection
from kenning.store.version import store_state
from kenning.tokens import cut_paragraphs

_WORD = re.compile(r"\w+")
LEVEL = 0  # every mode can serve at level 0; ask.py re-exports it


def core_answer(
    conn: Connection, project: Project, manifest: dict[str, Any], question: str, *, now: datetime
) -> Answer:
    """The pack's source facts, in pack order: the facts of the context's opening the pack
    shows, then every included convention and decision; each with its own text."""
    context = manifest.get("context") or {}
    context_ids = [int(i) for i in context.get("fact_ids", [])] if context.get("included") else []
    order = [int(i) for i in manifest.get("order", [])]
    found = fact_store.get_many(conn, project.name, [*context_ids, *order])
    owners = _owners(manifest)
    snippets = manifest.get("snippets", {})
    belongs = {
        i: fact
        for i, fact in found.items()
        if owners.get(i, set()) & _places(fact) and (i not in order or _same_words(snippets.get(str(i)), fact))
    }
    shown: list[tuple[Fact, str]] = []
    room = ENTRY_CHARS
    for fact_id in context_ids:
        fact = belongs.get(fact_id)
        text = shown_text(fact.body) if fact is not None else ""
        if fact is None or not text:
            continue  # a heading alone says nothing
        if shown and room < MIN_ENTRY_TEXT:
            break
        shown.append((fact, cut_paragraphs(text, room)))
        room -= len(shown[-1][1])
    cited = {fact.id for fact, _ in shown}
    missing = 1 if any(i not in belongs for i in context_ids) else 0  # the context file, as one source
    for fact_id in order:
        fact = belongs.get(fact_id)
        if fact is None:
            missing += 1
        elif fact.id not in cited:
            shown.append((fact, cut_paragraphs(shown_text(fact.body), ENTRY_CHARS)))
            cited.add(fact.id)
    files = FileCheck(project.root, conn, split_spans)
    files.preload(loc.path for fact, _ in shown for loc in fact.locations)
    excerpts = tuple(
        Excerpt(fact, freshness_of(fact, now=now, files=files), " ".join(text.split()), 0.0, rank)
        for rank, (fact, text) in enumerate(shown, 1)
    )
    notes = [
        f"core pack {manifest.get('fingerprint', '')[:19]}…, about {manifest.get('estimated_tokens')} "
        f"of {manifest.get('budget_tokens')} tokens; the full text: `kenning pack show` or core_pack()"
    ]
    if missing:
        notes.append(f"{missing} pack source(s) no longer in the store — run `kenning pack build`")
    elif manifest.get("store_state") != store_state(conn):
        notes.append("the store changed since the pack was built — run `kenning pack build`")
    return Answer(
        question,
        "core",
        None,
        LEVEL,
        (project.name,),
        excerpts=excerpts,
        empty_reason=None if excerpts else EmptyReason.NO_MATCH,
        notes=tuple(notes),
    )


def _owners(manifest: dict[str, Any]) -> dict[int, set[str]]:
    """Each cited fact id → the source the pack took it from (a path, or an entry's key)."""
    owners: dict[int, set[str]] = {}
    context = manifest.get("context") or {}
    for fact_id in context.get("fact_ids", []):
        owners.setdefault(int(fact_id), set()).add(str(context.get("path")))
    for entry in (*manifest.get("conventions", []), *manifest.get("decisions", [])):
        ids = entry.get("fact_ids") or []
        if ids:
            owners.setdefault(int(ids[0]), set()).add(str(entry.get("key")))
    return owners


def _same_words(snippet: str | None, fact: Fact) -> bool:
    """Whether the text the pack showed for an entry (the manifest's snippet) is this fact's:
    its words all in the fact's body, in order (the pack leaves out headings and markup, so
    not necessarily side by side). Without a snippet, nothing to compare."""
    if snippet is None:
        return True
    body = iter(_WORD.findall(fact.body.lower()))
    return all(word in body for word in _WORD.findall(snippet.lower()))


def _places(fact: Fact) -> set[str]:
    """What a pack entry's key or the context's path can be for this fact (``select._key``)."""
    places = {fact.source.uri, f"{fact.source.uri}#{fact.id}"}
    for location in fact.locations:
        places.update((location.path, location.uri))
    return places
