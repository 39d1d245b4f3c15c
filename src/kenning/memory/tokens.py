"""Token estimates. kenning has no tokenizer: a token is estimated as four characters."""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def estimate(text: str) -> int:
    """Estimated tokens of ``text`` (characters ÷ 4, rounded up)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def chars_for(tokens: int) -> int:
    return tokens * CHARS_PER_TOKEN


def cut(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut to at most ``limit`` characters at a word boundary when one is near.
    Returns the kept text and how many characters were cut (0 when nothing was)."""
    if len(text) <= limit:
        return text, 0
    kept = text[:limit]
    space = kept.rfind(" ")
    if space > limit * 0.7:
        kept = kept[:space]
    kept = kept.rstrip()
    return kept, len(text) - len(kept)
