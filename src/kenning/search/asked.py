"""What a question asks, as the ranker weighs it (``search.ranker``): whether the code names it
types are what it asks about (their definitions boosted), whether it asks for tests (test files
kept whole) or how to test (sections on testing boosted), whether it asks why, whether it asks for a
task to be done (code weighed less), whether it asks about templates or styles (markup weighed whole)."""

from __future__ import annotations

import re

from kenning.search.query import CODE_PLACE, ParsedQuery
from kenning.store.fold import unaccented

# A question in words that says this many words or more beside the code names it types asks about
# a situation the names are part of ("ClassCastException when I use the list returned by fromJson",
# "reduce the number of queries with select_related"), not about the names ("where is rrf_fuse
# defined", "who calls Model.save", "what is the difference between Context.invoke and
# Context.forward"): the definitions get no boost, the text that matches the situation leads
# (docs/benchmarks.md, "contextnames").
CONTEXT_WORDS = 3
# … unless the name is the question's subject, what it does asked: "how does res.send set the
# content type", "what does JsonReader.skipValue do when the next token is a name", "comment
# res.send fixe-t-il le type": its definition answers (express, walked: docs/benchmarks.md,
# "walks5"; ``res.send`` was not in the first six, ``res.json`` first).
_SUBJECT = re.compile(
    r"^\W*(?:(?:how|what|why|when) (?:does|do|did)|comment|pourquoi|quand)\s+(?:the\s+)?([^\s?,]+)", re.I
)
_TEST_WORDS = frozenset(
    {"test", "tests", "testing", "tested", "spec", "specs", "pytest", "fixture", "fixtures", "conftest", "unittest"}
)
# A question in words keeps the test files whole only when it asks for tests, by the plural noun or
# "tested" ("which tests check the session", "price cache tests", "where is escape_leading_slashes
# tested", "quels tests", "les tests du routeur"); one that speaks of testing asks how to ("test views
# with the test client", "use the test client in unit tests", "comment tester une commande"): the
# project's own tests repeat its words, the docs and the testing API answer (docs/benchmarks.md,
# "testhowto").
_ASKS_FOR_TESTS = re.compile(r"\b(?:tests|specs|test cases|fixtures)\b|\btested\b|\btestee?s?\b")
# Tests as the place something is done or run, not what is asked for ("in my unit tests", "run the
# tests", "dans les tests unitaires", "lancer les tests"): left out before the words above are looked for.
_TESTS_AS_PLACE = re.compile(
    r"\b(?:in|into|within|dans|run|running|lancer|executer)(?:\W+(?:my|the|our|your|its|les|mes|nos|des))?"
    r"(?:\W+(?:unit|integration))?\W+(?:tests|specs)\b(?:\W+unitaires)?"
)
WHY_WORDS = frozenset({"why", "pourquoi", "rationale"})
# The words a question opens with when it asks something ("how", "where", "is", "qui", "quels") or
# describes a situation ("in which file", "if I", "my list of patterns", "the adapter I registered",
# "dans les vues"): a question that opens with none of them says what to do ("exclude a directory
# from the search", "configure logging", "choisir où sont stockées les sessions") or names a topic
# ("time zone support") — a task, which the docs say how to do (``asks_task``).
_QUESTION_OPENERS = frozenset(
    {"who", "what", "how", "which", "why", "where", "when", "is", "are", "was", "were", "does", "do", "did"}
    | {"has", "have", "can", "could", "should", "would", "will", "if", "in", "with", "my", "the", "a", "an"}
    | {"qui", "quel", "quels", "quelle", "quelles", "que", "qu", "ou", "pourquoi", "comment", "est", "quand"}
    | {"le", "la", "les", "de", "des", "du", "un", "une", "dans", "avec", "mon", "ma", "mes"}
)
# A question that speaks of testing without asking for tests asks how to test; a document's section
# on testing answers it ("Testing", "Testing WebSocket sessions", "The test client", "Tester une vue"),
# though "test" weighs little where the tests are many (starlette's "how do I test a websocket
# endpoint": its "Testing WebSocket sessions" thirteenth; Django's "use the test client in unit
# tests": no testing page in the first five; docs/benchmarks.md, "testingdocs").
_TESTING = re.compile(r"\b(?:test|tests|testing|tested|tester|testee?s?|unittest|pytest|unit tests?)\b")


# A query of fewer words is a lookup of terms ("handle", "reduce keyword"), not a sentence that asks for a task.
TASK_WORDS = 3


def asks_task(parsed: ParsedQuery, symbols: frozenset[str]) -> bool:
    """Whether a question in words of ``TASK_WORDS`` words or more that types no code name opens
    with none of the words a question or a description opens with (``_QUESTION_OPENERS``): it asks
    for a task to be done, or names a topic."""
    if parsed.syntax != "natural" or symbols or len(parsed.text.split()) < TASK_WORDS:
        return False
    first = re.search(r"\w+", unaccented(parsed.text.lower()))
    return first is not None and first[0] not in _QUESTION_OPENERS


# A question that asks where the code does something: it says where (``query.CODE_PLACE``: "where in the
# source does black decide…", "où se fait la conversion dans le code"), or "where is that instanceof
# behaviour implemented", "prettifyError implementation", "où est implémenté le cache". Not "how do I
# implement…" (a task, which the docs say how to do), nor "the source code of Click" (about it, not in
# it), nor "in my code".
_ASKS_FOR_CODE = re.compile(r"\bimplemented\b|\bimplementations?\b|\b(?:est|sont|a ete|ont ete) implementee?s?\b")


def asks_for_code(parsed: ParsedQuery) -> bool:
    """Whether a question in words asks where the code does something (``CODE_PLACE``,
    :data:`_ASKS_FOR_CODE`): the docs and commits that describe it then weigh less than the code that
    does it."""
    if parsed.syntax != "natural":
        return False
    return bool(CODE_PLACE.search(parsed.text) or _ASKS_FOR_CODE.search(unaccented(parsed.text.lower())))


def asks_how_to_test(parsed: ParsedQuery, asks_tests: bool) -> bool:
    """Whether a question in words speaks of testing and does not ask for tests (``asks_tests``:
    :func:`asks_for_tests`): its answer is a section on testing (:func:`on_testing`)."""
    return parsed.syntax == "natural" and not asks_tests and _TESTING.search(unaccented(parsed.text)) is not None


def on_testing(title: str) -> bool:
    """Whether one of an excerpt's headings (``title``: ``page > section``) speaks of testing."""
    return _TESTING.search(unaccented(title)) is not None


def about_names(parsed: ParsedQuery, symbols: frozenset[str]) -> bool:
    """Whether the code names a query types are what it asks about: always in FTS5 syntax; in
    words, when they are its subject or it says fewer than ``CONTEXT_WORDS`` other words (stop words
    aside)."""
    if parsed.syntax != "natural":
        return True
    subject = _SUBJECT.match(parsed.text)
    if subject and subject.group(1).strip("`'\"").lower() in symbols:
        return True
    return sum(term.lower() not in symbols for term in parsed.original_terms) < CONTEXT_WORDS


def asks_for_tests(parsed: ParsedQuery, symbols: frozenset[str]) -> bool:
    """Whether test files keep their weight: a question in words that asks for tests, a code name
    typed that names one (``test_redirects``), or a query in FTS5 syntax with a test word."""
    if parsed.syntax != "natural":
        return any(word in _TEST_WORDS for term in parsed.terms for word in re.split(r"[\W_]+", term))
    if any(word in _TEST_WORDS for name in symbols for word in re.split(r"[\W_.]+", name.lower())):
        return True
    return _ASKS_FOR_TESTS.search(_TESTS_AS_PLACE.sub(" ", unaccented(parsed.text))) is not None


# A question that speaks of a page, its template or its style asks about markup: a web framework's
# templates and stylesheets then weigh whole ("which template sends the password reset email",
# "where is the primary button colour set", "quel gabarit affiche la page de connexion").
_MARKUP = re.compile(
    r"\b(?:templates?|templating|html|css|scss|sass|stylesheets?|styles?|styling|styled|layouts?|pages?"
    r"|colou?rs?|fonts?|themes?|jinja|markup|partials?|gabarits?|feuilles? de style|couleurs?|polices?"
    r"|mise en page)\b"
)


def asks_about_markup(text: str) -> bool:
    """Whether a query speaks of pages, templates or styles (:data:`_MARKUP`), in any syntax."""
    return _MARKUP.search(unaccented(text.lower())) is not None


# A question about licensing: license notices (``search.factors.license_notice``) then weigh whole, and
# a license's own file more (``search.factors.license_file``). A license named ("requests is Apache 2.0
# right?", "mdBook is MPL 2.0?", "is it MIT or Unlicense") or a product kept closed says it too.
_LICENSING = re.compile(
    r"\b(?:licen[cs](?:es?|ed|ing)?|copyrights?|warrant(?:y|ies)|spdx|[al]?gpl|mit|droits? d'auteur"
    r"|apache[- ]2(?:\.0)?|mpl(?:[- ]2(?:\.0)?)?|unlicense|proprietary|closed[- ]source|propri[ée]taire)\b"
)


def asks_about_licensing(text: str) -> bool:
    """Whether a query speaks of licenses, copyright or warranties (:data:`_LICENSING`)."""
    return _LICENSING.search(unaccented(text.lower())) is not None
