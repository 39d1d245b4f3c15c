"""A stored fact row (any engine's: mapping access by column name) as a ``Fact``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from kenning.records import Dates, Fact, Lifecycle, Location, Source
from kenning.store.bodies import text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


# The columns a ``Fact`` is made of, in the order ``values_to_fact`` reads them.
FACT_FIELDS = (
    "id",
    "type",
    "title",
    "body",
    "source_kind",
    "source_uri",
    "fingerprint",
    "date_source",
    "date_indexed",
    "date_confirmed",
    "date_source_kind",
    "lifecycle",
    "superseded_by",
    "lifecycle_reason",
    "producer",
    "tags",
    "importance",
    "why",
    "how_to_apply",
    "memory_type",
    "meta",
)
_LIFECYCLES = {lifecycle.value: lifecycle for lifecycle in Lifecycle}


def row_to_fact(row: Any, project: str, locations: Sequence[Location] = ()) -> Fact:
    return values_to_fact(tuple(row[name] for name in FACT_FIELDS), project, locations)


def values_to_fact(values: Sequence[Any], project: str, locations: Sequence[Location] = ()) -> Fact:
    """A ``Fact`` from the values of ``FACT_FIELDS``, in that order (a plain row: no lookup by name)."""
    (
        fact_id,
        kind,
        title,
        body,
        source_kind,
        source_uri,
        fingerprint,
        date_source,
        date_indexed,
        date_confirmed,
        date_source_kind,
        lifecycle,
        superseded_by,
        lifecycle_reason,
        producer,
        tags,
        importance,
        why,
        how_to_apply,
        memory_type,
        meta,
    ) = values
    return Fact(
        id=fact_id,
        project=project,
        type=kind,
        title=title,
        body=text(body),  # packed by SQLite (migration 0019), TEXT elsewhere
        source=Source(kind=source_kind, uri=source_uri, fingerprint=fingerprint),
        dates=Dates(source=date_source, indexed=date_indexed, confirmed=date_confirmed, source_kind=date_source_kind),
        lifecycle=_LIFECYCLES.get(lifecycle) or Lifecycle(lifecycle),
        superseded_by=superseded_by,
        lifecycle_reason=lifecycle_reason,
        producer=producer,
        locations=tuple(locations),
        tags=_json_list(tags),
        importance=importance,
        why=why,
        how_to_apply=how_to_apply,
        memory_type=memory_type,
        meta=_json_object(meta),
    )


def _json_list(text: str | None) -> tuple[Any, ...]:
    return tuple(json.loads(text)) if text and text != "[]" else ()


def _json_object(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text and text != "{}" else {}
