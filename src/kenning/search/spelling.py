"""A word typed with one slip ("regster a bluprint", "get_enviroment_proxies") searched as the
indexed word it was meant to be.

Rule: a word of five letters or more (a whole word, or one part of a code name) that the word
index holds nowhere is replaced by a word one edit away (a letter left out, added, changed, or
two letters swapped), its first letter kept, that a title or a path of the project spells out
and the word index holds; among several, the one most excerpts hold, then the first in
alphabetical order. (The word index holds stems, so a variant it matches may be no word at all:
``appes`` matches as ``app``; titles and paths — symbol names, headings, file names — are the
project's own spelling.) The original word matched nothing, so nothing it found is lost; the
answer says what was searched instead (a note). A slip seldom changes a word's first letter,
while a variant that does is often another word ("tegmental", "segmental"); and a word with two
capitals or more ("PPARy", "ARkin") is a name or an acronym, searched as typed (both rules
measured on SciFact's train claims: docs/benchmarks.md, "Spelling on long questions"). Only a
short query (``MAX_TERMS`` significant words at most, as typed: a French word translated into
several English glosses counts once) is corrected. Words the index holds are
never touched, and the look-ups cost one index probe per such word: a query without a slip
reads one posting per checked word. Only the natural syntax is corrected (``--syntax fts``
means what it says), and never a word inside quotes or backticks, nor a prefix (``deploym*``:
the words beginning with it, ``search/prefix.py``), nor one typed with accents:
``défaut`` in a French question over English text is a French word, not a slip of ``default``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kenning.search.query import QUOTED, ParsedQuery, parse, prefix_words, quote_term
from kenning.store import fts
from kenning.store.fold import unaccented
from kenning.store.fts import Filters
from kenning.store.handle import Connection

MIN_LETTERS = 5
# A question of more words is answered by the words it holds; a guessed word would outweigh
# them (a rare word of the index, at full weight) where the unknown word was a name the project
# does not hold ("stadtmanae" searched "stadtmaniae"). A short query is mostly its words: there a
# slip loses what was asked.
MAX_TERMS = 4
_PIECE = re.compile(r"[^\W\d_]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
_GROUP = 64  # variants asked in one OR query while narrowing down the ones the index holds


def corrected(
    conn: Connection, parsed: ParsedQuery, filters: Filters, *, typed_terms: int | None = None
) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` with each slipped word replaced (its ``text`` kept as typed), and one note
    per replacement; ``parsed`` itself and no note when no word needs it. ``typed_terms``: how
    many significant words the question typed, when ``parsed`` is it rewritten (translated
    words searched as several glosses: ``fonctionne`` as ``work``, ``function``, ``run``); the
    question's length is what it typed, its translation no longer question."""
    length = len(parsed.terms) if typed_terms is None else typed_terms
    if parsed.syntax != "natural" or length > MAX_TERMS:
        return parsed, ()
    fixes: dict[str, str] = {}
    quoted = {unaccented(run) for span in QUOTED.findall(parsed.text) for run in _runs(span)}
    quoted |= {unaccented(run) for word in prefix_words(parsed.text) for run in _runs(word)}  # deploym*: a prefix
    for term in parsed.original_terms:
        for run in _runs(term):
            word = unaccented(run)
            if word in fixes or word in quoted or len(word) < MIN_LETTERS or not run.isascii() or not word.isalpha():
                continue  # a word typed with accents is written as meant (``défaut`` is no slip of ``default``)
            if sum(c.isupper() for c in run) > 1:  # a name or an acronym ("PPARy"): as typed
                continue
            if fts.words_match(conn, quote_term(word)):
                continue
            better = _closest(conn, word, filters)
            if better:
                fixes[run] = better
    if not fixes:
        return parsed, ()
    text = parsed.text
    for run, better in fixes.items():
        spelled = better.capitalize() if run[:1].isupper() else better
        text = re.sub(rf"(?<![^\W\d_]){re.escape(run)}(?![a-z])", spelled, text)
    notes = tuple(f"spelling: no excerpt holds '{run}'; searched '{better}'" for run, better in fixes.items())
    return replace(parse(text, "natural", french=parsed.french), text=parsed.text), notes


def _runs(term: str) -> list[str]:
    """The word parts of a term: ``get_enviroment_proxies`` → get, enviroment, proxies;
    ``getEnviromentProxies`` → get, Enviroment, Proxies."""
    return [run for piece in _PIECE.findall(term) for run in _CAMEL.split(piece) if run]


def _closest(conn: Connection, word: str, filters: Filters) -> str | None:
    held = _held(conn, sorted(_variants(word)))
    # The word index holds stems: ``appes`` matches as ``app``. A variant counts only when a
    # title or a path spells it out, a word the project really writes.
    spelled = [v for v in held if fts.count_trigrams(conn, quote_term(v), filters)]
    counted = [(-fts.count_words(conn, quote_term(v), filters), v) for v in spelled]
    return min(counted)[1] if counted else None


def _variants(word: str) -> set[str]:
    """Every word one edit away from ``word`` (letters a–z) that begins with its first letter."""
    splits = [(word[:i], word[i:]) for i in range(1, len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in _ALPHABET}
    out |= {a + c + b for a, b in splits for c in _ALPHABET}
    out.discard(word)
    return {v for v in out if len(v) >= MIN_LETTERS - 1}


def _held(conn: Connection, variants: list[str]) -> list[str]:
    """The variants the word index holds, found by halving OR queries (a word with no
    neighbour costs one query per group)."""
    found: list[str] = []
    for start in range(0, len(variants), _GROUP):
        _narrow(conn, variants[start : start + _GROUP], found)
    return found


def _narrow(conn: Connection, group: list[str], found: list[str]) -> None:
    if not group or not fts.words_match(conn, " OR ".join(quote_term(v) for v in group)):
        return
    if len(group) == 1:
        found.append(group[0])
        return
    half = len(group) // 2
    _narrow(conn, group[:half], found)
    _narrow(conn, group[half:], found)
