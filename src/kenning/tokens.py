"""Token estimates and cuts, in one place. kenning has no tokenizer: a token is estimated as
four characters (rounded up), the figure the pack header and the memory budgets declare."""

from __future__ import annotations

import re

CHARS_PER_TOKEN = 4
WORD_SHARE = 0.7  # ``cut`` stops at a word boundary when one falls in the last 30 % of the limit


def estimate(text: str) -> int:
    """Estimated tokens of ``text`` (characters ÷ 4, rounded up)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def chars_for(tokens: int) -> int:
    return tokens * CHARS_PER_TOKEN


def cut(text: str, limit: int, *, word_from: float | None = None) -> tuple[str, int]:
    """``text`` cut to at most ``limit`` characters, at the last space when it falls after
    ``word_from`` characters (default: ``WORD_SHARE`` of the limit). Returns the kept text and
    how many characters were cut (0 when nothing was); the caller adds its own marker."""
    if len(text) <= limit:
        return text, 0
    kept = text[:limit]
    space = kept.rfind(" ")
    if space > (limit * WORD_SHARE if word_from is None else word_from):
        kept = kept[:space]
    kept = kept.rstrip()
    return kept, len(text) - len(kept)


def cut_paragraphs(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, marker included: whole paragraphs, else whole words, with "…"."""
    text = text.strip()
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ""
    kept = ""
    for paragraph in re.split(r"\n\s*\n", text):
        candidate = f"{kept}\n\n{paragraph}" if kept else paragraph
        if len(candidate) + 2 > limit:  # room for "\n…"
            break
        kept = candidate
    if kept:
        return kept + "\n…"
    return cut(text, limit - 1, word_from=limit // 2)[0] + "…"
