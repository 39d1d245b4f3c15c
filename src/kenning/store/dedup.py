"""The key identical content is stored once under: an excerpt's content hash.

Its own module, importing nothing: the parsing pool computes it for every excerpt it cuts
(``ingest.rows``) and freshness for every span it re-reads (``ingest.spans``), neither of
which needs the rest of the store (``store.facts`` re-exports it).
"""

from __future__ import annotations


def content_hash(type_: str, title: str, body: str) -> str:
    import hashlib  # here, not at the top: reading commands never hash (start-up time)

    digest = hashlib.sha256()
    for part in (type_, title, body):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()
