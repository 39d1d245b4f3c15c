"""Identifier splitting, so that ``rrfFuse`` is found by a search for "rrf fuse".

Digits stay attached to the letters before them: ``parse_v2Token`` gives
``[parse, v2, token]`` and ``sha256sum`` gives ``[sha256, sum]``, because a lone "2" or
"256" is a useless keyword while "v2" or "sha256" is what people type. Digits that start a
part stand alone: ``2faCode`` gives ``[2, fa, code]``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain

# An acronym before a capitalised word, a (capitalised) word, an acronym, a number;
# letters keep the digits that follow them.
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_SNAKE = re.compile(r"[a-z_]+")  # lowercase words and underscores: the parts are the words


def split_identifier(name: str) -> list[str]:
    """Split ``name`` at case changes, ``_``, ``-``, ``.`` and other separators, lowercased.

    >>> split_identifier("HTTPServerError")
    ['http', 'server', 'error']
    >>> split_identifier("parse_v2Token")
    ['parse', 'v2', 'token']
    """
    return list(_split(name))


@lru_cache(maxsize=65536)
def _split(name: str) -> tuple[str, ...]:
    # A part never spans a separator (parts are letters and digits, and the look-ahead needs
    # a letter), so one scan of the whole name finds what a scan of each piece would.
    if _SNAKE.fullmatch(name):  # most names (``get_queryset``): what _PARTS finds, for less
        return tuple(filter(None, name.split("_")))
    return tuple(part.lower() for part in _PARTS.findall(name))


def keywords_for(*texts: str) -> str:
    """Identifier-like tokens of ``texts`` plus their parts, de-duplicated, space-joined.

    Each token is kept as written, followed by its lowercase parts when it splits into two
    or more. Duplicates are dropped case-insensitively, keeping the first appearance.
    Meant for short texts (titles, signatures), not whole bodies.
    """
    # One scan of the texts joined by a space, which no token holds: the tokens of each text in
    # turn, as ``add_keywords`` of each would find them; a dict keeps each key's first word.
    first: dict[str, str] = {}
    keep = first.setdefault
    for token in _IDENTIFIER.findall(" ".join(texts)):
        for word, key in _token_words(token):
            keep(key, word)
    return " ".join(first.values())


def add_keywords(words: list[str], seen: set[str], text: str) -> None:
    """Append to ``words`` the keywords of ``text`` whose lowercase key is not in ``seen`` (which
    records them): ``keywords_for(a, b)`` is ``add_keywords`` of ``a`` then ``b``, joined. A caller
    that extends a common prefix (a Markdown heading path) copies the two and adds the rest."""
    for token in _IDENTIFIER.findall(text):
        for word, key in _token_words(token):
            if key not in seen:
                seen.add(key)
                words.append(word)


@lru_cache(maxsize=65536)
def _token_words(token: str) -> tuple[tuple[str, str], ...]:
    """``(word, key)`` candidates of one token, in order: the token, then its parts if several."""
    token = token.rstrip(".-")
    if not token.strip("_"):
        return ()
    # A dotted token (a qualified name, a module) is seldom seen twice, its names often: its
    # parts are theirs (no part spans a dot), from the cache.
    parts = _split(token) if "." not in token else tuple(chain.from_iterable(map(_split, token.split("."))))
    if len(parts) > 1:
        return ((token, token.lower()), *zip(parts, parts, strict=True))
    return ((token, token.lower()),)
