"""French words of a question over English text searched as their English glosses: level 0's
bridge between the two languages, without a model.

Rule: a French word or term (``fichier``, ``délai d'attente``, ``mot de passe``) that the word
index holds nowhere is searched as its English glosses (``file``, ``timeout``, ``password``)
that the index holds, from a glossary shipped with the package (``data/fr_en.tsv``); the answer
says so in a note. The longest term wins (``base de données`` → ``database`` before ``données``
→ ``data``). A word or term the index holds is not replaced: a French project keeps its
French, and a word both languages write (``configuration``, ``session``) is searched as typed.
In a question that reads as French (below), a term the index holds in a few excerpts only
(:data:`FRENCH_FEW`) is searched as its glosses all the same when the index holds one of them in
:data:`GLOSS_DOMINATES` times as many: an English project that quotes some French (a glossary,
a translated page) answers ``fraîcheur`` with its pages on ``freshness``, as it answers the
English question, not with the pages that quote the French word. What no gloss of the index
matches stays as typed (the spelling rule may then correct it).

Inflected forms reach the glossary's lemma through a small suffix rule (:func:`_lemmas`):
plurals (``fichiers``, ``journaux``), feminines (``définie``, ``active``) and the common verb
endings (``définit``, ``gérée``, ``utilisent``, ``attend``, ``renvoie``); a term's last word too
(``se connecte`` for ``se connecter``: to sign in, where ``connecte`` alone stems as ``connection``).
The suffix rule, and the entries the glossary marks as English words too (``file``: a queue; ``sort``: exits), apply
only in a question that reads as French — its French function words outnumber English-only
ones (``query``), or it writes a French accent or an elision (``d'attente``): an English question
("sort the files", "charges") is never read as French inflections. So do the entries French
writes with accents: in an English question, ``active`` is no ``activé`` typed without them. The
glossary's keys are folded (no accents), so a French question typed without accents reaches the
same entries; in one, an elided word typed with a space for its apostrophe (``délai d attente``)
joins a term as ``d'`` does.

In a question that reads as French, two more forms reach the index: a French plural of a word
English writes the same, which the glossary does not list (``signaux`` → ``signal``), and an
article fused to its noun, the apostrophe left out (``lobjet`` → ``object``). A question without
cue words, accents or elisions reads as French when two of its words at least are French by the
glossary and absent from the index (:func:`_french_evidence`: ``televersement fichiers``); its
translated words count as French cues when the rewritten question is parsed (``fusionner des
migrations`` → ``merge migrations``, not ``des``).

Like spelling: only the natural syntax (``--syntax fts`` means what it says), never a word inside
quotes or backticks, a prefix (``deploy*``), a word of a code name (``lire_fichier``,
``config.fichier``, ``getFichier``: the project's own spelling) or a name with two capitals or more;
nor, in a question that does not read as French, a capitalised word inside a sentence: a name (gin's
"my HTML pages also use Vue which uses {{ }} too" searched Vue.js as the French "vue", a view:
docs/benchmarks.md "zodgin"). Each word or term the glossary lists costs one index probe (a count
stopped at ``FRENCH_FEW + 1`` rows, kept per store state: ``fts.words_held``), each gloss tried one
more; other words none. Developers' short forms get their long forms first
(``search.abbreviations``), then translation, then the spelling rule on what is left
(:func:`searched`): a French word is no slip of an English one (``fonction``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from kenning.errors import InvalidQuery
from kenning.search import abbreviations, compounds, spelling
from kenning.search.query import (
    ELIDED_WORDS,
    FRENCH_ELISION,
    ParsedQuery,
    parse,
    quote_term,
    reads_french,
)
from kenning.search.words import Word, free_words, named_inside
from kenning.store import fts
from kenning.store.fold import unaccented
from kenning.store.fts import Filters
from kenning.store.handle import Connection

GLOSSARY = Path(__file__).parent / "data" / "fr_en.tsv"
_ACCENTS = re.compile(r"[\u0300-\u036f]")  # combining marks
_WORD = re.compile(r"[^\W\d_]+")
# What may separate the words of one term: spaces, a hyphen, an elided word (``délai d'attente``);
# in a French question, an elided word typed with a space for its apostrophe (``délai d attente``).
_JOINER = re.compile(rf"[\s\-]*(?:{ELIDED_WORDS}['’])?", re.IGNORECASE)
_FRENCH_JOINER = re.compile(rf"[\s\-]*(?:{ELIDED_WORDS}(?:['’]|\s+))?", re.IGNORECASE)
_FRENCH_LETTERS = re.compile(r"[àâçéèêëîïôûùüÿœæ]", re.IGNORECASE)
# An article fused to its noun, its apostrophe left out (folded: ``lindex``, ``dattente``): ``l``
# or ``d`` before a vowel or an h and four letters at least. Not the pronouns' elisions (``s'``,
# ``t'``, ``qu'``: before verbs, rarely searched), nor words like ``sens`` (``s`` + ``ens``).
_FUSED = re.compile(r"[ld](?=[aeiouyh][a-z]{3})")
# A French term the index holds in more excerpts than this is the project's own word: searched as
# typed. Held in fewer, it is searched as the glosses the index holds in this many times as many
# excerpts: in an English project that quotes some French (a glossary, a translated page),
# ``fraîcheur`` (9 excerpts of kenning's own repository) is searched as ``freshness`` (383).
FRENCH_FEW = 32
GLOSS_DOMINATES = 8
# Words a question without French cues must hold that the glossary reads as French and the index
# does not hold, for it to read as French (search/translate.py, _french_evidence).
FRENCH_EVIDENCE = 2


@dataclass(frozen=True)
class Entry:
    """One glossary entry: the English glosses of a French word or term."""

    glosses: tuple[str, ...]
    # Translated in a question that reads as French only: the French word is an English word too
    # (``file``, marked ``en``), or French writes it with accents (``activé``, ``accès``): typed
    # without them in an English question, ``active`` and ``access`` are English words.
    french_only: bool
    english_too: bool = False  # marked ``en``: an English word as well (``file``, ``pile``)


def searched(conn: Connection, parsed: ParsedQuery, filters: Filters) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` as the index is searched: its short forms given their long forms
    (``abbreviations``), its French words translated, then its slips corrected (``spelling``), and
    its words the code writes as one name searched so too (``compounds``); its ``text`` kept as
    typed. The notes say what was searched instead."""
    both, forms = abbreviations.expanded(parsed)
    translated, notes = translate(conn, both)
    # the question is as long as typed: a word translated into three glosses is still one word
    corrected, spelled = spelling.corrected(conn, translated, filters, typed_terms=len(parsed.terms))
    # "character limit": also ``characterLimit``
    together, joins = compounds.joined(conn, corrected, typed_terms=len(parsed.terms))
    if not forms and not notes and not spelled and not joins:
        return parsed, ()
    return replace(together, text=parsed.text), (*forms, *notes, *spelled, *joins)


def translate(conn: Connection, parsed: ParsedQuery) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` re-read from its text with each translated term replaced by its glosses (its
    ``text`` is that rewritten text), and one note per term; ``parsed`` and no note when none is."""
    if parsed.syntax != "natural":
        return parsed, ()
    text = parsed.text
    french = reads_french(text) or bool(_FRENCH_LETTERS.search(text) or FRENCH_ELISION.search(text))
    words = free_words(text, french)
    if not french:  # a capitalised word inside an English sentence is a name: Vue.js, no French "vue"
        words = [replace(w, free=False) if w.free and named_inside(text, w) else w for w in words]
    if not any(w.free for w in words):
        return parsed, ()
    # The words the parser searches: not the stop words, nor the frame of a typed code name
    # ("où est définie la fonction parse_args": ``définie``, ``fonction``), which stay unsearched.
    kept = frozenset(unaccented(part) for term in parsed.terms for part in _WORD.findall(term))
    if not french:
        # "fraicheur calculee": no cue word, accent or elision, but two French words at least
        # (one could be an English word the project does not write: "active jobs")
        evidence = _french_evidence(conn, words, kept)
        if evidence >= FRENCH_EVIDENCE and reads_french(text, evidence):
            french, words = True, free_words(text, True)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    i = 0
    while i < len(words):
        span, glosses = _translation(conn, text, words, i, french, kept)
        if glosses:
            found.append((words[i].start, words[i + span - 1].end, glosses))
        i += span
    if not found:
        return parsed, ()
    rewritten = text
    for start, end, glosses in reversed(found):
        rewritten = rewritten[:start] + " ".join(glosses) + rewritten[end:]
    notes = tuple(
        f"translated: '{text[start:end]}' searched as " + ", ".join(f"'{g}'" for g in glosses)
        for start, end, glosses in found
    )
    try:
        # the words translated are French: counted as cues, "fusionner des migrations" reads as
        # French and its rewriting "merge des migrations" drops "des" (search/query.py, parse)
        return parse(rewritten, "natural", french=reads_french(text, len(found))), notes
    except InvalidQuery:  # glosses longer than the question's limit: searched as typed
        return parsed, ()


def _translation(
    conn: Connection, text: str, words: list[Word], i: int, french: bool, kept: frozenset[str]
) -> tuple[int, tuple[str, ...]]:
    """How many words from ``words[i]`` one term takes, and the glosses it is searched as (none:
    the word stays as typed). The longest term the glossary lists, of free words, one at least
    searched (in ``kept``: ``de`` of ``mot de passe`` is not), that the index does not hold, or,
    in a French question, holds in :data:`FRENCH_FEW` excerpts at most; its glosses the index
    holds (in :data:`GLOSS_DOMINATES` times as many excerpts as the term, when it holds the term)."""
    terms = glossary()
    for n in range(min(_longest_from().get(_singular(words[i].folded), 1), len(words) - i), 0, -1):
        span = words[i : i + n]
        if n > 1 and not any(key in terms for key in _term_keys(tuple(w.folded for w in span), french)):
            continue  # no term of these words: most questions' words begin none
        if not all(w.free for w in span) or not any(w.folded in kept for w in span):
            continue
        if n > 1 and not _adjacent(text, span, french):
            continue
        entry = _entry(tuple(w.folded for w in span), french)
        if entry is None:
            # a French word the glossary does not list, which the index does not hold as typed
            word = span[0]
            if n == 1 and french and not fts.words_match(conn, quote_term(text[word.start : word.end])):
                alone = _held_singular(conn, word) or _unfused(conn, word)
                if alone:
                    return 1, alone
            continue
        typed = fts.words_held(conn, quote_term(text[span[0].start : span[-1].end]), FRENCH_FEW + 1)
        if typed and (not french or typed > FRENCH_FEW):
            continue  # the project's own word
        wanted = max(1, typed * GLOSS_DOMINATES)
        held = tuple(g for g in entry.glosses if fts.words_held(conn, quote_term(g), wanted) >= wanted)
        if held:
            return n, held
    return 1, ()


def _french_evidence(conn: Connection, words: list[Word], kept: frozenset[str]) -> int:
    """How many searched words of a question are French by the glossary and absent from the
    index: a word the glossary lists, or an inflection of one (``calculee``), not as an English
    word as well (``file``, ``pile``), that no excerpt holds (``fraicheur``, ``delai`` in an
    English project; not ``active``, which the project writes)."""
    found = 0
    for w in words:
        if not w.free or w.folded not in kept:
            continue
        entry = _entry((w.folded,), True)
        if entry is not None and not entry.english_too and not fts.words_match(conn, quote_term(w.folded)):
            found += 1
    return found


def _held_singular(conn: Connection, word: Word) -> tuple[str, ...]:
    """The singular of a French plural the glossary does not list because English writes the
    word the same (``signaux`` → ``signal``, ``canaux`` → ``canal``), when the index holds it
    (the caller checked that it does not hold the plural as typed); none otherwise."""
    forms = [f for f in (_singular(word.folded), _plural_al(word.folded)) if f and f != word.folded]
    return next(((f,) for f in forms if fts.words_match(conn, quote_term(f))), ())


def _unfused(conn: Connection, word: Word) -> tuple[str, ...]:
    """A word typed with its elided article fused to it, the apostrophe left out (``lindex``,
    ``lutilisateur``, ``dattente``; the caller checked that the index does not hold it as typed):
    the rest's glosses the index holds when the glossary lists the rest, else the rest when the
    index holds it; none otherwise."""
    fused = _FUSED.match(word.folded)
    if fused is None:
        return ()
    rest = word.folded[fused.end() :]
    entry = _entry((rest,), True)
    if entry is not None:
        return tuple(g for g in entry.glosses if fts.words_match(conn, quote_term(g)))
    return (rest,) if fts.words_match(conn, quote_term(rest)) else ()


def _plural_al(word: str) -> str:
    """``journaux`` → ``journal``: a French plural in -aux of a singular in -al ("" otherwise)."""
    return word[:-3] + "al" if word.endswith("aux") and len(word) > 4 else ""


@lru_cache(maxsize=8192)  # a word's entry is the same for every question: the suffix rule once
def _entry(words: tuple[str, ...], french: bool) -> Entry | None:
    """The glossary's entry for ``words`` (a term: its words' plurals read as singulars; a word:
    through the suffix rule in a French question)."""
    table = glossary()
    if len(words) > 1:
        entry = next((table[key] for key in _term_keys(words, french) if key in table), None)
        return entry if entry is not None and (french or not entry.french_only) else None
    for lemma in _lemmas(words[0], french):
        entry = table.get((lemma,))
        if entry is not None and (french or not entry.french_only):
            return entry
    return None


def _term_keys(words: tuple[str, ...], french: bool) -> list[tuple[str, ...]]:
    """The glossary keys a term's words may stand for: its words' singulars; in a French question, its
    last word's lemmas too (a verb's term: ``se connecte`` for ``se connecter``)."""
    head = tuple(_singular(w) for w in words[:-1])
    keys = [(*head, _singular(words[-1]))]
    if french:
        keys += [(*head, lemma) for lemma in _lemmas(words[-1], True) if (*head, lemma) not in keys]
    return keys


def _adjacent(text: str, span: list[Word], french: bool) -> bool:
    """Whether the words of ``span`` follow each other as one term (``délai d'attente``; in a
    French question ``délai d attente`` too), not across punctuation."""
    joiner = _FRENCH_JOINER if french else _JOINER
    return all(joiner.fullmatch(text, a.end, b.start) for a, b in zip(span, span[1:], strict=False))


# The suffix rule: folded endings and what replaces them in a lemma, longest first in each table.
def _endings(spec: str) -> tuple[tuple[str, str], ...]:
    """``"ives>if e>"`` → ``(("ives", "if"), ("e", ""))``."""
    return tuple((ending, lemma) for ending, _, lemma in (pair.partition(">") for pair in spec.split()))


_FEMININE = _endings(
    "ives>if ive>if euses>eur euse>eur elles>el elle>el lles>l lle>l iennes>ien ienne>ien eres>er ere>er"
)
_FEMININE += _endings("es> e>")
_FIRST_GROUP = tuple("eraient erions eriez erait erais erons eront erez era erai aient ions iez".split())  # noqa: SIM905
_FIRST_GROUP += tuple("ait ais ant ons ez ees ee es ent er e".split())  # noqa: SIM905
_SECOND_GROUP = tuple("issaient issait issant issent issons issez irait ira ies ie is it ir i".split())  # noqa: SIM905
_THIRD_GROUP = _endings("dent>dre dant>dre dait>dre dues>dre due>dre dus>dre du>dre ds>dre d>dre")
_THIRD_GROUP += _endings("ent>ir es>ir e>ir ent>re e>re")
_MIN_STEM = 2


def _lemmas(word: str, french: bool) -> list[str]:
    """The forms of the glossary ``word`` may be an inflection of, most likely first: itself, its
    singular; in a French question, the masculine and the verb's infinitive."""
    forms = [word]
    forms += [s for s in (_singular(word), _plural_al(word)) if s and s != word]  # journaux → journal
    if not french:
        return forms
    out = list(forms)
    for form in forms:
        out += _replaced(form, _FEMININE)
        out += _verb_lemmas(form)
    return list(dict.fromkeys(out))


def _verb_lemmas(word: str) -> list[str]:
    out = []
    for ending in _FIRST_GROUP:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= _MIN_STEM:
            out.append(stem + "er")
            if stem[-1] == "i" and ending in ("e", "es", "ent"):
                out.append(stem[:-1] + "yer")  # renvoie → renvoyer
            if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in "lt":
                out.append(stem[:-1] + "er")  # appelle → appeler
    out += _replaced(word, tuple((ending, "ir") for ending in _SECOND_GROUP))
    out += _replaced(word, _THIRD_GROUP)
    return out


def _replaced(word: str, table: tuple[tuple[str, str], ...]) -> list[str]:
    return [word[: -len(a)] + b for a, b in table if word.endswith(a) and len(word) - len(a) >= _MIN_STEM]


def _singular(word: str) -> str:
    """``word`` without a plural's ``s`` or ``x`` (``fichiers`` → ``fichier``, ``jeux`` → ``jeu``)."""
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


@cache
def glossary() -> dict[tuple[str, ...], Entry]:
    """The shipped glossary, keyed by each term's folded words (plurals read as singulars)."""
    table: dict[tuple[str, ...], Entry] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        french, english, *flag = line.split("\t")
        plain = _ACCENTS.sub("", unicodedata.normalize("NFD", french.lower()))  # French letters: unaccented()
        key = tuple(_WORD.findall(FRENCH_ELISION.sub(" ", plain)))
        if len(key) > 1:
            key = tuple(_singular(w) for w in key)
        glosses = tuple(g.strip() for g in english.split(",") if g.strip())
        english_too = flag == ["en"]
        table.setdefault(key, Entry(glosses, english_too or plain != french.lower(), english_too))
    return table


@cache
def _longest_from() -> dict[str, int]:
    """The most words of a glossary term beginning with each word that begins one of two words
    or more (its singular, as the keys hold it)."""
    longest: dict[str, int] = {}
    for key in glossary():
        if len(key) > 1:
            longest[key[0]] = max(len(key), longest.get(key[0], 1))
    return longest
