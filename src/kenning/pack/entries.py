"""What a pack is made of: the project context and entries (conventions, decisions). Values only."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Context:
    """The opening of the project's context file (configured, else the README)."""

    path: str
    text: str
    fingerprint: str  # sha256 of the file bytes
    fact_ids: tuple[int, ...] = ()  # facts of that file covering the opening, in file order


@dataclass(frozen=True)
class Entry:
    """One convention or one decision, as the pack shows it.

    ``key`` is its stable identity across rebuilds (a file path for a decision file, a
    source URI for a section); ``fingerprint`` covers every fact behind it, shown or not,
    so any change to the decision changes it.
    """

    kind: str  # "convention" or "decision"
    key: str
    title: str
    text: str
    citation: str
    fact_ids: tuple[int, ...]  # the first one is the fact whose text is shown; () for a settings file
    sources: tuple[tuple[str, str], ...]  # (path or URI, fingerprint)
    fingerprint: str
    date: str | None = None
    score: int | None = None  # conventions: the score that let it in (pack/judge.py)
    why: tuple[str, ...] = ()  # the reasons behind the score, for `kenning pack show --why`
