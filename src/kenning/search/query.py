"""From what the user typed to FTS5 MATCH expressions. User text never reaches MATCH raw,
except with ``syntax="fts"``, where FTS5's own parser judges it and its errors become
``InvalidQuery``."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kenning.errors import InvalidQuery
from kenning.search.stop_words import (
    ENGLISH_ONLY,
    ENGLISH_STOP_WORDS,
    FRENCH_CUES,
    FRENCH_LOCUTIONS,
    FRENCH_STOP_WORDS,
)
from kenning.store.fold import unaccented

MAX_QUERY_CHARS = 500
MAX_QUERY_BYTES = 1024

# A French elided word, joined to the next by an apostrophe: l', d', c', j', m', n', s', t', qu',
# and jusqu', lorsqu', puisqu', quoiqu', presqu' ("jusqu'où", "lorsqu'il"). Never a search term;
# "don't", "it's" are none (a letter precedes the elided one, or none follows the apostrophe).
_ELIDED_LETTERS = "cdjlmnst"
ELIDED_WORDS = rf"(?:jusqu|lorsqu|puisqu|quoiqu|presqu|qu|[{_ELIDED_LETTERS}])"
FRENCH_ELISION = re.compile(rf"(?<![^\W\d_]){ELIDED_WORDS}['’](?=[^\W\d_])", re.IGNORECASE)
# "qu'est-ce" typed without its apostrophe ("quest-ce", "qu est-ce"): read as "est-ce".
_QU_EST = re.compile(r"(?<![^\W\d_])qu\s?(?=est-ce\b)", re.IGNORECASE)
# Then the elided forms left around an apostrophe: English 's, 't, 'll, 're.
_ELISION = re.compile(r"(?<=['’])\w{1,2}\b|\b\w{1,2}(?=['’]\w)")

_TOKEN = re.compile(r"[\w][\w.\-/]*[\w]|[\w]", re.UNICODE)
_PREFIX = re.compile(r"(?<![\w.\-/])(\w+)\*")  # a whole word typed with `*` after it
QUOTED = re.compile(r'"[^"]*"|`[^`]*`|«[^»]*»')  # typed exactly: never corrected nor translated
# Shapes only code names take: snake_case, camelCase (mRNA or siRNA are not camelCase).
CODE_NAME = re.compile(r"_\w|[a-z][A-Z][a-z]")
# "where is the function X defined", "où est définie la classe X": beside a code name, the words
# that ask where it is written, and of what kind it is, carry nothing of it, while docstrings
# say them ("the shell function defined by the script"). Left out when the query types a code
# name (``CODE_NAME``), kept otherwise ("how is a session defined").
_WHERE_FRAME = frozenset(
    [
        "defined",
        "define",
        "defines",
        "definition",
        "declared",
        "declare",
        "declares",
        "located",
        "implemented",
        "function",
        "method",
        "class",
        "defini",
        "definie",
        "definis",
        "definies",
        "definit",
        "declaree",
        "implemente",
        "implementee",
        "situe",
        "situee",
        "fonction",
        "methode",
        "classe",
    ]
)
# Where a question says it asks for the code ("where in the source does black decide…", "où se fait la
# conversion dans le code"): its place, not a word of what it asks (``source`` is a parameter of half of
# black's functions). Left out of the searched words; ``search.asked.asks_for_code`` reads it.
CODE_PLACE = re.compile(
    r"\b(?:in|within|inside) the (?:source(?: code)?|code(?: ?base)?)\b|\bdans le code(?: source)?\b", re.I
)
# The words of ``_WHERE_FRAME`` that ask where something is defined (not "class" or "function" alone:
# "how does the Session class work" asks no definition).
_DEFINITION_WORDS = frozenset(w for w in _WHERE_FRAME if w.startswith(("defin", "declar")))
# A dotted code name: a package, module or class, then a name (``click.echo``, ``Context.invoke``).
_DOTTED = re.compile(r"[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+")
# What ends a file name rather than a code name (``setup.py``, ``config.toml``).
_FILE_SUFFIXES = frozenset(
    "py pyi md rst txt toml json yaml yml cfg ini js ts tsx jsx html css sh go rs java rb c h cpp sql lock".split()  # noqa: SIM905
)
# A code name typed in backticks (``what does `echo` do``), dotted or not.
_TYPED_NAME = re.compile(r"`([A-Za-z_][\w.]*)`")
# camelCase and PascalCase names as the router reads them (``route.rules``' identifier rule): ``safeParse``,
# ``tRPC``, ``iOS``; ``AsciiDoc``, ``GitHub``.
CAMEL_CASE = re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b")
PASCAL_CASE = re.compile(r"\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")
IDENTIFIER_HINT = re.compile(r"[_./]|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|-\w")


@dataclass(frozen=True)
class ParsedQuery:
    """A query made safe: the FTS5 expression, the trigram expression, its terms."""

    text: str
    terms: tuple[str, ...]  # significant terms, for snippets and strictness checks
    fts: str | None  # MATCH expression for the word index, None when nothing is searchable
    trigram: str | None  # MATCH expression for the substring index
    identifier_like: bool
    syntax: str
    original_terms: tuple[str, ...] = ()  # significant terms as typed (case kept), for code names
    prefixes_read: bool = False  # ``fts``'s prefix terms already read against a store (search/prefix.py)
    french: bool = False  # its stop words were French ones (a re-parse of its rewritten text keeps them)
    # required texts: quoted ones every word hit holds as a phrase (search/quoted.py), routes their words (routes.py)
    quoted: tuple[str, ...] = ()
    literals: tuple[str, ...] = ()  # and those each served excerpt holds as typed, folded
    # a pasted error message's runs of fixed words that excerpts hold (search/pasted.py): a ranking of their own
    pasted: tuple[str, ...] = ()
    defined: tuple[str, ...] = ()  # the capitalised words a question asking where something is defined names
    # its camelCase words read as words, once read against a store (search/lexical.py: loose_names); None: not yet
    loose_names: frozenset[str] | None = None


def check_budget(text: str) -> None:
    if not text.strip():
        raise InvalidQuery("the text is empty", hint="ask a question (or give the words to search for)")
    if len(text) > MAX_QUERY_CHARS:
        raise InvalidQuery(
            f"the text is {len(text)} characters, the limit is {MAX_QUERY_CHARS}", hint="shorten it, then retry"
        )
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:  # a lone surrogate: invalid UTF-8 bytes or a \ud800 escape
        raise InvalidQuery(
            f"query is not valid UTF-8 text (position {exc.start})", hint="retype it as plain UTF-8 text"
        ) from None
    if size > MAX_QUERY_BYTES:
        raise InvalidQuery(
            f"the text is {size} UTF-8 bytes, the limit is {MAX_QUERY_BYTES}", hint="shorten it, then retry"
        )


def parse(text: str, syntax: str = "natural", *, french: bool | None = None) -> ParsedQuery:
    """``text`` made safe in ``syntax``; ``french``: the natural syntax drops French stop words
    (True) or English ones (False) whatever ``text`` reads as (None: as it reads). A question
    rewritten in English words (search/translate.py, search/spelling.py) keeps its first reading:
    ``fusionner des migrations`` searched as ``merge des migrations`` still drops ``des``."""
    check_budget(text)
    match syntax:
        case "natural":
            return _natural(text, french)
        case "fts":
            words = tuple(w.lower() for w in re.findall(r"\w+", text) if w not in {"AND", "OR", "NOT", "NEAR"})
            return ParsedQuery(text, words, text, None, False, "fts")
        case _:
            raise InvalidQuery(f"unknown query syntax {syntax!r}; use 'natural' or 'fts'")


def _natural(text: str, french: bool | None = None) -> ParsedQuery:
    tokens = _tokens(CODE_PLACE.sub(" ", text)) or _tokens(text)
    read = FRENCH_STOP_WORDS if french else ENGLISH_STOP_WORDS
    stop_words = _stop_words(tokens) if french is None else read
    in_locution = _in_locutions(text, tokens) if stop_words is FRENCH_STOP_WORDS else set()
    significant = [
        t
        for i, t in enumerate(tokens)
        if i not in in_locution and (not _is_stop_word(t, stop_words) or _named_letter(tokens, i, stop_words))
    ]
    defined: tuple[str, ...] = ()
    if any(CODE_NAME.search(t) or dotted_name(t) for t in significant):
        significant = [t for t in significant if unaccented(t) not in _WHERE_FRAME]
    elif any(unaccented(t.lower()) in _DEFINITION_WORDS for t in significant):
        # "where is the Story model defined": a class one capitalised word names is no code-shaped
        # name, but is what the question asks for (lobsters' ``class Story``, outline's ``Document``)
        defined = tuple(t for t in significant if t[:1].isupper() and t.isalpha() and not t.isupper())
        if defined:
            significant = [t for t in significant if unaccented(t.lower()) not in _WHERE_FRAME]
    kept = significant or tokens
    seen: dict[str, None] = {}
    for token in kept:
        seen.setdefault(token.lower(), None)
    terms = tuple(seen)
    identifier_like = any(IDENTIFIER_HINT.search(t) for t in kept) or bool(re.search(r'"[^"]+"', text))
    match_terms = dict.fromkeys(part for term in terms for part in _match_parts(term, stop_words))
    prefixes = prefix_words(text)  # `deploy*`: every word beginning with it
    fts = " OR ".join(quote_term(t) + ("*" if t in prefixes else "") for t in match_terms) or None
    trigram_terms = [t for t in terms if len(t) >= 3]
    trigram = " OR ".join(quote_term(t) for t in trigram_terms) or None
    originals = tuple(dict.fromkeys(kept))
    french = stop_words is FRENCH_STOP_WORDS
    return ParsedQuery(text, terms, fts, trigram, identifier_like, "natural", originals, french=french, defined=defined)


def prefix_words(text: str) -> set[str]:
    """The words typed with ``*`` after them (``deploy*``), lower-cased: natural syntax reads
    each as a prefix (``search/prefix.py``)."""
    return {w.lower() for w in _PREFIX.findall(text)}


def reads_french(text: str, french_words: int = 0) -> bool:
    """Whether ``text`` reads as French: the stop words it drops would be French ones;
    ``french_words``: words of it known French otherwise (search/translate.py: words of a French
    glossary that the index does not hold), each counted as a French cue."""
    return _stop_words(_tokens(text), french_words) is FRENCH_STOP_WORDS


def _tokens(text: str) -> list[str]:
    """The tokens of ``text``, elided words left out (French ones first: ``jusqu'où`` keeps
    ``où``, ``l'id`` keeps ``id``)."""
    return _TOKEN.findall(_ELISION.sub(" ", unelided(text)))


def unelided(text: str) -> str:
    """``text`` without its French elided words (``qu'est-ce qui dépend du store`` → ``est-ce qui
    dépend du store``), also ``qu'est-ce`` typed without its apostrophe (``quest-ce``)."""
    return FRENCH_ELISION.sub(" ", _QU_EST.sub("", text))


def _stop_words(tokens: list[str], french_words: int = 0) -> frozenset[str]:
    """French stop words when the query holds more French cues (``french_words`` more) than
    English-only stop words (``où est défini X`` → French), English ones otherwise."""
    words = [w for t in tokens for w in t.lower().split("-")]
    french = sum(w in FRENCH_CUES for w in words) + french_words
    if tokens and tokens[0].lower() == "est":  # "EST time", "est. cost": French opens with est-ce, est-il
        french -= 1
    return FRENCH_STOP_WORDS if french > sum(w in ENGLISH_ONLY for w in words) else ENGLISH_STOP_WORDS


def _named_letter(tokens: list[str], i: int, stop_words: frozenset[str]) -> bool:
    """Whether ``tokens[i]``, a letter French elides (``délai d attente``: the apostrophe typed as
    a space, no term), is the letter itself in a French question: French elides only before a
    vowel or an h, so one that ends the question or stands before a word beginning with a
    consonant is named (``carence en vitamine d``, ``l'hépatite c pendant la grossesse``)."""
    if stop_words is not FRENCH_STOP_WORDS or tokens[i].lower() not in _ELIDABLE_LETTERS:
        return False
    following = unaccented(tokens[i + 1][:1].lower()) if i + 1 < len(tokens) else ""
    return following not in _ELIDED_BEFORE


_ELIDABLE_LETTERS = frozenset(_ELIDED_LETTERS)
_WORD = re.compile(r"[^\W_]+")
_ELIDED_BEFORE = frozenset("aeiouyh")  # what a French elided word stands before (unaccented)


def _in_locutions(text: str, tokens: list[str]) -> set[int]:
    """The positions among ``tokens`` of the nouns of French prepositional phrases
    (``FRENCH_LOCUTIONS``: ``sous forme de``, ``en fonction du``, ``en cas d'erreur``), read in
    ``text``, whose elided words ``tokens`` leaves out."""
    # d'erreur: d, erreur; the article of à l'aide left out, as in ``tokens``
    words = [w for w in _WORD.findall(unaccented(text.lower())) if w != "l"]
    found = Counter(
        (words[j - 1], words[j])
        for j in range(1, len(words) - 1)
        if (words[j - 1], words[j]) in FRENCH_LOCUTIONS and words[j + 1] in FRENCH_STOP_WORDS
    )
    folded = [unaccented(t.lower()) for t in tokens]
    out: set[int] = set()
    before = ""
    for i, word in enumerate(folded):
        pair, before = (before, word), word if word != "l" else before  # à l aide: typed without '
        if found[pair] > 0:
            found[pair] -= 1
            out.add(i)
    return out


def _is_stop_word(token: str, stop_words: frozenset[str]) -> bool:
    """A stop word, or a compound made only of them (``est-il``, ``peut-être`` is not)."""
    return all(part in stop_words for part in token.lower().split("-") if part)


def dotted_name(term: str) -> str | None:
    """The name a dotted code name ends with (``click.echo`` → ``echo``, ``Context.invoke`` →
    ``invoke``); None for a file name (``setup.py``), a path, a version or a plain word."""
    if _DOTTED.fullmatch(term) is None:
        return None
    last = term.rsplit(".", 1)[1]
    return None if last.lower() in _FILE_SUFFIXES else last


def typed_code_names(parsed: ParsedQuery) -> frozenset[str]:
    """The code names a query types, lower-cased, whose definitions an answer leads with:
    ``snake_case`` and ``camelCase`` words, dotted code names (``click.echo``, whose qualifier
    says where the definition is), and a name typed in backticks (`` `echo` ``)."""
    names = {t.lower() for t in parsed.original_terms if CODE_NAME.search(t) or dotted_name(t) is not None}
    names |= {typed.lower() for typed in _TYPED_NAME.findall(parsed.text)}
    names |= {name.lower() for name in parsed.defined}
    return frozenset(names)


def humped_names(parsed: ParsedQuery) -> tuple[str, ...]:
    """The words a query types in camelCase or PascalCase only (``safeParse``, ``AsciiDoc``), as
    typed: no ``snake_case``, dotted or backticked name, whose shapes say code whatever the project
    defines; the shapes the router reads as code names too (``tRPC``, ``iOS``). Product names take
    those shapes (``GitHub``, ``JavaScript``, ``AsciiDoc``, ``tRPC``): ``search.lexical.loose_names``
    tells them apart by the project's graph."""
    typed = {name.lower() for name in _TYPED_NAME.findall(parsed.text)}
    return tuple(
        t
        for t in parsed.original_terms
        if (CODE_NAME.search(t) or CAMEL_CASE.fullmatch(t) or PASCAL_CASE.fullmatch(t))
        and not any(c in t for c in "_./-")
        and t.lower() not in typed
    )


def dotted_terms(parsed: ParsedQuery) -> tuple[str, ...]:
    """The terms of a question in words that are dotted names or file names (``click.echo``,
    ``report.csv``), as typed, outside quotes and backticks (typed exactly: the asker means them).
    ``search.lexical.loose_names`` keeps those the project holds nowhere: an example's file name."""
    if parsed.syntax != "natural" or not _DOTTED.search(parsed.text):  # one scan: most questions hold none
        return ()
    quoted = " ".join(QUOTED.findall(parsed.text))
    return tuple(t for t in parsed.original_terms if _DOTTED.fullmatch(t) and t not in quoted)


# Words of letters joined by slashes ("bash/zsh", "small/medium/large", "GET/POST"): a choice between
# them, unless the project holds such a path (``docs/api``: ``search.lexical.loose_names`` tells).
_SLASHED = re.compile(r"[^\W\d_]+(?:/[^\W\d_]+)+")


def slashed_words(parsed: ParsedQuery) -> tuple[str, ...]:
    """The terms of a question in words that are words joined by slashes (:data:`_SLASHED`), as
    typed, outside quotes and backticks (typed exactly: a phrase) and with no slash before or after
    (``/api/users``: a route's path)."""
    if parsed.syntax != "natural":
        return ()
    quoted = " ".join(QUOTED.findall(parsed.text))
    return tuple(
        t
        for t in parsed.original_terms
        if _SLASHED.fullmatch(t) and t not in quoted and f"/{t}" not in parsed.text and f"{t}/" not in parsed.text
    )


def split_choices(fts: str | None, choices: Iterable[str]) -> str | None:
    """``fts`` with each of ``choices`` (:func:`slashed_words` the project holds no path of) searched
    as any of its words: a phrase of them (``"bash/zsh"``: ``bash`` then ``zsh``) is what a text
    listing the choices seldom writes ("bash and zsh", "bash or zsh"). Searched as the phrase or any
    word, the phrase matched "bash, zsh, fish" first (docs/benchmarks.md, "choices"). The words join
    the expression's list of terms as terms of it (no group in parentheses: only a flat list of terms
    is ranked by the exact top-k and the lists kept in memory, ``store.fts_topk.phrases_of``), so
    ``fts`` is a list of terms joined by ``OR``, or one inside a group (``search.quoted``)."""
    for choice in choices:
        words = " OR ".join(quote_term(word) for word in choice.lower().split("/"))
        fts = fts.replace(quote_term(choice.lower()), words) if fts else fts
    return fts


def _match_parts(term: str, stop_words: frozenset[str] = ENGLISH_STOP_WORDS) -> list[str]:
    """What the word index searches for one term. A hyphenated compound is searched as its
    parts (``7-day-old`` → ``7``, ``day``, ``old``; stop words among them dropped), because
    texts write ``IL-6``, ``IL 6`` or ``IL6``, and ``day-old`` or ``7-day``: a phrase demanded
    every part, adjacent. Slashes and dots keep a term whole (searched as a phrase): paths,
    file names, versions and decimals mean what they say only whole (words joined by slashes
    that no path of the project holds are a choice: :func:`split_choices`, once a store is read).
    SciFact train nDCG@10 0.698 with phrases, 0.706 with parts (docs/evaluation.md). When no part of two characters
    or more is left, the compound stays whole (``T-ALL``, not ``t``). A dotted code name is
    searched as its parts too (``click.echo`` → ``click``, ``echo``): the definition of a name a
    package re-exports (``def echo`` in ``click/utils.py``) never writes the phrase, which only
    its callers do."""
    if dotted_name(term) is not None:
        return term.split(".")
    parts = [p for p in term.split("-") if p]
    if len(parts) < 2:
        return [term]
    kept = [p for p in parts if p not in stop_words]
    return kept if any(len(p) > 1 for p in kept) else [term]


def quote_term(term: str) -> str:
    """A term as an FTS5 string (a phrase when the tokenizer splits it)."""
    return '"' + term.replace('"', '""') + '"'
