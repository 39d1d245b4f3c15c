"""Excerpt bodies as SQLite stores them: compressed when that makes them smaller (migration 0019).

The body of an excerpt derived from a file or a commit (producer ``projection``) is stored as
a BLOB, its UTF-8 text deflated (raw DEFLATE, zlib's ``wbits=-15``: no header, no checksum),
when that is shorter than the text; otherwise, and for every saved note or memory, as TEXT.
A stored value's type says which it is. Readers in Python call :func:`text`; SQL reads the
text through ``kenning_text(body)`` (the FTS5 word index's content view ``facts_text``), a
function :func:`register` adds to every connection kenning opens, with the TEMP triggers that
keep the word index in step with ``facts`` (they need the text a deleted or rewritten row
had; see the migration for why they are not stored in the schema). The word index is fed the
plain text when a row is written, so ranking is unchanged.
"""

from __future__ import annotations

import sqlite3
import zlib

PACKED_PRODUCERS = frozenset({"projection"})
_LEVEL = 6  # level 9 is 0.1 % smaller on Django's excerpts and slower to write


def pack(body: str) -> str | bytes:
    """What to store for ``body``: its deflated UTF-8 bytes when shorter, else the text."""
    raw = body.encode("utf-8")
    packed = zlib.compress(raw, _LEVEL, wbits=-15)
    return packed if len(packed) < len(raw) else body


def text(stored: str | bytes | None) -> str:
    """A stored body's text (a TEXT value as it is, a BLOB inflated)."""
    if isinstance(stored, bytes):
        return zlib.decompress(stored, wbits=-15).decode("utf-8")
    return stored or ""


def _sql_pack(producer: str | None, body: str | bytes | None) -> str | bytes | None:
    if not isinstance(body, str) or producer not in PACKED_PRODUCERS:
        return body
    return pack(body)


# The word index's triggers (as in migration 0016, with the body's text): created per connection.
_WORD_TRIGGERS = (
    """CREATE TEMP TRIGGER IF NOT EXISTS facts_words_after_delete AFTER DELETE ON main.facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, kenning_text(old.body));
END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS facts_words_after_update
AFTER UPDATE OF title, keywords, path, body ON main.facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, kenning_text(old.body));
    INSERT INTO facts_fts (rowid, title, keywords, path, body)
        VALUES (new.id, new.title, new.keywords, new.path, kenning_text(new.body));
END""",
)


def register(conn: sqlite3.Connection) -> None:
    """Add ``kenning_text(body)`` and ``kenning_pack(producer, body)`` to a connection (before
    it migrates: migration 0019 packs the bodies a store already holds)."""
    conn.create_function("kenning_text", 1, text, deterministic=True)
    conn.create_function("kenning_pack", 2, _sql_pack, deterministic=True)


def add_word_triggers(conn: sqlite3.Connection) -> None:
    """The word index's TEMP triggers, on a connection to a store at migration 0019 or later."""
    for sql in _WORD_TRIGGERS:
        conn.execute(sql)
