"""Section facts written straight into a store (either engine), for the store contract's text
and vocabulary tests and the prefix tests."""

from __future__ import annotations

from kenning.store import facts
from kenning.store.db import transaction

STAMP = "2026-11-29T12:00:00Z"


def write_sections(conn, rows: list[tuple[str, str]]) -> dict[int, str]:
    """Facts of the given (title, body), one file each (``notes/N.md``); their titles by id."""
    with transaction(conn):
        ids = [
            facts.insert(
                conn,
                facts.NewFact(
                    type="section",
                    title=title,
                    body=body,
                    source_kind="file",
                    source_uri=f"notes/{n}.md:1-2",
                    producer="projection",
                    date_indexed=STAMP,
                    path=f"notes/{n}.md",
                    fingerprint=f"f{n}",
                ),
            )
            for n, (title, body) in enumerate(rows)
        ]
    return {i: title for i, (title, _) in zip(ids, rows, strict=True)}
