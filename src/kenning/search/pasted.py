"""An error message pasted into a question has its fixed words ranked as phrases.

A developer or an agent pastes what their program printed: ``Error: Encountered unidirectional
transform during encode: ZodTransform``, ``RuntimeError: Working outside of application context.``,
``panic: gin: the handler is nil``. Searched as loose words, the class name and the words every file
holds ranked first (zod's ``ZodTransform`` type before the page and the code that give the message).
What the project wrote is the message's fixed words; the values the program filled in (a name, a
number, a path, a quoted value) are not in its source. So, when the question holds an error's head
(``error``, ``panic``, ``fatal``, ``warning``; a class name that ends in ``Error``, ``Exception`` or
``Warning``, or holds two humps or a module path: ``ImproperlyConfigured``,
``django.core.exceptions.ImproperlyConfigured``; Rust's ``thread 'main' panicked at …:``; ``_HEAD``
says where each may stand) and a colon, the runs of plain words of what follows (``MIN_WORDS`` to
``PHRASE_WORDS``; no code name, number, path or quoted value in one) are phrases; of the
``MAX_PROBES`` longest, those that excerpts hold are ``ParsedQuery.pasted``, whose hits are a ranking
fused with the words' (``lexical.ranking``).

Required, as quoted text is, they lost three of 60 pasted messages (``bench/questions/*.errors.jsonl``)
that were in the first five: a format string puts a value inside the words (commander's ``too many
arguments${forSubcommand}``; requests' ``{reason} for url``), so the run the asker saw is not in the
code that prints it, while a test or a page holds it. Ranked, none was lost (docs/benchmarks.md,
"pasted").

Quotes and routes inside a pasted message are the program's (``No procedure found on path
"user.getById"``: a value it filled in), not the asker's: no quoted text (``search.quoted``), no
route (``search.routes``). A question that quotes text outside one already says what it wants:
nothing more is done then.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from kenning.search.query import ParsedQuery, quote_term

if TYPE_CHECKING:  # the router reads ``phrases`` alone (start-up time)
    from kenning.store.fts import Filters
    from kenning.store.handle import Connection

MIN_WORDS = 2  # "Unmergable intersection"; one word is in the words' list already
PHRASE_WORDS = 8  # a longer run is cut: the longer the phrase, the likelier a word differs by version
MAX_PROBES = 3  # runs tried, longest first

# The words a question opens with: after "TypeScript:" or "GitHub:" (two humps) comes a question, no message.
# (Not "could", "is", "does": "could not compile", "is not a valid integer" open messages.)
_ASKING = ("how", "what", "why", "where", "when", "which", "who", "comment", "pourquoi", "quel", "quelle", "où")
# An error's head, then a colon: ``TypeError:``, ``error[E0277]:``, ``panic:``, ``WARNING:``,
# ``django.core.exceptions.ImproperlyConfigured:``, ``thread 'main' panicked at src/main.rs:12:6:``;
# the message after it on the same line or the next. A capitalised word with one hump (``Note:``,
# ``Context:``) is no error's head; nor is a word (``error``, ``panic``…) inside a sentence ("how do I
# fix an error: …"): it opens a line of output, or follows a colon, a quote or a bracket, unless
# capitalised ("… fails with Error: Date cannot be represented…"). A log line's level in brackets
# (``[WARNING] You trusted all proxies…``) is a head without a colon. Nor does a
# question follow it (``TypeScript: how do I…``).
_HEAD = re.compile(
    r"(?:(?:(?<![\w.])(?:"
    r"(?:[a-z_]\w*\.)+[A-Z]\w*"  # a class under its module's path
    r"|[A-Z]\w*(?:Error|Exception|Warning)"  # TypeError, TRPCError, UserWarning
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"  # two humps or more: ImproperlyConfigured, DoesNotExist
    r"|Error|Exception|Warning|Panic|Fatal|ERROR|WARNING|WARN|FATAL|PANIC"  # "… fails with Error: …"
    r")|(?:^|(?<=[:'\"`(\[>]))[ \t]*(?:error|panic|fatal|warning|warn|exception)"
    r"|thread '[^'\n]*' panicked at [^\n]*)"  # Rust's: the message on the next line
    r"(?:\[[\w-]+\])?:(?:[ \t]+|[ \t]*\n[ \t]*)"
    r"|\[(?:ERROR|WARNING|WARN|FATAL|PANIC)\][ \t]+)"  # a log line's level: "[GIN-debug] [WARNING] …"
    r"(?P<message>(?!(?i:" + "|".join(_ASKING) + r")\b)\S[^\n]*)",
    re.MULTILINE,
)
# A plain word: letters, a capital first at most (or a short acronym: URL, HTTP), an apostrophe's
# contraction (can't), a parenthesis or the sentence's punctuation around it. Anything else is a
# value the program filled in, or a code name the phrase would not cross.
_PLAIN = re.compile(r"\(?(?:[A-Za-z][a-z]*(?:'[a-z]+)?|[A-Z]{2,5})\)?[.,;:!?]?")
_SENTENCE_END = re.compile(r"[.!?]$")


# A quote opened before a head, and what closes it (not a contraction's apostrophe: "You're").
_CLOSING = {opening: re.compile(re.escape(closing) + r"(?!\w)") for opening, closing in ("''", '""', "``", "“”", "«»")}


@lru_cache(maxsize=64)  # the router, the quotes, the routes and the ranking each read one question
def messages(text: str) -> tuple[tuple[int, int], ...]:
    """Where the error messages pasted into ``text`` lie (start, end): what follows each head, to
    the end of its line, or to the quote closing the one that opens before the head (``where does the
    '[WARNING] Headers were already written…' message come from``: "message come from" is the asker's)."""
    if ":" not in text and "[" not in text:  # no head without one: most questions, at no cost
        return ()
    found = []
    for match in _HEAD.finditer(text):
        start, end = match.span("message")
        closing = _CLOSING.get(text[match.start() - 1]) if match.start() else None
        close = closing.search(text, start, end) if closing else None
        end = close.start() if close else end
        found.append((start, end))
    return tuple(found)


def in_message(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` lies inside a pasted error message: what the program
    printed there (a quoted value, a route) is not the asker's (``search.quoted``, ``search.routes``)."""
    return any(start <= at < end for start, end in messages(text))


def phrases(text: str) -> list[str]:
    """The runs of plain words of the error messages pasted into ``text``, longest first (the
    earlier of equal ones first), each ``PHRASE_WORDS`` words at most, once each; [] when no
    line holds an error's head."""
    runs: list[list[str]] = []
    for start, end in messages(text):
        run: list[str] = []
        ended = False  # a sentence ended before this run: it is the message's only if capitalised
        for token in text[start:end].split():
            if not _PLAIN.fullmatch(token):
                runs.append(run)
                run = []
                continue
            if not run and ended and not token.lstrip("(")[0].isupper():
                break  # "… application context. when I run my tests": the asker's words
            run.append(token.strip("().,;:!?"))
            ended = bool(_SENTENCE_END.search(token))
            if ended:
                runs.append(run)
                run = []
        runs.append(run)
    kept = (" ".join(run[:PHRASE_WORDS]) for run in sorted(runs, key=len, reverse=True) if len(run) >= MIN_WORDS)
    return list(dict.fromkeys(kept))


def weighed(conn: Connection, parsed: ParsedQuery, filters: Filters) -> tuple[ParsedQuery, list[str]]:
    """``parsed`` with the runs of a pasted error message that excerpts hold searched as phrases
    too, beside its words (``MAX_PROBES`` runs at most, longest first), and the note that says so,
    or that no excerpt holds them."""
    if parsed.syntax != "natural" or not parsed.fts or parsed.quoted:
        return parsed, []
    runs = phrases(parsed.text)[:MAX_PROBES]
    if not runs:
        return parsed, []
    from kenning.search import lexical  # a question that pastes no error needs it not here

    held = [run for run in runs if lexical.bm25(conn, quote_term(run), filters, 1)]
    if not held:
        return parsed, [f'no excerpt holds the error message\'s words "{runs[0]}" in that order']
    shown = ", ".join(f'"{run}"' for run in held)
    return replace(parsed, pasted=tuple(held)), [f"error message's fixed words ranked as phrases: {shown}"]
