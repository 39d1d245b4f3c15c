"""A stored fact row (any engine's: mapping access by column name) as a ``Fact``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from kenning.records import Dates, Fact, Lifecycle, Location, Source
from kenning.store.bodies import text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


def row_to_fact(row: Any, project: str, locations: Sequence[Location] = ()) -> Fact:
    return Fact(
        id=row["id"],
        project=project,
        type=row["type"],
        title=row["title"],
        body=text(row["body"]),  # packed by SQLite (migration 0019), TEXT elsewhere
        source=Source(kind=row["source_kind"], uri=row["source_uri"], fingerprint=row["fingerprint"]),
        dates=Dates(
            source=row["date_source"],
            indexed=row["date_indexed"],
            confirmed=row["date_confirmed"],
            source_kind=row["date_source_kind"],
        ),
        lifecycle=Lifecycle(row["lifecycle"]),
        superseded_by=row["superseded_by"],
        producer=row["producer"],
        locations=tuple(locations),
        tags=_json_list(row["tags"]),
        importance=row["importance"],
        why=row["why"],
        how_to_apply=row["how_to_apply"],
        memory_type=row["memory_type"],
        meta=_json_object(row["meta"]),
    )


def _json_list(text: str | None) -> tuple[Any, ...]:
    return tuple(json.loads(text)) if text and text != "[]" else ()


def _json_object(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text and text != "{}" else {}
