"""A short window of an excerpt's body where the query's terms gather: the window holding the most
of its distinct terms, the earliest of those (an excerpt packing several sections shows the one the
question asks about, not the first that names one of its words)."""

from __future__ import annotations

import unicodedata

WIDTH = 240
FOLD_SPAN = 4000
PER_TERM = 64  # occurrences of one term looked at, at most (a long body repeating a common word)


def fold(text: str) -> str:
    """Lowercase without diacritics, same length as the input (for offset mapping)."""
    if text.isascii():  # fast path: nothing to decompose, lower() keeps the length
        return text.lower()
    return "".join((unicodedata.normalize("NFKD", ch)[0] if ch.isalpha() else ch).lower()[:1] or ch for ch in text)


def make_snippet(body: str, terms: tuple[str, ...], width: int = WIDTH) -> str:
    flat = " ".join(body.split())  # runs of whitespace as one space, none at the ends (as \s+ → " ", strip)
    if len(flat) <= width:
        return flat
    span = width - width // 4  # the window starts a quarter of its width before the terms
    found = densest(flat.lower(), [t.lower() for t in terms if t], span)
    if found is None:  # the match may differ by diacritics only: fold (same length) and retry
        found = densest(fold(flat[:FOLD_SPAN]), [fold(t) for t in terms if t], span)
    start = max(0, found - width // 4) if found is not None else 0
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    window = flat[start : start + width]
    cut = window.rfind(" ")
    if start + width < len(flat) and cut > width * 0.6:
        window = window[:cut]
    return ("…" if start else "") + window + ("…" if start + len(window) < len(flat) else "")


def densest(text: str, terms: list[str], span: int) -> int | None:
    """Where, in ``text``, the run of at most ``span`` characters holding the most distinct
    ``terms`` begins (the earliest such run, from its last occurrence of a term it holds twice:
    the first occurrence when no run holds two); None when none occurs."""
    hits = []
    for index, term in enumerate(terms):
        at, seen = text.find(term), 0
        while at >= 0 and seen < PER_TERM:
            hits.append((at, index))
            at, seen = text.find(term, at + 1), seen + 1
    if not hits:
        return None
    hits.sort()
    best, begins = 0, hits[0][0]
    held: dict[int, int] = {}  # term -> its occurrences in the run
    left = 0
    for at, index in hits:
        held[index] = held.get(index, 0) + 1
        while at - hits[left][0] > span:
            gone = hits[left][1]
            held[gone] -= 1
            if not held[gone]:
                del held[gone]
            left += 1
        if len(held) > best:  # the run's tightest start: past the terms it holds again later
            best, tight, extra = len(held), left, dict(held)
            while extra[hits[tight][1]] > 1:
                extra[hits[tight][1]] -= 1
                tight += 1
            begins = hits[tight][0]
    return begins
