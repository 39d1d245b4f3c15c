"""Fingerprints: of the pack bytes, and of the facts behind an entry. ``hashlib`` is imported
where it is used: the session-start hook only needs ``short``."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hook start-up time)

if TYPE_CHECKING:
    from collections.abc import Iterable

PREFIX = "sha256:"


def of_text(text: str) -> str:
    import hashlib

    return PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def of_parts(parts: Iterable[str]) -> str:
    """A fingerprint over an ordered sequence of strings (content hashes, titles…)."""
    import hashlib

    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return PREFIX + digest.hexdigest()


def short(fingerprint: str | None, size: int = 12) -> str:
    """The first ``size`` hex digits, for status lines."""
    if not fingerprint:
        return "-"
    return fingerprint.removeprefix(PREFIX)[:size]
