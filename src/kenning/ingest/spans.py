"""The spans of a file as a sync would cut it now: what freshness re-reads when a file changed.

A location's span fingerprint is the content hash of its excerpt (type, title and body:
``store.dedup.content_hash``), the key a sync deduplicates on, so a span the file still holds
is exactly an excerpt the next sync keeps. A span's key names it apart from its text: the
symbol for code (``Timeout.__init__``, the module), the anchor for a Markdown section
(``#install``, ``#install-part-2``), else the title (a text file's ``notes.txt (part 2)``).
Same key, other text: the span changed; no such key: the span is gone.

Freshness gets :func:`split` from its caller (``freshness.FileCheck``): it never imports parsers.
This module is on the read path: the parsers are imported on the first re-split only.
"""

from __future__ import annotations

from kenning.files import BINARY_PROBE
from kenning.ingest.encoding import decode_source
from kenning.records import Spans, span_key
from kenning.store.dedup import content_hash


def split(path: str, data: bytes) -> Spans | None:
    """The spans of ``data`` read as ``path``; None when kenning cannot tell (no parser for the
    kind, or the parser failed); none at all for a file that turned binary (a sync drops it)."""
    from kenning.ingest.parsers import load_spans, parser_for  # on the first re-split only (start-up time)

    parser = parser_for(path)
    if parser is None:
        return None
    if b"\x00" in data[:BINARY_PROBE]:
        return Spans(frozenset(), frozenset())
    try:
        chunks = load_spans(parser)(decode_source(data), path)
    except (RecursionError, ValueError, UnicodeError, MemoryError):
        return None
    return Spans(
        frozenset(content_hash(c.type, c.title, c.body) for c in chunks),
        frozenset(span_key(c.anchor, c.meta.get("symbol"), c.title) for c in chunks),
    )
