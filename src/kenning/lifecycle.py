"""Governance gestures on facts: remember, supersede, confirm, forget (SPEC §5)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kenning.clock import iso
from kenning.errors import SourceOwned, UsageError, ValidationError
from kenning.ingest.identifiers import keywords_for
from kenning.records import Fact, Lifecycle
from kenning.search.fact_types import check_types
from kenning.store import facts as fact_store
from kenning.store import memory as memory_store
from kenning.store.db import transaction
from kenning.store.handle import Connection

MEMORY_TYPES = ("durable", "working")
_AGENT_FILES = (".kenning/",)  # files kenning writes for agents (the ledger): not project truth


@dataclass(frozen=True)
class Saved:
    fact_id: int
    created: bool
    tags_added: tuple[str, ...] = ()  # an identical note saved again with new tags: the tags merged into it


def remember(
    conn: Connection,
    text: str,
    *,
    now: datetime,
    title: str | None = None,
    type_: str = "fact",
    tags: tuple[str, ...] = (),
    producer: str = "human",
    origin: str = "cli",
    importance: int | None = None,
    why: str | None = None,
    how_to_apply: str | None = None,
    memory_type: str | None = None,
) -> Saved:
    """Save a note as a fact with no re-readable source. An identical active note is not
    saved twice: its id comes back with ``created=False``."""
    body = text.strip()
    if not body:
        raise ValidationError("nothing to remember: the text is empty")
    if importance is not None and not 1 <= importance <= 10:
        raise ValidationError("importance must be between 1 and 10")
    if memory_type is not None and memory_type not in MEMORY_TYPES:
        raise ValidationError(f"memory_type must be one of {', '.join(MEMORY_TYPES)}")
    title = (title or _first_line(body)).strip()
    stamp = iso(now)
    new = fact_store.NewFact(
        type=type_,
        title=title,
        body=body,
        source_kind="manual",
        source_uri=f"manual:{origin}",
        producer=producer,
        date_indexed=stamp,
        date_source=stamp,
        date_source_kind="saved",
        date_confirmed=stamp,
        keywords=keywords_for(title, " ".join(tags)),
        tags=tags,
        importance=importance,
        why=why,
        how_to_apply=how_to_apply,
        memory_type=memory_type,
    )
    with transaction(conn):
        check_types(conn, (type_,))
        known = memory_store.active_note(conn, new.content_hash, ("manual",))
        if known is not None:
            return Saved(known, created=False, tags_added=merge_tags(conn, known, title, tags))
        return Saved(fact_store.insert(conn, new), created=True)


def merge_tags(conn: Connection, fact_id: int, title: str, tags: tuple[str, ...]) -> tuple[str, ...]:
    """Add to an existing note the ``tags`` it lacks (its keywords, hence search, follow);
    returns the tags added. Saving the same text again with new tags is how a user tags it."""
    current = fact_store.tags_of(conn, fact_id)
    added = tuple(t for t in dict.fromkeys(tags) if t not in current)
    if added:
        merged = (*current, *added)
        fact_store.set_tags(conn, fact_id, merged, keywords_for(title, " ".join(merged)))
    return added


def supersede(
    conn: Connection, project: str, old_id: int, new_id: int, *, now: datetime, reason: str | None = None
) -> tuple[Fact, Fact]:
    if old_id == new_id:
        raise ValidationError("a fact cannot supersede itself")
    with transaction(conn):
        old = fact_store.get(conn, project, old_id)
        new = fact_store.get(conn, project, new_id)
        _refuse_project_source(old, "supersede")
        if new.lifecycle is not Lifecycle.ACTIVE:
            raise UsageError(f"#{new_id} is {new.lifecycle.value}; only an active fact can supersede another")
        if old.lifecycle is Lifecycle.SUPERSEDED:
            raise UsageError(f"#{old_id} is already superseded by #{old.superseded_by}")
        fact_store.set_lifecycle(conn, old_id, Lifecycle.SUPERSEDED, when=iso(now), reason=reason, superseded_by=new_id)
        return fact_store.get(conn, project, old_id), new


def confirm(conn: Connection, project: str, fact_id: int, *, now: datetime) -> Fact:
    with transaction(conn):
        fact_store.get(conn, project, fact_id)
        fact_store.confirm(conn, fact_id, iso(now))
        return fact_store.get(conn, project, fact_id)


def forget(conn: Connection, project: str, fact_id: int) -> Fact:
    """Delete a fact for good. Facts it superseded keep pointing nowhere (set to NULL)."""
    with transaction(conn):
        fact = fact_store.get(conn, project, fact_id)
        _refuse_project_source(fact, "forget")
        fact_store.delete(conn, fact_id)
        return fact


def _refuse_project_source(fact: Fact, gesture: str) -> None:
    """Excerpts of project files (code, docs, ADRs) and of git history follow their source at
    each sync: hiding one by hand would hide what the file still says (and did survive a
    resync). Agent memories, notes and ledger records keep their gestures."""
    path = fact.source.uri.split("#", 1)[0]
    if fact.source.kind == "commit" or (fact.source.kind == "file" and not path.startswith(_AGENT_FILES)):
        raise SourceOwned(
            f"cannot {gesture} {fact.citation}: it is an excerpt of {fact.source.uri}, and the file is the truth",
            hint="change the file (the next sync follows it), or record the decision in an ADR "
            "(docs/adr/) and sync; supersede and forget apply to memories and notes",
        )


def _first_line(body: str, width: int = 80) -> str:
    line = body.splitlines()[0]
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
