"""Saving observations: facts written by an agent or a person, with no re-readable source.

Same semantics as ``lifecycle.remember``: an identical active note is not saved twice, its
id comes back with ``created=False``. An observation written in a session has source kind
``session`` (``session:<id>``) and opens that session if it is new; otherwise ``manual``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kenning.clock import iso
from kenning.errors import ValidationError
from kenning.ingest.identifiers import keywords_for
from kenning.lifecycle import MEMORY_TYPES, Saved, merge_tags
from kenning.memory import sessions
from kenning.search.fact_types import check_types
from kenning.store import facts as fact_store
from kenning.store import memory as memory_store
from kenning.store.db import transaction
from kenning.store.handle import Connection

PRODUCERS = ("agent", "human")
MEMORY_SOURCE_KINDS = ("session", "manual")
MAX_TEXT_CHARS = 20_000
MAX_TITLE_CHARS = 200


@dataclass(frozen=True)
class Observation:
    text: str
    title: str | None = None
    type: str = "observation"
    tags: tuple[str, ...] = ()
    importance: int | None = None
    why: str | None = None
    how_to_apply: str | None = None
    memory_type: str | None = None
    session_id: str | None = None
    producer: str = "agent"
    origin: str = "mcp"


def check(obs: Observation) -> None:
    body = obs.text.strip()
    if not body:
        raise ValidationError("nothing to save: the text is empty")
    if len(body) > MAX_TEXT_CHARS:
        raise ValidationError(f"the text is {len(body)} characters; the limit is {MAX_TEXT_CHARS}")
    if obs.title is not None and len(obs.title) > MAX_TITLE_CHARS:
        raise ValidationError(f"the title is {len(obs.title)} characters; the limit is {MAX_TITLE_CHARS}")
    if obs.importance is not None and not 1 <= obs.importance <= 10:
        raise ValidationError("importance must be between 1 and 10")
    if obs.memory_type is not None and obs.memory_type not in MEMORY_TYPES:
        raise ValidationError(f"memory_type must be one of {', '.join(MEMORY_TYPES)}")
    if obs.producer not in PRODUCERS:
        raise ValidationError(f"producer must be one of {', '.join(PRODUCERS)}")
    if not obs.type.strip() or not obs.type.replace("_", "").isalnum():
        raise ValidationError(f"type {obs.type!r} must be a word such as observation, decision, failure")


def save(conn: Connection, project: str, obs: Observation, *, now: datetime) -> Saved:
    check(obs)
    body = obs.text.strip()
    title = (obs.title or _first_line(body)).strip()
    stamp = iso(now)
    kind, uri = ("session", f"session:{obs.session_id}") if obs.session_id else ("manual", f"manual:{obs.origin}")
    new = fact_store.NewFact(
        type=obs.type,
        title=title,
        body=body,
        source_kind=kind,
        source_uri=uri,
        producer=obs.producer,
        date_indexed=stamp,
        date_source=stamp,
        date_source_kind="saved",
        date_confirmed=stamp,
        keywords=keywords_for(title, " ".join(obs.tags)),
        tags=obs.tags,
        importance=obs.importance,
        why=obs.why,
        how_to_apply=obs.how_to_apply,
        memory_type=obs.memory_type,
    )
    with transaction(conn):
        check_types(conn, (obs.type,))
        known = memory_store.active_note(conn, new.content_hash, MEMORY_SOURCE_KINDS)
        if known is not None:
            return Saved(known, created=False, tags_added=merge_tags(conn, known, title, obs.tags))
        if obs.session_id:
            sessions.touch(conn, project, obs.session_id, now=now)
        fact_id = fact_store.insert(conn, new)
        memory_store.set_fact_session(conn, fact_id, obs.session_id)
        return Saved(fact_id, created=True)


def _first_line(body: str, width: int = 80) -> str:
    line = body.splitlines()[0].strip()
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
