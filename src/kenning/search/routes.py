"""An HTTP route in a question in words has the words of its path required: ``what handles GET
/articles/:slug`` asks for the code that serves that route, not for every page that says
"handles".

The code names a route in words it spells apart: NestJS's ``@Controller('articles')`` above
``@Get(':slug')`` (its method's keywords say ``GET articles slug``, ``ingest.route_words``),
Flask's ``@app.get("/articles/<slug>")``, Express's ``router.get('/articles/:slug', …)``,
Starlette's ``Route("/articles/{slug}", …)``. So each word of the path is required of a word hit,
in any order and column (quoted text is a phrase, ``search.quoted``; a route, quoted or not, is
this), and the method and the path's words in their order (a phrase) rank beside the question's
other words, unrequired: a framework may leave GET unsaid, and "get" is in most code. A route is
an HTTP method in capitals, then a path from ``/`` holding a word; when no excerpt holds its
path's words, the question is searched without them; a note says which it did."""

from __future__ import annotations

import re
from dataclasses import replace

from kenning.ingest.route_words import words
from kenning.search import lexical, pasted
from kenning.search.query import ParsedQuery, quote_term
from kenning.store.fts import Filters
from kenning.store.handle import Connection

ROUTE = re.compile(r"(?<![\w/])(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/[^\s\"“”«»`]*")
_TRAILING = ".,;:!?)]'"  # a sentence's punctuation after the path, not the path's


def spans(text: str) -> list[str]:
    """The routes ``text`` names (``GET /articles/:slug``), in order, once each: those whose path
    holds a word, outside a pasted error message (``search.pasted``: axum's "Handler for `GET /users`
    already exists" names the asker's route, not one the project serves)."""
    found = (
        match.group().rstrip(_TRAILING) for match in ROUTE.finditer(text) if not pasted.in_message(text, match.start())
    )
    return list(dict.fromkeys(" ".join(span.split()) for span in found if words(span.split(None, 1)[1])))


def required(conn: Connection, parsed: ParsedQuery, filters: Filters) -> tuple[ParsedQuery, list[str]]:
    """``parsed`` with the words of the paths of the routes it names required of every word hit
    (their methods ranking with its words), and the note that says so, or why it was not."""
    if parsed.syntax != "natural" or not parsed.fts:
        return parsed, []
    routes = spans(parsed.text)
    if not routes:
        return parsed, []
    shown = ", ".join(routes)
    need = " AND ".join(quote_term(w) for w in dict.fromkeys(w for r in routes for w in words(r)[1:]))
    if lexical.bm25(conn, need, filters, 1):
        # the method ranks, unrequired: a framework may leave GET unsaid (Starlette's
        # ``Route("/source/{id}", …)``, Django's ``path(…)``), and "get" is in most code
        methods = " OR ".join(quote_term(m) for m in dict.fromkeys(r.split(None, 1)[0] for r in routes))
        paths = " OR ".join(quote_term(" ".join(words(r)[1:])) for r in routes)
        fts = f"{need} AND ({parsed.fts} OR {methods} OR {paths})"
        return replace(parsed, fts=fts, quoted=(*parsed.quoted, *routes)), [f"the route's path required: {shown}"]
    return parsed, [f"no excerpt holds the words of the route {shown}: searched without requiring them"]
