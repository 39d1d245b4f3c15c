"""A short window of an excerpt's body around the first query term it contains."""

from __future__ import annotations

import unicodedata

WIDTH = 240
FOLD_SPAN = 4000


def fold(text: str) -> str:
    """Lowercase without diacritics, same length as the input (for offset mapping)."""
    if text.isascii():  # fast path: nothing to decompose, lower() keeps the length
        return text.lower()
    return "".join((unicodedata.normalize("NFKD", ch)[0] if ch.isalpha() else ch).lower()[:1] or ch for ch in text)


def make_snippet(body: str, terms: tuple[str, ...], width: int = WIDTH) -> str:
    flat = " ".join(body.split())  # runs of whitespace as one space, none at the ends (as \s+ → " ", strip)
    if len(flat) <= width:
        return flat
    lowered = flat.lower()
    positions = [p for p in (lowered.find(t.lower()) for t in terms if t) if p >= 0]
    if not positions:  # the match may differ by diacritics only: fold (same length) and retry
        folded = fold(flat[:FOLD_SPAN])
        positions = [p for p in (folded.find(fold(t)) for t in terms if t) if p >= 0]
    start = max(0, min(positions) - width // 4) if positions else 0
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    window = flat[start : start + width]
    cut = window.rfind(" ")
    if start + width < len(flat) and cut > width * 0.6:
        window = window[:cut]
    return ("…" if start else "") + window + ("…" if start + len(window) < len(flat) else "")
