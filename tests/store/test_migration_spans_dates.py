"""Migrations 0014 and 0015 on a store written before them: a location keeps its span's
fingerprint (its excerpt's content hash; a ledger record's location keeps the record's), and
each dated fact says where its date comes from."""

from __future__ import annotations

from migration_support import store_before

from kenning.store.db import connect

FILE_FP, RECORD_FP = "f" * 64, "r" * 64
FACTS = [
    # id, type, source_kind, source_uri, path, content_hash, date_source, meta
    (1, "code", "file", "a.py:1-2", "a.py", "h1", "2026-01-02T00:00:00Z", "{}"),
    (2, "decision", "file", "adr/1.md#x", "adr/1.md", "h2", "2019-07-01T00:00:00Z", '{"decision": {"date": "x"}}'),
    (3, "doc", "file", "d.md#y", "d.md", "h3", "2018-01-01T00:00:00Z", '{"front_matter": {"date": "2018-01-01"}}'),
    (4, "task", "file", ".kenning/ledger.jsonl#task/T-1", ".kenning/ledger.jsonl", "h4", None, "{}"),
    (5, "commit", "commit", "abc", "", "h5", "2025-03-01T00:00:00Z", "{}"),
    (6, "fact", "manual", "note:1", "", "h6", "2026-02-01T00:00:00Z", "{}"),
]


def old_store(path) -> None:
    conn = store_before(path, 14)
    conn.executemany(
        "INSERT INTO facts (id, type, title, body, source_kind, source_uri, path, content_hash, date_source, "
        "date_indexed, producer, meta) VALUES (?, ?, 't', 'b', ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', 'projection', ?)",
        FACTS,
    )
    conn.executemany(
        "INSERT INTO locations (fact_id, uri, path, line_start, line_end, fingerprint) VALUES (?, ?, ?, 1, 2, ?)",
        [
            (1, "a.py:1-2", "a.py", FILE_FP),
            (1, "b.py:1-2", "b.py", "e" * 64),
            (2, "adr/1.md#x", "adr/1.md", FILE_FP),
            (4, ".kenning/ledger.jsonl#task/T-1", ".kenning/ledger.jsonl", RECORD_FP),
        ],
    )
    conn.close()


def test_locations_keep_their_span_fingerprint_and_dates_their_kind(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    conn = connect(path, create=True)
    try:
        locations = conn.execute("SELECT fact_id, uri, fingerprint FROM locations ORDER BY fact_id, uri").fetchall()
        kinds = dict(conn.execute("SELECT id, date_source_kind FROM facts").fetchall())
    finally:
        conn.close()
    assert [tuple(r) for r in locations] == [
        (1, "a.py:1-2", "h1"),
        (1, "b.py:1-2", "h1"),
        (2, "adr/1.md#x", "h2"),
        (4, ".kenning/ledger.jsonl#task/T-1", RECORD_FP),
    ]
    assert kinds == {1: "mtime", 2: "declared", 3: "declared", 4: None, 5: "commit", 6: "saved"}
