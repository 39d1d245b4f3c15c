"""Excerpt bodies as SQLite stores them: compressed when that makes them smaller (migration 0019).

An excerpt derived from a file or a commit (producer ``projection``) stores its keywords and
body together as one BLOB in ``body``: the UTF-8 of ``keywords NUL body`` deflated (raw
DEFLATE, zlib's ``wbits=-15``: no header, no checksum; a code excerpt's keywords repeat words
of its body, which the compression then nearly gives for free), its ``keywords`` column left
empty; this when that is shorter than the two texts and the keywords hold no NUL. Otherwise,
and for every saved note or memory, both stay TEXT. A stored body's type says which it is.

Readers in Python call :func:`text`; SQL reads through ``kenning_text(body)`` and
``kenning_keywords(body, keywords)`` (the FTS5 word index's content view ``facts_text``),
functions :func:`register` adds to every connection kenning opens, with the TEMP triggers that
keep the word index in step with ``facts`` (they need the text a deleted or rewritten row
had; migration 0019 says why they are not stored in the schema). The word index is fed the
plain text when a row is written, so ranking is unchanged.
"""

from __future__ import annotations

import sqlite3
import zlib

PACKED_PRODUCERS = frozenset({"projection"})
_LEVEL = 6  # level 9 is 0.1 % smaller on Django's excerpts and slower to write


def pack(keywords: str, body: str) -> tuple[str, str | bytes]:
    """``(keywords, body)`` as stored: ``("", deflated)`` when shorter, else as given."""
    raw_keywords = keywords.encode("utf-8")
    raw = body.encode("utf-8")
    if b"\0" in raw_keywords:
        return keywords, body
    packed = zlib.compress(raw_keywords + b"\0" + raw, _LEVEL, wbits=-15)
    return ("", packed) if len(packed) < len(raw_keywords) + len(raw) else (keywords, body)


def _unpacked(stored: bytes) -> tuple[str, str]:
    keywords, _, body = zlib.decompress(stored, wbits=-15).partition(b"\0")
    return keywords.decode("utf-8"), body.decode("utf-8")


def text(stored: str | bytes | None) -> str:
    """A stored body's text (a TEXT value as it is, a BLOB inflated)."""
    if isinstance(stored, bytes):
        return _unpacked(stored)[1]
    return stored or ""


def keywords(stored_body: str | bytes | None, stored_keywords: str | None) -> str:
    """A fact's keywords: from its packed body, or its ``keywords`` column."""
    if isinstance(stored_body, bytes):
        return _unpacked(stored_body)[0]
    return stored_keywords or ""


def _sql_pack(producer: str | None, keywords: str | None, body: str | bytes | None) -> str | bytes | None:
    """The body a row of ``producer`` stores (migration 0019 then empties a packed row's keywords)."""
    if not isinstance(body, str) or not isinstance(keywords, str) or producer not in PACKED_PRODUCERS:
        return body
    return pack(keywords, body)[1]


# The word index's triggers (as in migration 0016, with the text): created per connection.
_WORD_TRIGGERS = (
    """CREATE TEMP TRIGGER IF NOT EXISTS facts_words_after_delete AFTER DELETE ON main.facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, kenning_keywords(old.body, old.keywords), old.path,
                kenning_text(old.body));
END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS facts_words_after_update
AFTER UPDATE OF title, keywords, path, body ON main.facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, kenning_keywords(old.body, old.keywords), old.path,
                kenning_text(old.body));
    INSERT INTO facts_fts (rowid, title, keywords, path, body)
        VALUES (new.id, new.title, kenning_keywords(new.body, new.keywords), new.path, kenning_text(new.body));
END""",
)


def register(conn: sqlite3.Connection) -> None:
    """Add ``kenning_text(body)``, ``kenning_keywords(body, keywords)`` and
    ``kenning_pack(producer, keywords, body)`` to a connection (before it migrates: migration
    0019 packs the rows a store already holds)."""
    conn.create_function("kenning_text", 1, text, deterministic=True)
    conn.create_function("kenning_keywords", 2, keywords, deterministic=True)
    conn.create_function("kenning_pack", 3, _sql_pack, deterministic=True)


def add_word_triggers(conn: sqlite3.Connection) -> None:
    """The word index's TEMP triggers, on a connection to a store at migration 0019 or later."""
    for sql in _WORD_TRIGGERS:
        conn.execute(sql)
