"""The transverse memory: the user's cross-project notes (preferences, habits) in a store of
its own under ``KENNING_HOME/global``, and explicit promotion of a project fact into it.

It is a kenning store like any project's, opened through the same store functions; its facts
cite as ``kn://global/<id>``, carry no re-readable source (``unverified``, then
``hypothesis`` after 270 days unconfirmed; demoted after 90) and are served in cross-project
answers labelled ``global``. A promoted fact keeps its provenance in ``meta.promoted_from``
(origin project, id, citation, source and locations); a confidential project's facts are
never promoted.

No sync reads files there, so the dense index (level 1) is kept whole at each save
(:func:`embed_global`, called by the interfaces after a save or a promotion unless told not to);
`kenning sync --global` (:func:`sync_global`) embeds what a save left (``--no-embed``, a failure).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kenning import dense
from kenning.across.stores import global_project
from kenning.clock import iso
from kenning.errors import ScopeDenied
from kenning.ingest.identifiers import keywords_for
from kenning.lifecycle import Saved, remember
from kenning.project import Project
from kenning.records import Fact
from kenning.registry import check_home
from kenning.store import facts as fact_store
from kenning.store import transverse
from kenning.store.db import connect, transaction
from kenning.store.readonly import open_readonly


def remember_global(
    home: Path,
    text: str,
    *,
    now: datetime,
    title: str | None = None,
    type_: str = "fact",
    tags: tuple[str, ...] = (),
    origin: str = "cli",
    producer: str = "human",
) -> tuple[Project, Saved]:
    """Save a note in the transverse memory (created on first use)."""
    check_home(home)
    glob = global_project(home)
    conn = connect(glob.db_path, create=True)
    try:
        return glob, remember(
            conn, text, now=now, title=title, type_=type_, tags=tags, origin=origin, producer=producer
        )
    finally:
        conn.close()


def embed_global(home: Path) -> dict[str, Any] | None:
    """Embed every note of the transverse memory its dense index lacks, building the index where
    there is none (``dense.embed_notes``): called after a save or a promotion, so a note saved
    globally is searched like any other. ``None`` when dense does not run here."""
    glob = global_project(home)
    if not glob.db_path.is_file():
        return None
    conn = connect(glob.db_path)
    try:
        return dense.embed_notes(conn, glob)
    finally:
        conn.close()


def sync_global(home: Path, *, embed_budget: float | None = None) -> dict[str, Any]:
    """`kenning sync --global`: the transverse memory has no files to read; its notes the
    index lacks are embedded as a project's sync embeds its excerpts (``dense.update``, same
    report; ``embed_budget``: its time, as ``--embed-budget`` gives it). A memory that holds
    nothing yet has nothing to embed."""
    check_home(home)
    glob = global_project(home)
    report: dict[str, Any] = {"project": glob.name, "root": str(glob.root)}
    if not glob.db_path.is_file():
        return {**report, "dense": {"available": False, "reason": "nothing to embed: no note saved with --global yet"}}
    conn = connect(glob.db_path, create=True)  # a memory saved by an older kenning is migrated, as a save would
    try:
        return {
            **report,
            "dense": dense.update(conn, glob, command="kenning sync --global", budget_seconds=embed_budget),
        }
    finally:
        conn.close()


@dataclass(frozen=True)
class Promoted:
    origin: Fact
    fact_id: int
    created: bool

    @property
    def citation(self) -> str:
        return f"kn://global/{self.fact_id}"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.fact_id,
            "citation": self.citation,
            "created": self.created,
            "promoted_from": provenance(self.origin),
        }


def provenance(fact: Fact) -> dict[str, object]:
    return {
        "project": fact.project,
        "id": fact.id,
        "citation": fact.citation,
        "source": {"kind": fact.source.kind, "uri": fact.source.uri, "fingerprint": fact.source.fingerprint},
        "locations": [loc.uri for loc in fact.locations],
    }


def promote(project: Project, fact_id: int, home: Path, *, now: datetime) -> Promoted:
    """Copy fact ``fact_id`` of ``project`` into the transverse memory, with its provenance.
    Refused for a confidential project; promoting the same text twice returns the first copy."""
    if project.config.confidential:
        raise ScopeDenied(
            f"project {project.name!r} is confidential: its facts are never promoted to the transverse memory",
            hint="save a note without its confidential content with `kenning remember --global`",
        )
    source = open_readonly(project.db_path)
    try:
        fact = fact_store.get(source, project.name, fact_id)
    finally:
        source.close()
    stamp = iso(now)
    new = fact_store.NewFact(
        type=fact.type,
        title=fact.title,
        body=fact.body,
        source_kind="manual",
        source_uri=f"promoted:{fact.citation}",
        producer="promotion",
        date_indexed=stamp,
        date_source=fact.dates.source or fact.dates.indexed,
        date_source_kind=fact.dates.source_kind if fact.dates.source else "saved",
        date_confirmed=stamp,
        keywords=keywords_for(fact.title, " ".join(fact.tags)),
        tags=fact.tags,
        importance=fact.importance,
        why=fact.why,
        how_to_apply=fact.how_to_apply,
        memory_type=fact.memory_type,
        meta={"promoted_from": provenance(fact)},
    )
    check_home(home)
    conn = connect(global_project(home).db_path, create=True)
    try:
        with transaction(conn):
            existing = transverse.active_manual_with_hash(conn, new.content_hash)
            if existing is not None:
                return Promoted(fact, existing, created=False)
            return Promoted(fact, fact_store.insert(conn, new), created=True)
    finally:
        conn.close()
