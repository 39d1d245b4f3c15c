"""Words of a question that code writes as one name: "character limit" is ``characterLimit`` in
the code that checks it, "last updated" the component ``LastUpdated``, "table of contents"
``TableOfContents``. The word index keeps such a name as one token (``characterlimit``), which a
question in words never matches: its excerpt is found, if at all, by other words.

Rule: two words in a row of a question in words, neither a stop word, or three whose middle one is
a short stop word ("table of contents"), are also searched written together when the word index
holds that token (the stop word left out too: "TableOfContents" and "TableContents" are both
tried) and holds the words nowhere written in a row (a project whose prose says "websocket
endpoint" answers the words with it: the class ``WebSocketEndpoint``, at a rare token's full
weight, came before starlette's docs on testing one), and the token is no word of the question
already; in a question of four significant words at most (``MAX_TERMS``). Only free words
(``search.words``: not inside quotes, a prefix or a code name), each part two letters or more, the
whole six or more. The
words themselves stay searched: a token is one more term, its weight its own (a name the code
writes seldom weighs much). The index is asked once per candidate (``fts.words_held``, kept per
store state); the answer says what was searched too (a note)."""

from __future__ import annotations

from dataclasses import replace

from kenning.errors import InvalidQuery
from kenning.search import spelling
from kenning.search.query import ParsedQuery, parse, quote_term
from kenning.search.stop_words import ENGLISH_STOP_WORDS, FRENCH_STOP_WORDS
from kenning.search.words import Word, free_words
from kenning.store import fts
from kenning.store.handle import Connection

# A question of more significant words is answered by the words it holds: there a name the code
# seldom writes, at its full weight, outweighed them (the question sets: docs/benchmarks.md,
# "compounds"), as a guessed spelling does (``spelling.MAX_TERMS``, the same bound).
MAX_TERMS = spelling.MAX_TERMS
MIN_PART = 2  # letters of each word joined
MIN_JOINED = 6  # letters of a token worth the look-up ("setup" from "set up": "up" is a stop word anyway)
# The stop words a three-word name may hold in its middle: "table of contents", "point of sale".
_LINKS = frozenset({"of", "to", "and", "in", "on", "for", "by", "at"})


def joined(conn: Connection, parsed: ParsedQuery, *, typed_terms: int) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` with each run of its words that the index holds written together searched
    too, and one note per run; ``parsed`` and no note when none is, when it is no question in
    words, or when it was typed with more than ``MAX_TERMS`` significant words (``typed_terms``)."""
    if parsed.syntax != "natural" or typed_terms > MAX_TERMS:
        return parsed, ()
    text = parsed.text
    words = free_words(text, parsed.french)
    stop = FRENCH_STOP_WORDS if parsed.french else ENGLISH_STOP_WORDS
    asked = {w.folded for w in words}
    found: list[tuple[str, str]] = []  # (the words as typed, the token)
    for run in _runs(text, words, stop):
        typed = text[run[0].start : run[-1].end]
        if fts.words_held(conn, quote_term(" ".join(w.folded for w in run)), 1):
            continue  # the project writes them as words too: its prose answers them
        for token in _tokens(run):
            if token in asked or any(token == t for _, t in found):
                continue
            if fts.words_held(conn, quote_term(token), 1):
                found.append((typed, token))
                break
    if not found:
        return parsed, ()
    try:
        again = parse(f"{text} {' '.join(token for _, token in found)}", "natural", french=parsed.french)
    except InvalidQuery:  # longer than the question's limit: searched as typed
        return parsed, ()
    notes = tuple(f"joined: '{typed}' searched as '{token}' too" for typed, token in found)
    return replace(again, text=text), notes


def _runs(text: str, words: list[Word], stop: frozenset[str]) -> list[list[Word]]:
    """The runs worth joining: two free words in a row, neither a stop word; three whose middle
    one is a link (``_LINKS``) and whose ends are none."""
    runs = []
    for i, first in enumerate(words):
        if not _part(first, stop):
            continue
        if i + 1 < len(words) and _next(text, first, words[i + 1]):
            second = words[i + 1]
            if _part(second, stop):
                runs.append([first, second])
            elif second.folded in _LINKS and i + 2 < len(words):
                third = words[i + 2]
                if _next(text, second, third) and _part(third, stop):
                    runs.append([first, second, third])
    return runs


def _tokens(run: list[Word]) -> list[str]:
    """The tokens a run may be written as: its words together, and for three words without the
    middle one as well."""
    together = "".join(w.folded for w in run)
    if len(run) == 3:
        return [t for t in (together, run[0].folded + run[2].folded) if len(t) >= MIN_JOINED]
    return [together] if len(together) >= MIN_JOINED else []


def _part(word: Word, stop: frozenset[str]) -> bool:
    return word.free and len(word.folded) >= MIN_PART and word.folded not in stop and word.folded.isalpha()


def _next(text: str, a: Word, b: Word) -> bool:
    """Whether ``b`` follows ``a`` with spaces alone between them (no comma, no dash)."""
    return b.start > a.end and text[a.end : b.start].isspace()
