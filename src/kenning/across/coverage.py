"""How much of a question a store's first excerpts hold: the share of the question's words found
in the best of its first ``DEPTH`` excerpts (title, text and citation).

A store's CORI belief (``across.rank.weights``) counts how many of its excerpts hold each word,
so a project full of a common word ("ssl", "options") outweighs the one whose first answer holds
every word of the question (httpx's "where is SSL certificate verification set up" met Django's
``EMAIL_USE_SSL`` first). What a store answered says that: across httpx, Flask, Django and
click, weighing each store by its belief times (1 + this share) put another project's excerpt
first for 30 % of the questions instead of 39 % (docs/benchmarks.md, "crosscover").

Words are compared loosely, as a reader would: a name's parts as the keywords split it
(``ingest.identifiers``: ``resolve_redirects``, ``resolveRedirects``: ``resolve``, ``redirect``), lower
case, a plural or an ``-ing``/``-ed`` ending dropped, words under three letters left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from kenning.ingest.identifiers import split_identifier
from kenning.records import Excerpt

DEPTH = 2  # a store's first excerpts read (each store is asked for at least as many)
TEXT_CHARS = 3000  # of an excerpt's text read: the words of its beginning say what it is about

_WORD = re.compile(r"[A-Za-z0-9]+")
_ENDINGS = ("ing", "ies", "es", "ed", "s")


def words_of(texts: Iterable[str]) -> set[str]:
    """The loose forms of the words of ``texts`` (module docstring)."""
    raw: set[str] = set()
    for text in texts:
        raw.update(_WORD.findall(text))
    found: set[str] = set()
    for word in raw:
        found |= _forms(word)
    return found


@lru_cache(maxsize=65_536)  # a store's excerpts repeat their words, question after question (as identifiers._split)
def _forms(word: str) -> frozenset[str]:
    return frozenset(_loose(part) for part in split_identifier(word)) - {""}


def _loose(word: str) -> str:
    if len(word) < 3:
        return ""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def coverage(asked: set[str], excerpts: Sequence[Excerpt]) -> float:
    """The largest share of ``asked`` (``words_of`` the question's words) that one of the first
    ``DEPTH`` excerpts holds; 0.0 when nothing is asked or answered."""
    if not asked:
        return 0.0
    best = 0
    for excerpt in excerpts[:DEPTH]:
        fact = excerpt.fact
        held = words_of((fact.title, fact.body[:TEXT_CHARS], fact.source.uri or ""))
        best = max(best, len(asked & held))
    return best / len(asked)
