"""A question asking where the code does something ("where in the source does …", "… implemented?",
"où … dans le code") weighs the docs and commit messages that describe it ``CODE_ASKED_PROSE_FACTOR``:
zod's "where in the source does z.coerce.number() call Number()" had its API page first, and the code
nowhere in the first five (docs/benchmarks.md, "codeasked"). Both engines."""

from __future__ import annotations

import re

import pytest

from conftest import NOW
from kenning.answer.search import SearchOptions, search_project
from kenning.search.asked import asks_for_code
from kenning.search.query import parse
from kenning.search.weights import CODE_ASKED_PROSE_FACTOR
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# The page says what the cache does in the question's words, more often than the code does.
PAGE = (
    "# Caching\n\n## Skipping unchanged files\n\nThe cache remembers each file that was formatted. A file that "
    "has not changed since the last run is skipped: the cache compares its size and modification time, and "
    "the file is skipped when both are unchanged since the last run.\n"
)
CODE = (
    "def is_changed(cache, path, stat):\n"
    '    """Whether the file changed since the last run: its size or its modification time."""\n'
    "    old = cache.get(path)\n"
    "    return old is None or old != (stat.st_size, stat.st_mtime)\n"
)
# Other pages and code, so that the question's words are rare (BM25 weighs a word held everywhere at nothing).
OTHERS = {
    f"docs/{topic}.md": f"# {topic.title()}\n\nHow to set up {topic} for the project, with its options.\n"
    for topic in ("install", "configuration", "plugins", "editors", "styles", "releases")
} | {f"src/{name}.py": f"def {name}(options):\n    return options.get({name!r})\n" for name in ("mode", "lines")}
FILES = {"docs/caching.md": PAGE, "src/cache.py": CODE, **OTHERS}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "codeasked")


def _files(project, question):
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    return [re.sub(r"[#:].*", "", e.fact.source.uri) for e in answer.excerpts], answer


def test_a_question_asking_where_the_code_does_it_gets_the_code_first(project):
    files, answer = _files(project, "where in the source is a file skipped when it has not changed since the last run")
    assert files[0] == "src/cache.py", files
    factors = {f: e.explain["factors"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert factors["docs/caching.md"]["code_asked"] == CODE_ASKED_PROSE_FACTOR
    assert "code_asked" not in factors["src/cache.py"]
    # not vacuous: on the words alone the page came first
    ranks = {f: e.explain["bm25_rank"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert ranks["docs/caching.md"] < ranks["src/cache.py"], ranks


def test_the_same_question_not_asking_for_code_keeps_the_docs_first(project):
    files, answer = _files(project, "is a file skipped when it has not changed since the last run")
    assert files[0] == "docs/caching.md", files
    assert all("code_asked" not in (e.explain or {}).get("factors", {}) for e in answer.excerpts)


@pytest.mark.parametrize(
    "question",
    [
        "where in the source does black decide a file hasn't changed",
        "where in the code are routes matched",
        "where is the remote-control HTTP server implemented?",
        "prettifyError implementation: how does it order issues",
        "où se fait la conversion dans le code ?",
        "où est implémenté le cache des fichiers ?",
    ],
)
def test_questions_that_ask_where_the_code_does_something(question):
    assert asks_for_code(parse(question))


@pytest.mark.parametrize(
    "question",
    [
        "how do I implement a custom adapter",  # a task: the docs say how
        "why does Typer include the source code of Click",  # about the code, not in it
        "log the request in my code",
        "comment implémenter un adaptateur",
        "implemented",  # FTS5 syntax: a word searched, nothing asked
    ],
)
def test_questions_that_do_not(question):
    syntax = "fts" if question == "implemented" else "natural"
    assert not asks_for_code(parse(question, syntax=syntax))


def test_where_the_question_says_the_code_is_no_word_searched():
    assert parse("where in the source is a file skipped").terms == ("file", "skipped")
    assert parse("où se fait la conversion dans le code ?").terms == ("fait", "conversion")
    assert "source" in parse("why does Typer include the source code of Click").terms
    assert parse("in the code").terms == ("code",)  # nothing else to search: the words as typed
