"""The key identical content is stored once under: an excerpt's content hash.

Its own module, importing nothing: the parsing pool computes it for every excerpt it cuts
(``ingest.rows``) and freshness for every span it re-reads (``ingest.spans``), neither of
which needs the rest of the store (``store.facts`` re-exports it).
"""

from __future__ import annotations


def content_hash(type_: str, title: str, body: str) -> str:
    return content_hash_encoded(type_, title, body.encode("utf-8", "surrogatepass"))


def content_hash_encoded(type_: str, title: str, body: bytes) -> str:
    """``content_hash`` of a body given as its UTF-8 ``surrogatepass`` encoding — which is its
    strict UTF-8 whenever that succeeds: the sync encodes a body once, for this and for
    ``store.bodies.pack_encoded``."""
    import hashlib  # here, not at the top: reading commands never hash (start-up time)

    digest = hashlib.sha256()
    digest.update(type_.encode("utf-8", "surrogatepass"))
    digest.update(b"\x00")
    digest.update(title.encode("utf-8", "surrogatepass"))
    digest.update(b"\x00")
    digest.update(body)
    digest.update(b"\x00")
    return digest.hexdigest()
