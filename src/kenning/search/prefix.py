"""Prefix terms against a stemmed word index: ``deploy*`` finds every word beginning with
``deploy``.

The word index holds stems (``deploy`` → ``deploi``, ``deployment`` → ``deploy``), and both
engines stem a prefix before matching it, so ``deploy*`` read ``deploi*`` and missed
``Deployment``, and ``deploym*`` found nothing. Before an expression runs, each prefix term is
replaced by the index terms the words beginning with it have:

- the index terms that begin with the prefix itself: when the stemmer leaves the prefix as
  typed (``config`` → ``config``), the engine's own prefix reads exactly those, and it is kept
  (``"config"*``); otherwise (``deploy`` → ``deploi``) they are listed one by one, each by a
  word the stemmer turns into it, at most :data:`MAX_TERMS`;
- the terms of the words formed by the prefix and an English ending the stemmer removes or
  rewrites (``_ENDINGS`` and every tail of one: ``deploy`` + ``ment``, ``deploym`` + ``ent``,
  ``generaliz`` + ``ations``), each kept only when the index holds it.

Every term listed is the engine's own stem of a real spelling (``store.vocabulary``: FTS5's
tokenizer, PostgreSQL's text search configuration), held by this index; what cannot be listed
within the bound is said in a note, never dropped silently. Phrases of several words, ``NEAR``
groups, ``^`` and ``+`` keep the engine's own prefix; column filters apply to the whole
replacement (``title:deploy*`` → ``title:("deployment" OR …)``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from kenning.search.query import ParsedQuery, quote_term
from kenning.store import vocabulary
from kenning.store.handle import Connection

MAX_TERMS = 64  # index terms one prefix is expanded to, at most (its own prefix aside)
# Endings an English word may carry past what a user typed, that the stemmers (FTS5's porter,
# the Snowball English stemmer) remove or rewrite; with every tail of each (``ments``, ``ents``,
# ``nts``, ``ts``, ``s``), since a prefix may stop inside an ending (``deploym*``).
_ENDINGS = """
    s es ed ing ings ingly edly er ers est ly e y ies ied ier iest ily iness
    ational ationally tional tionally enci ency anci ancy izer izers iser isers abli bli alli entli eli ousli
    ization izations isation isations ation ations ator ators alism alisms iveness fulness ousness
    aliti ality alities iviti ivity ivities biliti bility bilities logi logy logies ology ologies ological
    icate icates icated ative atives alize alizes alized alizing alization alizations alise alised
    iciti icity ical ically ful fully ness nesses al als ally ance ances ence ences ic ics able ably ible ibly
    ant ants ement ements ment ments ent ents ently ion ions ional ionally ou ism isms ist ists istic
    ate ates ated ating ator iti ity ities ous ously ive ives ively ize izes ized izing ise ises ised ising
    ship ships hood hoods less lessly lessness
"""
_BARE = "A-Za-z0-9_\x1a\x80-\U0010ffff"  # FTS5's bareword characters (fts5_expr.c)
_TERM = rf'(?:"(?:[^"]|"")*"|[{_BARE}]+)\s*\*?'


@cache
def tails() -> tuple[str, ...]:
    """``""``, then every tail of every ending, shortest first (made at first use: a search
    without a prefix never pays for it, nor for the patterns below)."""
    endings = _ENDINGS.split()
    return ("", *sorted({e[k:] for e in endings for k in range(len(e))}, key=lambda t: (len(t), t)))


@cache
def _pieces() -> re.Pattern[str]:
    """An FTS5 expression's pieces: a NEAR group whole, a phrase or a bareword (each with the
    ``:`` of a column filter or its prefix ``*``), or anything else one character at a time."""
    return re.compile(
        r'(?P<near>\bNEAR\s*\((?:[^()"]|"(?:[^"]|"")*")*\))'
        r'|(?P<phrase>"(?:[^"]|"")*")(?P<pcolon>\s*:)?(?P<pstar>\s*\*)?'
        rf"|(?P<bare>[{_BARE}]+)(?P<bcolon>\s*:)?(?P<bstar>\s*\*)?"
        r"|(?P<other>\s+|.)",
        re.DOTALL,
    )


@cache
def _chain() -> re.Pattern[str]:
    """Terms joined by OR and nothing else (what natural syntax builds): a prefix's terms join
    the chain without parentheses, so a disjunction of phrases keeps the exact top-k of
    store/fts_topk.py (FTS5 sums a phrase's share whatever the grouping: the same scores)."""
    return re.compile(rf"\s*{_TERM}(?:\s+OR\s+{_TERM})*\s*")


def guarded(parsed: ParsedQuery) -> bool:
    """Whether the query's cost is estimated before it runs (``fts_guard.check_expansion``):
    the caller's own FTS syntax, and a natural query with a prefix (``s*``)."""
    return parsed.syntax == "fts" or "*" in (parsed.fts or "")


def read(conn: Connection, parsed: ParsedQuery) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` with its prefix terms read against this store's vocabulary (:func:`expand`),
    and the notes on the prefixes that could not be listed whole. Reading a query twice
    changes nothing (``prefixes_read``)."""
    if parsed.prefixes_read or not parsed.fts or "*" not in parsed.fts:
        return parsed, ()
    expression, notes = expand(conn, parsed.fts)
    return replace(parsed, fts=expression, prefixes_read=True), notes


def expand(conn: Connection, expression: str) -> tuple[str, tuple[str, ...]]:
    """(``expression`` with each prefix term replaced as the module doc says, the notes on
    the prefixes whose terms could not all be listed). An expression without ``*`` is
    returned as it is, and so is anything this reading does not understand: the engine
    judges the syntax afterwards, as before."""
    if "*" not in expression:
        return expression, ()
    out: list[str] = []
    notes: list[str] = []
    done: dict[str, tuple[list[str] | None, str | None]] = {}  # a prefix repeated is read once
    chain = _chain().fullmatch(expression) is not None
    for m in _pieces().finditer(expression):
        star = m["pstar"] if m["phrase"] and not m["pcolon"] else m["bstar"] if m["bare"] and not m["bcolon"] else None
        text = m["phrase"][1:-1].replace('""', '"') if m["phrase"] else m["bare"]
        joined = _joined(expression, m.start(), m.end())
        if not star or joined or text in ("AND", "OR", "NOT"):
            out.append(m.group())
            continue
        if text not in done:
            done[text] = _terms(conn, text)
            if done[text][1]:
                notes.append(str(done[text][1]))
        parts = done[text][0]
        if parts is None:
            out.append(m.group())
        else:
            out.append(" OR ".join(parts) if chain or len(parts) == 1 else "(" + " OR ".join(parts) + ")")
    return "".join(out), tuple(notes)


def _joined(expression: str, start: int, end: int) -> bool:
    """Whether the term at ``start:end`` is anchored (``^``) or joined to another (``+``):
    there a group cannot stand, and the engine's own prefix stays."""
    before = expression[:start].rstrip()
    after = expression[end:].lstrip()
    return before.endswith(("^", "+")) or after.startswith("+")


def _terms(conn: Connection, text: str) -> tuple[list[str] | None, str | None]:
    """The terms to OR in place of prefix ``text*`` (None: keep it), and a note when they are
    not all of them."""
    prefix = vocabulary.word(conn, text)
    if prefix is None:  # no word, or several (a phrase's prefix): the engine's own
        return None, None
    words = [prefix + tail for tail in tails()]
    stems = vocabulary.index_terms(conn, words)
    native = stems[0] == prefix  # the stemmer leaves it: the engine's prefix reads the terms beginning with it
    held = vocabulary.held(conn, [s for s in stems if s])
    chosen: dict[str, str] = {}
    for word, stem in zip(words, stems, strict=True):
        if stem and stem in held and stem not in chosen and not (native and stem.startswith(prefix)):
            chosen[stem] = word
    unlisted = 0
    more = False
    if not native:
        begun = vocabulary.terms_from(conn, prefix, MAX_TERMS + 1)
        more = len(begun) > MAX_TERMS
        wanted = [t for t in begun[:MAX_TERMS] if t not in chosen]
        spellings = [s for t in wanted for s in _spellings(t)]
        for word, stem in zip(spellings, vocabulary.index_terms(conn, spellings), strict=True):
            if stem in wanted and stem not in chosen:
                chosen[stem] = word
        unlisted = sum(t not in chosen for t in wanted)
    listed = list(chosen.values())
    if len(listed) > MAX_TERMS:
        more, listed = True, listed[:MAX_TERMS]
    parts = [quote_term(w) for w in listed] + ([quote_term(prefix) + "*"] if native else [])
    if not parts:  # no word of the index begins with it: its own stem, which the index lacks
        parts = [quote_term(prefix)]
    said = []
    if more:
        said.append(
            f"only the first {len(listed)} index terms its words reach were searched (a longer prefix narrows it)"
        )
    if unlisted:
        said.append(f"{unlisted} index term(s) beginning with it have no spelling to search them by and were left out")
    note = f"{prefix}*: " + "; ".join(said) if said else None
    return parts, note


def _spellings(term: str) -> list[str]:
    """Words that may stem to index term ``term`` (checked by the stemmer before use): itself,
    and the spellings the stemmers rewrite (``deploi`` ← ``deploy``, ``configur`` ← ``configure``)."""
    out = [term, term + "e", term + "s"]
    if term.endswith("i"):
        out.append(term[:-1] + "y")
    return out
