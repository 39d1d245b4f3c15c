"""Source bytes as text: UTF-8, or Windows-1252 for a file that is plainly not UTF-8.

Older projects keep files in Latin-1 / Windows-1252 (``caf\\xe9``). Decoded as UTF-8 with
replacement, such a file indexes ``caf�`` and ``café`` finds nothing. A file that is not valid
UTF-8 and holds no UTF-8 multi-byte sequence at all is read as Windows-1252 (a superset of
Latin-1's printable range; its five undefined bytes become U+FFFD); one that mixes valid UTF-8
sequences with a few stray bytes stays UTF-8, the stray bytes replaced — reading it as
Windows-1252 would garble every accented letter it spells correctly. The sync and the
freshness check both read through here, so an excerpt's content hash is the same from both."""

from __future__ import annotations

import re

_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def decode_source(data: bytes) -> str:
    """``data`` as text (see the module's note)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if _UTF8_SEQUENCE.search(data):
        return data.decode("utf-8", errors="replace")
    return data.decode("cp1252", errors="replace")
