"""Excerpts made ready to write: everything about a fact row that depends on its file alone.

The parser workers call ``prepare`` right after parsing, so the content hash, the JSON of
tags and meta and the source date are computed in parallel; the writing process only
assigns ids, deduplicates and hands the rows to SQLite.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from kenning.clock import from_timestamp
from kenning.ingest.chunks import Chunk
from kenning.store import bodies
from kenning.store.dedup import content_hash, content_hash_encoded

# What json.dumps(meta, sort_keys=True, default=str) does, without building an encoder per call.
_META_JSON = json.JSONEncoder(sort_keys=True, default=str)


class ExcerptRow(NamedTuple):
    """One chunk of a file as the facts, locations and FTS tables will store it."""

    uri: str
    line_start: int
    line_end: int
    content_hash: str
    type: str
    title: str
    body: str
    keywords: str
    date_source: str
    date_kind: str  # "declared" (front matter, ADR) or "mtime"; the sync makes it "commit" from git
    tags: str  # JSON list
    meta: str  # JSON object, keys sorted
    # ``keywords NUL body`` deflated as the SQLite store keeps it (``store.bodies.pack``), when
    # the parser was asked to pack and that is shorter; None: the texts are stored as they are.
    packed: bytes | None = None


def prepare(chunks: list[Chunk], path: str, mtime_ns: int, *, pack: bool = False) -> list[ExcerptRow]:
    """The rows of a file's chunks. ``pack``: deflate each body here (``store.bodies.pack``),
    in the parsing pool, rather than in the process that writes."""
    mtime: str | None = None
    rows = []
    # The chunks of a Markdown file share their meta's values (its front matter, copied
    # shallowly): its date, tags and JSON are worked out once for a run of such metas.
    last_meta: dict[str, Any] | None = None
    date: str | None = None
    tags = meta = "[]"
    for chunk in chunks:
        if last_meta is None or not _same_values(chunk.meta, last_meta):
            last_meta = chunk.meta
            # Only front matter or a decision dates or tags a chunk: a code chunk's meta (its
            # symbol, kind, language), new for every chunk, skips looking for them.
            front = "front_matter" in last_meta
            date = source_date(chunk) if front or "decision" in last_meta else None
            tags = _tags_json(chunk) if front else "[]"
            meta = _META_JSON.encode(last_meta) if last_meta else "{}"
        kind = "declared"
        if date is None:
            if mtime is None:
                mtime = from_timestamp(mtime_ns / 1e9)
            row_date, kind = mtime, "mtime"
        else:
            row_date = date
        chash, packed = _hash_and_pack(chunk, pack)
        # Positional, through tuple.__new__: a NamedTuple's keyword __new__ costs about 7x (a cold sync
        # makes one row per excerpt in the pool). The fields in ExcerptRow's order.
        rows.append(
            _new_row(
                ExcerptRow,
                (
                    path + chunk.anchor,
                    chunk.line_start,
                    chunk.line_end,
                    chash,
                    chunk.type,
                    chunk.title,
                    chunk.body,
                    chunk.keywords,
                    row_date,
                    kind,
                    tags,
                    meta,
                    packed,
                ),
            )
        )
    return rows


_new_row = tuple.__new__


def _hash_and_pack(chunk: Chunk, pack: bool) -> tuple[str, bytes | None]:
    """The chunk's content hash and, with ``pack``, its packed body (None: stored as text),
    its body encoded once for both: its strict UTF-8, when that succeeds, is the
    ``surrogatepass`` encoding the hash takes. A body holding a lone surrogate goes the long
    way (``pack`` refuses it as it always did)."""
    try:
        raw = chunk.body.encode("utf-8")
    except UnicodeEncodeError:
        chash = content_hash(chunk.type, chunk.title, chunk.body)
        return chash, _packed(chunk) if pack else None
    chash = content_hash_encoded(chunk.type, chunk.title, raw)
    return chash, bodies.pack_encoded(chunk.keywords.encode("utf-8"), raw) if pack else None


def _packed(chunk: Chunk) -> bytes | None:
    stored = bodies.pack(chunk.keywords, chunk.body)[1]
    return stored if isinstance(stored, bytes) else None


def _same_values(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same keys holding the very same objects (equal values of other types, ``1`` and
    ``True`` say, would not give the same JSON)."""
    return a is b or (len(a) == len(b) and all(key in b and value is b[key] for key, value in a.items()))


def _tags_json(chunk: Chunk) -> str:
    tags = tags_of(chunk)
    return json.dumps(list(tags)) if tags else "[]"


def source_date(chunk: Chunk) -> str | None:
    front = chunk.meta.get("front_matter") or {}
    value = front.get("date") if isinstance(front, dict) else None
    if value is None:
        value = (chunk.meta.get("decision") or {}).get("date")
    if value is None:
        return None
    text = str(value)
    return text if len(text) > 10 else f"{text}T00:00:00Z" if len(text) == 10 else None


def tags_of(chunk: Chunk) -> tuple[str, ...]:
    front = chunk.meta.get("front_matter") or {}
    tags = front.get("tags") if isinstance(front, dict) else None
    if isinstance(tags, str):
        return tuple(t.strip() for t in tags.split(",") if t.strip())
    if isinstance(tags, list):
        return tuple(str(t) for t in tags)
    return ()
