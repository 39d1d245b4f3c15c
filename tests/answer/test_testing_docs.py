"""A question that asks how to test something (it speaks of testing, and does not ask for tests)
gets a section of the docs on testing before the code whose words it repeats: starlette's "how do
I test a websocket endpoint" served its endpoints' code first and its docs' "Testing WebSocket
sessions" thirteenth (docs/benchmarks.md, "testingdocs")."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.weights import TESTING_DOCS_BOOST

ENDPOINTS = '''"""Class-based endpoints."""


class WebSocketEndpoint:
    """A websocket endpoint: on_connect, on_receive and on_disconnect, for each websocket session."""

    async def on_connect(self, websocket):
        """Override to handle an incoming websocket connection."""
        await websocket.accept()

    async def on_receive(self, websocket, data):
        """Override to handle an incoming websocket message at the endpoint."""
'''
TESTCLIENT = """# Test client

The test client lets you make requests against your application.

## Testing WebSocket sessions

Open a session to an endpoint with `client.websocket_connect(url)`, then send and receive
as your application would.

## Change client address

By default the client sends requests from `testclient`; set `client` to change it.
"""
ROUTING = """# Routing

## WebSocket routing

Use `WebSocketRoute` for a websocket endpoint: path parameters and reverse lookups work the same
as for a `Route` to an endpoint.
"""
TOPICS = ("cookies", "sessions", "templates", "static_files", "middleware", "exceptions", "lifespan", "schemas")
FILES = {
    "pkg/endpoints.py": ENDPOINTS,
    "docs/testclient.md": TESTCLIENT,
    "docs/routing.md": ROUTING,
    # other pages and modules, so that the question's words are rare as in a real project
    **{f"docs/{t}.md": f"# {t.title()}\n\n## Using {t}\n\nHow requests use {t}.\n" for t in TOPICS},
    **{f"pkg/{t}.py": f'def load_{t}(request):\n    """Read {t}."""\n' for t in TOPICS},
    # the project's own tests, which make "test" a common word, as it is in a real project
    **{
        f"tests/test_{t}.py": "\n\n".join(
            f"def test_{t}_{n}(client):\n    assert client.get('/{t}/{n}')\n" for n in range(6)
        )
        for t in TOPICS
    },
}


def _answer(project, question):
    return search_project(project, question, SearchOptions(explain=True, limit=5), now=NOW)


@pytest.mark.parametrize(
    "question",
    ["how do I test a websocket endpoint", "comment tester un endpoint websocket", "unit test a websocket endpoint"],
)
def test_a_question_on_how_to_test_gets_the_docs_section_on_testing_first(make_project, question):
    project = make_project(FILES)
    resync(project)
    answer = _answer(project, question)
    first = answer.excerpts[0]
    assert first.fact.source.uri == "docs/testclient.md#testing-websocket-sessions"
    assert first.explain["factors"]["testing_docs"] == TESTING_DOCS_BOOST
    boosted = {e.fact.source.uri.split("#")[0] for e in answer.excerpts if "testing_docs" in e.explain["factors"]}
    assert boosted == {"docs/testclient.md"}  # the test client's page: not routing's, nor the code


@pytest.mark.parametrize(
    "question",
    [
        "how does a websocket endpoint accept a connection",  # not about testing
        "which tests open a websocket session",  # asks for tests: the test code answers
    ],
)
def test_other_questions_weigh_the_testing_section_as_any(make_project, question):
    project = make_project(FILES)
    resync(project)
    answer = _answer(project, question)
    assert all("testing_docs" not in e.explain["factors"] for e in answer.excerpts)
    if question.startswith("how"):
        assert answer.excerpts[0].fact.source.uri.startswith("pkg/endpoints.py")


def test_the_boost_reaches_past_the_first_hits(make_project):
    """The section ranks below the code on its words alone: the ranker reads deep enough to find it
    (the boost counts in the bound that stops the reading), whatever the limit."""
    project = make_project(FILES)
    resync(project)
    question = "how do I test a websocket endpoint"
    answer = _answer(project, question)
    assert answer.excerpts[0].explain["bm25_rank"] > 1
    for limit in (1, 2, 3):
        top = search_project(project, question, SearchOptions(limit=limit), now=NOW).excerpts
        assert [e.fact.id for e in top] == [e.fact.id for e in answer.excerpts][:limit]
