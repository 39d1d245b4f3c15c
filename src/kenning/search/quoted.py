"""Quoted text in a question in words is required, as a search engine reads quotes.

``where is the ".ignore" file handled`` asks for the excerpts that write ``.ignore``; searched as
its words alone, the word ``ignore`` weighed little (ripgrep's ``crates/ignore/`` holds 556
excerpts) and none of the first five held the quoted text. Text between double quotes (``"…"``,
``“…”``, ``«…»``) is now:

- a phrase every hit of the word index must hold (FTS5 splits the quoted text into its words, in
  that order: ``"/owners/{ownerId}/edit"`` is ``owners ownerid edit``), beside the question's
  other words, which still rank;
- when it holds more than words and spaces (``.ignore``, ``/owners/{ownerId}/edit``), also a text
  each served excerpt holds as typed (case and runs of spaces aside), in its title, body or path:
  the phrase alone matches ``crates/ignore/src/walk.rs`` by its path.

When no excerpt holds the phrase, the question is searched without it; when none of the first
``LITERAL_PROBE`` that hold it holds the text as typed, its words alone are required. A note says
so either way: a quote is a wish, never a reason for an empty answer. Text in backticks is a code name
(``search.query``): the definition of ``click.echo`` never writes the phrase ``click echo``."""

from __future__ import annotations

import re
from dataclasses import replace

from kenning.records import Fact
from kenning.search import lexical, pasted, routes
from kenning.search.query import ParsedQuery, quote_term
from kenning.store import facts as fact_store
from kenning.store.fts import Filters
from kenning.store.handle import Connection

QUOTES = re.compile(r'"([^"]*)"|“([^”]*)”|«([^»]*)»')
LITERAL_PROBE = 200  # hits of the phrase read for one holding the quoted text as typed
_PROBE_CHUNK = 50
_PLAIN = re.compile(r"[^\W_]+(?:\s+[^\W_]+)*")  # words and spaces only: the phrase says it all


def spans(text: str) -> list[str]:
    """The quoted texts of ``text`` that hold a letter or a digit, in order, once each; an HTTP
    route quoted (``"GET /articles/:slug"``) is a route's words (``search.routes``), no phrase; a
    quote inside a pasted error message is the program's (``search.pasted``), none."""
    found = (
        next(group for group in match.groups() if group is not None)
        for match in QUOTES.finditer(text)
        if not pasted.in_message(text, match.start())
    )
    kept = (" ".join(span.split()) for span in found if re.search(r"[^\W_]", span))
    return list(dict.fromkeys(span for span in kept if not routes.ROUTE.fullmatch(span)))


def required(conn: Connection, project: str, parsed: ParsedQuery, filters: Filters) -> tuple[ParsedQuery, list[str]]:
    """``parsed`` with its quoted texts required (``ParsedQuery.quoted`` and ``literals``), and
    the notes that say what was required or why it was not."""
    if parsed.syntax != "natural" or not parsed.fts:
        return parsed, []
    quoted = spans(parsed.text)
    if not quoted:
        return parsed, []
    shown = ", ".join(f'"{span}"' for span in quoted)
    need = " AND ".join(quote_term(span) for span in quoted)
    ids = [fact_id for fact_id, _ in lexical.bm25(conn, need, filters, LITERAL_PROBE)]
    if not ids:  # searched as its words; nothing to say when it has no others (``"regster"``)
        said = {word for span in quoted for word in re.findall(r"\w+", span.casefold())}
        others = any(word not in said for term in parsed.terms for word in re.findall(r"\w+", term.casefold()))
        return parsed, [f"no excerpt holds the quoted text {shown}: searched without requiring it"] if others else []
    literals = tuple(folded(span) for span in quoted if not _PLAIN.fullmatch(span))
    if literals and not _any_holds(conn, project, ids, literals):
        literals = ()
        note = f"no excerpt holds the quoted text {shown} as typed: its words, in that order, required"
    else:
        note = f"quoted text required: {shown}"
    return replace(parsed, fts=f"{need} AND ({parsed.fts})", quoted=tuple(quoted), literals=literals), [note]


def folded(text: str) -> str:
    """``text`` as a quoted text is compared: case folded, each run of spaces one space."""
    return " ".join(text.casefold().split())


def holds(texts: list[str], literals: tuple[str, ...]) -> bool:
    """Whether ``texts`` (an excerpt's title, body, paths) hold every one of ``literals``."""
    whole = folded("\n".join(texts))
    return all(literal in whole for literal in literals)


def _any_holds(conn: Connection, project: str, ids: list[int], literals: tuple[str, ...]) -> bool:
    for start in range(0, len(ids), _PROBE_CHUNK):
        facts = fact_store.get_many(conn, project, ids[start : start + _PROBE_CHUNK])
        if any(holds(fact_texts(fact), literals) for fact in facts.values()):
            return True
    return False


def fact_texts(fact: Fact) -> list[str]:
    """What a quoted text may be found in: the excerpt's title, body and paths."""
    return [fact.title, fact.body, *(location.path for location in fact.locations)]
