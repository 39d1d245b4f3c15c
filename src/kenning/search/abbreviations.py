"""Developers' short forms searched with their long forms too (``config`` and ``configuration``):
a question in words that writes the short one finds the text that writes the long one, which
Porter's stemmer keeps apart (``config``, ``configur``). Only in that direction: a question that
writes ``context`` or ``function`` is not sent to the code names that abbreviate them (``ctx``,
``func``), which outnumber the prose (docs/benchmarks.md, "shortforms"). Only free words
(``search.words``): not inside quotes, a prefix, a code name (``config.py``, ``get_config``)."""

from __future__ import annotations

import re

from kenning.errors import InvalidQuery
from kenning.search.query import ParsedQuery, parse
from kenning.search.words import free_words

# short form -> long form
LONG_FORMS = {
    "arg": "argument",
    "args": "arguments",
    "async": "asynchronous",
    "attr": "attribute",
    "attrs": "attributes",
    "auth": "authentication",
    "config": "configuration",
    "configs": "configurations",
    "db": "database",
    "dep": "dependency",
    "deps": "dependencies",
    "dir": "directory",
    "dirs": "directories",
    "env": "environment",
    "func": "function",
    "impl": "implementation",
    "lib": "library",
    "libs": "libraries",
    "msg": "message",
    "param": "parameter",
    "params": "parameters",
    "pkg": "package",
    "repo": "repository",
    "repos": "repositories",
    "sync": "synchronization",  # nowinandroid's docs: "Data synchronization" (a walk, 2026-12-05)
    "perf": "performance",
    "tmp": "temporary",
    "var": "variable",
    "vars": "variables",
}

# Whether a text writes one of them at all: one search, before the words are read (most questions do not).
_ANY = re.compile(r"\b(?:" + "|".join(sorted(LONG_FORMS, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def expanded(parsed: ParsedQuery) -> tuple[ParsedQuery, tuple[str, ...]]:
    """``parsed`` re-read with each free short form followed by its long form, and one note per
    word; ``parsed`` and no note when it writes none (or is not a question in words)."""
    text = parsed.text
    if parsed.syntax != "natural" or not _ANY.search(text):
        return parsed, ()
    found = [
        (w.start, w.end, LONG_FORMS[w.folded])
        for w in free_words(text, parsed.french)
        if w.free and w.folded in LONG_FORMS
    ]
    if not found:
        return parsed, ()
    rewritten = text
    for _, end, long_form in reversed(found):
        rewritten = f"{rewritten[:end]} {long_form}{rewritten[end:]}"
    try:
        again = parse(rewritten, "natural", french=parsed.french)
    except InvalidQuery:  # longer than the question's limit: searched as typed
        return parsed, ()
    return again, tuple(
        f"short form: '{text[start:end]}' searched with '{long_form}' too" for start, end, long_form in found
    )
