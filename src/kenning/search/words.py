"""The words of a question in words, each marked free or held back: what the rewriting rules
(French glosses, ``search.translate``; short forms, ``search.abbreviations``) may rewrite. Held
back: a word inside quotes or backticks, a prefix (``deploy*``), a word of a code name
(``lire_fichier``, ``config.fichier``, ``getFichier``: the project's own spelling), a name with
two capitals or more (``PPARy``). ``named_inside``: a capitalised word inside a sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.search.query import ELIDED_WORDS, FRENCH_ELISION, QUOTED, prefix_words
from kenning.store.fold import unaccented

_WORD = re.compile(r"[^\W\d_]+")
# A token as the query parser reads it (letters, digits and the joiners of code names and paths).
_TOKEN = re.compile(r"[\w][\w.\-/]*[\w]|[\w]")
_CODE_TOKEN = re.compile(r"[_./\d]|[a-z][A-Z]")  # a word of a code name, a path, a version
_SENTENCE_START = frozenset(".!?:;\"'(«“")  # what may open a sentence or a quotation before a word
_SPACED_ELISION = re.compile(rf"(?<![^\W\d_]){ELIDED_WORDS}\s+(?=[^\W\d_])", re.IGNORECASE)


@dataclass(frozen=True)
class Word:
    folded: str  # lower-cased, without accents, as the word index reads it
    start: int
    end: int
    free: bool  # outside quotes, prefixes and code names, and no name (``PPARy``)


def free_words(text: str, french: bool) -> list[Word]:
    """The words of ``text`` (letter runs, elided ``d'``/``l'`` left out, and in a French question
    ``d``/``l`` typed with a space for the apostrophe), each marked free or not."""
    held_back = [m.span() for m in QUOTED.finditer(text)]
    held_back += [m.span() for m in _TOKEN.finditer(text) if _CODE_TOKEN.search(m.group())]
    prefixes = prefix_words(text)
    out = []
    for m in _WORD.finditer(text):
        if FRENCH_ELISION.match(text, m.start()) or (french and _SPACED_ELISION.match(text, m.start())):
            continue
        run = m.group()
        free = (
            not any(a <= m.start() < b for a, b in held_back)
            and run.lower() not in prefixes
            and (run[1:].islower() or len(run) == 1 or sum(c.isupper() for c in run) < 2)
        )
        out.append(Word(unaccented(run), m.start(), m.end(), free))
    return out


def named_inside(text: str, word: Word) -> bool:
    """Whether ``word`` is capitalised inside a sentence of ``text`` (``use Vue for``), not at its
    start (``Vue templates``, ``… done. Fichier``): a name, in English."""
    run = text[word.start : word.end]
    if len(run) < 2 or not run[0].isupper() or not run[1:].islower():
        return False
    before = text[: word.start].rstrip()
    return bool(before) and before[-1] not in _SENTENCE_START
