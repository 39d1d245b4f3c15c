"""Excerpt rows made with their body encoded once, for the content hash and for packing: the
same hash, the same packed bytes, the same fields as before (``ingest.rows.prepare``,
``store.dedup.content_hash_encoded``, ``store.bodies.pack_encoded``)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from isal.isal_zlib import compress as isal_compress

from kenning.ingest.chunks import Chunk
from kenning.ingest.rows import ExcerptRow, prepare
from kenning.store import bodies, dedup


def _reference_hash(type_: str, title: str, body: str) -> str:
    digest = hashlib.sha256()
    for part in (type_, title, body):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()


# Pieces that deflate well (repeated words) or not at all (short, non-ASCII, NUL).
TEXT = st.lists(
    st.sampled_from(["a", "b", " ", "\n", "é", "\u20ac", "\U0001f600", "\x00", "word " * 8]), max_size=30
).map("".join)


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT, TEXT)
def test_a_body_encoded_once_hashes_and_packs_as_it_did(title: str, keywords: str, body: str) -> None:
    raw = body.encode("utf-8")
    assert dedup.content_hash_encoded("code", title, raw) == _reference_hash("code", title, body)
    assert dedup.content_hash("code", title, body) == _reference_hash("code", title, body)
    packed = bodies.pack_encoded(keywords.encode("utf-8"), raw)
    raw_keywords = keywords.encode("utf-8")
    reference = isal_compress(raw_keywords + b"\0" + raw, 3, wbits=-15)
    if "\0" in keywords or len(reference) >= len(raw_keywords) + len(raw):
        assert packed is None and bodies.pack(keywords, body) == (keywords, body)
    else:
        assert packed == reference and bodies.pack(keywords, body) == ("", reference)


def test_a_body_with_a_lone_surrogate_is_hashed_as_it_was_and_still_refused_for_packing() -> None:
    chunk = Chunk(type="text", title="t", body="a\udc80b", anchor="#t", line_start=1, line_end=1)
    (row,) = prepare([chunk], "notes/x.txt", 0)
    assert row.content_hash == _reference_hash("text", "t", "a\udc80b") and row.packed is None
    with pytest.raises(UnicodeEncodeError):
        prepare([chunk], "notes/x.txt", 0, pack=True)


def test_prepared_rows_hold_each_field_in_its_place() -> None:
    meta = {"front_matter": {"date": "2026-02-03", "tags": ["a", "b"]}}
    chunks = [
        Chunk("section", "Guide", "Body " * 50, "#guide", 5, 9, keywords="guide words", meta=meta),
        Chunk("section", "Short", "Tiny.", "#short", 10, 12, meta=dict(meta)),
        Chunk("code", "def f()", "def f():\n    pass\n", ":1-2", 1, 2, meta={"symbol": "f", "kind": "function"}),
        Chunk("decision", "ADR", "Accepted.", "#adr", 1, 3, meta={"decision": {"date": "2026-01-05"}}),
    ]
    rows = prepare(chunks, "docs/g.md", 1_767_225_600 * 10**9, pack=True)
    expected = [
        (
            "2026-02-03T00:00:00Z",
            "declared",
            '["a", "b"]',
            '{"front_matter": {"date": "2026-02-03", "tags": ["a", "b"]}}',
        ),
        (
            "2026-02-03T00:00:00Z",
            "declared",
            '["a", "b"]',
            '{"front_matter": {"date": "2026-02-03", "tags": ["a", "b"]}}',
        ),
        (rows[2].date_source, "mtime", "[]", '{"kind": "function", "symbol": "f"}'),
        ("2026-01-05T00:00:00Z", "declared", "[]", '{"decision": {"date": "2026-01-05"}}'),
    ]
    assert rows[2].date_source.startswith("2026-01-01")
    for row, chunk, (date, kind, tags, meta_json) in zip(rows, chunks, expected, strict=True):
        stored = bodies.pack(chunk.keywords, chunk.body)[1]
        assert row == ExcerptRow(
            uri="docs/g.md" + chunk.anchor,
            line_start=chunk.line_start,
            line_end=chunk.line_end,
            content_hash=_reference_hash(chunk.type, chunk.title, chunk.body),
            type=chunk.type,
            title=chunk.title,
            body=chunk.body,
            keywords=chunk.keywords,
            date_source=date,
            date_kind=kind,
            tags=tags,
            meta=meta_json,
            packed=stored if isinstance(stored, bytes) else None,
        )
    assert isinstance(rows[0].packed, bytes) and rows[1].packed is None
