"""A document whose front matter lists the project's files it was made from (``sources:``: an agent
skill's ``SKILL.md``, a digest of the docs it names) weighs ``DERIVED_FACTOR``: tRPC ships 25 such
skills beside its docs, and they came before the pages they summarise (docs/benchmarks.md
"trpcaxum"). A URL or a missing file is no source. Both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.search import SearchOptions, search_project
from kenning.search.weights import DERIVED_FACTOR
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

PAGE = (
    "# Subscriptions\n\n## Custom headers through a ponyfill\n\nThe browser's EventSource cannot send headers. "
    "To send an authorization token with a subscription, pass an EventSource ponyfill to the link, which "
    "then sets the headers on every request it opens to the server.\n"
)
# A digest says the same in fewer words: on the words alone it comes first.
SKILL = (
    "---\nname: auth\ndescription: Authentication in subscriptions.\nsources:\n  - www/docs/subscriptions.md\n"
    "---\n\n# Auth\n\n## Subscription auth\n\nEventSource sends no headers: use an EventSource ponyfill for the "
    "authorization token.\n"
)
FILES = {
    "www/docs/subscriptions.md": PAGE,
    "packages/server/skills/auth/SKILL.md": SKILL,
    "notes/digest.md": SKILL.replace("www/docs/subscriptions.md", "https://example.org/subscriptions.md").replace(
        "token.", "token, from a URL."
    ),
    "notes/other.md": SKILL.replace("www/docs/subscriptions.md", "www/docs/gone.md").replace("token.", "token, gone."),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "derived")


def test_a_digest_of_the_docs_weighs_less_than_the_page_it_names(project):
    answer = search_project(project, "EventSource authorization token headers", SearchOptions(explain=True), now=NOW)
    files = [e.fact.source.uri.split("#")[0] for e in answer.excerpts]
    assert files.index("www/docs/subscriptions.md") < files.index("packages/server/skills/auth/SKILL.md"), files
    factors = {f: e.explain["factors"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert factors["packages/server/skills/auth/SKILL.md"]["derived"] == DERIVED_FACTOR
    assert "derived" not in factors["www/docs/subscriptions.md"]
    # a URL or a file the project does not hold is no source of it
    assert "derived" not in factors["notes/digest.md"] and "derived" not in factors["notes/other.md"]
    # not vacuous: on the words alone the digest came first
    ranks = {f: e.explain["bm25_rank"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert ranks["packages/server/skills/auth/SKILL.md"] < ranks["www/docs/subscriptions.md"], ranks
