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
from kenning.store import fts, vocabulary
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
PHRASES = ("phrase", "prefix", "joined")  # the units FTS5's implicit AND takes (see ``_units``)


@cache
def tails() -> tuple[str, ...]:
    """``""``, then every tail of every ending, shortest first (made at first use: a search
    without a prefix never pays for it, nor for the patterns below)."""
    endings = _ENDINGS.split()
    return ("", *sorted({e[k:] for e in endings for k in range(len(e))}, key=lambda t: (len(t), t)))


@cache
def _pieces() -> re.Pattern[str]:
    """An FTS5 expression's pieces: whitespace, a NEAR group whole, a column filter (with its
    ``-``), a phrase or a bareword (each with its prefix ``*``), or one other character."""
    return re.compile(
        r"(?P<ws>\s+)"
        r'|(?P<near>\bNEAR\s*\((?:[^()"]|"(?:[^"]|"")*")*\))'
        rf'|(?P<colspec>(?:-\s*)?(?:\{{[^}}]*\}}|"(?:[^"]|"")*"|[{_BARE}]+)\s*:)'
        r'|(?P<phrase>"(?:[^"]|"")*")(?P<pstar>\s*\*)?'
        rf"|(?P<bare>[{_BARE}]+)(?P<bstar>\s*\*)?"
        r"|(?P<other>.)",
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
    returned as it is; one FTS5 refuses raises the ``InvalidQuery`` its search would have
    (``fts.check_syntax``), before anything is replaced.

    FTS5 joins phrases written side by side (``a b``, ``title:a b``) into one implicit AND,
    which binds tighter than any operator but takes phrases only: a run of them holding a
    replaced prefix is written out as ``(a AND (…) AND b)``, the same rows."""
    if "*" not in expression:
        return expression, ()
    fts.check_syntax(conn, expression)  # an expression FTS5 refuses: its own error, word for word
    notes: list[str] = []
    done: dict[str, tuple[list[str] | None, str | None]] = {}  # a prefix repeated is read once
    chain = _chain().fullmatch(expression) is not None

    def replaced(text: str) -> list[str] | None:
        if text not in done:
            done[text] = _terms(conn, text)
            if done[text][1]:
                notes.append(str(done[text][1]))
        return done[text][0]

    out: list[str] = []
    run: list[tuple[str, bool]] = []  # the phrases side by side so far: (text, a group now)
    gap = ""  # the whitespace after the last phrase of the run
    pending = ""  # a column filter or `^` waiting for its phrase
    for unit, kind in _units(expression):
        if kind == "ws":
            if pending:
                pending += unit
            elif run:
                gap += unit
            else:
                out.append(unit)
            continue
        if kind in ("colspec", "caret") and not pending.rstrip().endswith("^"):
            pending += unit
            continue
        if kind in PHRASES:
            text, group = pending + unit, False
            if kind == "prefix" and not pending.rstrip().endswith("^"):  # `^p*`: FTS5's own
                parts = replaced(_prefix_text(unit))
                if parts is not None and len(parts) > 1:
                    text, group = pending + ("(" + " OR ".join(parts) + ")"), True
                    if chain:  # `a OR b*`: the terms join the chain
                        text = " OR ".join(parts)
                elif parts is not None:
                    text = pending + parts[0]
            pending = ""
            if run:
                run[-1] = (run[-1][0] + gap, run[-1][1])
            gap = ""
            run.append((text, group))
            continue
        out.append(_flush(run, gap) + pending + unit)  # an operator, a parenthesis, anything else
        run, gap, pending = [], "", ""
    out.append(_flush(run, gap) + pending)
    return "".join(out), tuple(notes)


def _flush(run: list[tuple[str, bool]], gap: str) -> str:
    """A run of phrases side by side: as written, or ANDed in parentheses when one of them is
    now a group (which FTS5's implicit AND does not take)."""
    if len(run) > 1 and any(group for _, group in run):
        return "(" + " AND ".join(text.strip() for text, _ in run) + ")" + gap
    return "".join(text for text, _ in run) + gap


def _units(expression: str) -> list[tuple[str, str]]:
    """The expression as (text, kind): ``ws``; ``colspec`` (``title:``, ``-{a b}:``);
    ``caret`` (``^``); ``phrase`` (a phrase or bareword, NEAR group included); ``prefix`` (a
    phrase or bareword with ``*``); ``joined`` (phrases joined by ``+``, one phrase to FTS5,
    kept whole); ``other`` (operators, parentheses, anything else)."""
    pieces: list[tuple[str, str]] = []
    for m in _pieces().finditer(expression):
        if m["ws"]:
            pieces.append((m.group(), "ws"))
        elif m["colspec"]:
            pieces.append((m.group(), "colspec"))
        elif m["near"]:
            pieces.append((m.group(), "phrase"))
        elif m["phrase"] or (m["bare"] and m["bare"] not in ("AND", "OR", "NOT")):
            star_after = re.match(r"\s*\*", expression[m.end() :])  # `p* *`: FTS5 refuses it, left to say so
            pieces.append((m.group(), "prefix" if (m["pstar"] or m["bstar"]) and not star_after else "phrase"))
        elif m["other"] == "^":
            pieces.append((m.group(), "caret"))
        else:
            pieces.append((m.group(), "other"))
    units: list[tuple[str, str]] = []
    i = 0
    while i < len(pieces):  # `a + b*`: one phrase to FTS5, its prefix FTS5's own
        text, kind = pieces[i]
        i += 1
        back = 0
        while (text, kind) == ("+", "other") and back < len(units) and units[-1 - back][1] == "ws":
            back += 1
        if (text, kind) == ("+", "other") and back < len(units) and units[-1 - back][1] in PHRASES:
            joined = "".join(t for t, _ in units[-1 - back :]) + text
            del units[-1 - back :]
            while i < len(pieces) and pieces[i][1] == "ws":
                joined += pieces[i][0]
                i += 1
            if i < len(pieces) and pieces[i][1] in PHRASES:
                joined += pieces[i][0]
                i += 1
            units.append((joined, "joined"))
            continue
        units.append((text, kind))
    return units


def _prefix_text(unit: str) -> str:
    """The word of a prefix unit: ``deploy*``, ``"deploy" *`` → ``deploy``."""
    word = unit.rstrip().removesuffix("*").rstrip()
    return word[1:-1].replace('""', '"') if word.startswith('"') else word


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
