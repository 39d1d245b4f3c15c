"""``facts.insert_rows``: a bulk load stores every column as given, whether the rows leave the
five columns no file excerpt fills NULL (written as literals) or one of them holds a value."""

from __future__ import annotations

from kenning.store import facts
from kenning.store.db import connect, transaction

STAMP = "2026-12-01T00:00:00Z"


def _stored(conn, ids: list[int]) -> list[tuple]:
    return conn.execute(
        f"SELECT id, type, title, keywords, path, source_uri, fingerprint, content_hash, date_source, date_indexed, "
        f"date_confirmed, producer, tags, importance, why, how_to_apply, memory_type, meta, date_source_kind "
        f"FROM facts WHERE id IN ({','.join('?' * len(ids))}) ORDER BY id",
        ids,
    ).fetchall()


def test_rows_with_and_without_the_excerpt_nulls_store_every_column_as_given(tmp_path):
    conn = connect(tmp_path / "kenning.db", create=True)
    excerpt = facts.NewFact(
        type="doc", title="Install", body="Run pip install.", source_kind="file", source_uri="README.md#install",
        producer="markdown", date_indexed=STAMP, keywords="install", path="README.md", fingerprint="sha256:ab",
        date_source=STAMP, date_source_kind="mtime",
    )  # fmt: skip
    noted = facts.NewFact(
        type="note", title="Why", body="Because.", source_kind="file", source_uri="notes.md#why",
        producer="markdown", date_indexed=STAMP, path="notes.md", date_confirmed=STAMP, importance=3,
        why="asked", how_to_apply="always", memory_type="durable", tags=("a",), meta={"k": 1},
    )  # fmt: skip
    first = facts.next_id(conn)
    with transaction(conn):
        facts.insert_rows(conn, [(first, *excerpt.values())])  # the literal-NULL statement
        facts.insert_rows(conn, [(first + 1, *excerpt.values()), (first + 2, *noted.values())])  # mixed
    rows = _stored(conn, [first, first + 1, first + 2])
    by_fact = [excerpt, excerpt, noted]
    for row, fact in zip(rows, by_fact, strict=True):
        assert row[10:11] + row[13:17] == (
            fact.date_confirmed, fact.importance, fact.why, fact.how_to_apply, fact.memory_type,
        )  # fmt: skip
        assert row[1:3] == (fact.type, fact.title) and row[7] == fact.content_hash
    assert rows[0][1:] == rows[1][1:]  # the same excerpt by either statement
    assert [facts.get(conn, "demo", i).body for i in (first, first + 1, first + 2)] == [
        "Run pip install.", "Run pip install.", "Because.",
    ]  # fmt: skip
    conn.close()
