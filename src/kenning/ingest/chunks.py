"""What a parser hands to the sync: excerpts of one source file, before they become facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Chunk:
    """One excerpt cut from a file.

    ``anchor`` is appended to the file path to form ``source.uri``: ``#section-slug`` for
    prose, ``:12-40`` for code. Lines are 1-based and inclusive.
    """

    type: str
    title: str
    body: str
    anchor: str
    line_start: int
    line_end: int
    keywords: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
