"""The store contract for text look-ups that depend on columns and on case: a column filter
scores as it matches (FTS5's ``bm25()`` counts a filtered term's hits, and its document
frequency, in the filtered columns only), trigram searches honour the filters they can, and
names compare ignoring case the same way on both engines, beyond ASCII.

Written against the store functions only (no SQL), run on both engines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pg_engine import ENGINE as POSTGRESQL
from pg_engine import pg_store

from kenning.store import facts, fts
from kenning.store.db import connect, transaction

ENGINES = ("sqlite", POSTGRESQL)
STAMP = "2026-11-29T12:00:00Z"
WEIGHTS = (2.0, 1.5, 1.2, 1.0)  # search.lexical.WEIGHTS


@pytest.fixture(params=ENGINES)
def store(request: pytest.FixtureRequest, tmp_path: Path):
    match request.param:
        case "sqlite":
            conn = connect(tmp_path / "kenning.db", create=True)
        case "postgresql":
            conn = pg_store()
    yield conn
    conn.close()


def write(conn, rows: list[tuple[str, str]]) -> dict[int, str]:
    """Facts of the given (title, body); their titles by id."""
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


FILLER = "plain words about something else entirely and nothing more to say here at all"
# "quokka" is common in bodies but in one title; "zephyr" is in four titles, and often in
# the bodies of the same facts.
CORPUS = [
    ("Quokka", "a short note"),
    ("Zephyr", "zephyr zephyr zephyr zephyr zephyr zephyr " + FILLER),
    ("Zephyr brief", "brief"),
    ("Zephyr wind", "zephyr " + FILLER),
    ("Zephyr gust", "a gust"),
    *[(f"Note {n}", f"quokka sighting number {n}") for n in range(6)],
    *[(f"Other {n}", FILLER) for n in range(6)],
]


def ranked(conn, titles: dict[int, str], match: str) -> list[str]:
    return [titles[i] for i, _ in fts.words(conn, match, fts.Filters(), 5, WEIGHTS)]


def test_a_column_filter_scores_only_the_filtered_columns(store):
    titles = write(store, CORPUS)
    # Over every column, the facts repeating "zephyr" in their bodies come first; filtered to
    # titles, only title hits count (the longer bodies then weigh them down).
    assert ranked(store, titles, "zephyr") == ["Zephyr", "Zephyr brief", "Zephyr gust", "Zephyr wind"]
    assert ranked(store, titles, "title:zephyr") == ["Zephyr brief", "Zephyr gust", "Zephyr wind", "Zephyr"]
    assert ranked(store, titles, "{title body}:zephyr") == ranked(store, titles, "zephyr")
    # "quokka" is in seven facts but one title: rare in titles, it outranks every "zephyr"
    # there; over every column it comes last.
    assert ranked(store, titles, "zephyr OR quokka")[4] == "Quokka"
    everything = ["Quokka", "Zephyr brief", "Zephyr gust", "Zephyr wind", "Zephyr"]
    assert ranked(store, titles, "title:zephyr OR title:quokka") == everything
    assert ranked(store, titles, "title:(zephyr OR quokka)") == everything
    assert ranked(store, titles, "title:quokka OR zephyr") == ["Quokka", *ranked(store, titles, "zephyr")[:4]]
    assert ranked(store, titles, "title:(zephyr OR quokka) NOT body:brief") == [
        t for t in everything if t != "Zephyr brief"
    ]
