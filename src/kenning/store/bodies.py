"""Excerpt bodies as SQLite stores them: compressed when that makes them smaller (migration 0019).

An excerpt derived from a file or a commit (producer ``projection``) stores its keywords and
body together as one BLOB in ``body``: the UTF-8 of ``keywords NUL body`` deflated (raw
DEFLATE, zlib's ``wbits=-15``: no header, no checksum; written by ISA-L, read by zlib; a code
excerpt's keywords repeat words of its body, which the compression then nearly gives for free),
its ``keywords`` column left
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
_PRODUCERS = ",".join(f"'{p}'" for p in sorted(PACKED_PRODUCERS))

try:  # ISA-L's DEFLATE (the `isal` package): the same raw DEFLATE, which zlib reads back
    from isal.isal_zlib import compress as _deflate

    # Level 3 of 0-3. On the excerpts of the Node.js + npm docs and of Django, CPU and size
    # against zlib's level 6: 2.1x faster, 1.9 % larger; 2.1x faster, 3.3 % larger (issue 19).
    # Levels 1 and 2 were a sixth faster on Django's excerpts (0.255 against 0.306 s) but not
    # deterministic: the same excerpt packed in another process (another sync) came out in other
    # bytes, though the same once unpacked (tests/ingest/test_pool_start_methods.py); a store's
    # bytes follow from its sources.
    _LEVEL = 3
except ImportError:  # pragma: no cover (a dependency; zlib when a platform lacks its wheel)
    from zlib import compress as _deflate

    _LEVEL = 6  # level 9 is 0.1 % smaller on Django's excerpts and slower to write


def pack(keywords: str, body: str) -> tuple[str, str | bytes]:
    """``(keywords, body)`` as stored: ``("", deflated)`` when shorter, else as given."""
    packed = pack_encoded(keywords.encode("utf-8"), body.encode("utf-8"))
    return ("", packed) if packed is not None else (keywords, body)


def pack_encoded(keywords: bytes, body: bytes) -> bytes | None:
    """What ``pack`` stores for the texts whose strict UTF-8 these are: the deflated bytes when
    they are shorter (and the keywords hold no NUL), else None (the texts stored as they are)."""
    if b"\0" in keywords:
        return None
    packed = _deflate(b"\0".join((keywords, body)), _LEVEL, wbits=-15)
    return packed if len(packed) < len(keywords) + len(body) else None


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


def pack_stored(conn: sqlite3.Connection) -> None:
    """Pack the rows a store holds as TEXT (after migration 0019, in its transaction: the word
    index already holds their words, which packing does not change)."""
    last = 0
    while batch := conn.execute(
        "SELECT id, keywords, body FROM facts "
        f"WHERE id > ? AND typeof(body) = 'text' AND producer IN ({_PRODUCERS}) ORDER BY id LIMIT 1000",
        (last,),
    ).fetchall():
        last = batch[-1][0]
        updates = [(*pack(keywords_, body), fact_id) for fact_id, keywords_, body in batch]
        conn.executemany(
            "UPDATE facts SET keywords = ?, body = ? WHERE id = ?", [u for u in updates if isinstance(u[1], bytes)]
        )


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
    """Add ``kenning_text(body)`` and ``kenning_keywords(body, keywords)`` to a connection."""
    conn.create_function("kenning_text", 1, text, deterministic=True)
    conn.create_function("kenning_keywords", 2, keywords, deterministic=True)


def add_word_triggers(conn: sqlite3.Connection) -> None:
    """The word index's TEMP triggers, on a connection to a store at migration 0019 or later."""
    for sql in _WORD_TRIGGERS:
        conn.execute(sql)
