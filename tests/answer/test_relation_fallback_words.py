"""A relation question the graph cannot serve falls back to its content words, the relation
vocabulary left out ("which tests cover the session" searches ``session``, not "tests",
"cover"); a ``tests`` question's fallback weighs test code up instead of demoting it; the
answer's query stays the question (branch testsfallback)."""

from __future__ import annotations

import pytest
from engine_projects import files_of, memory_ask, synced

from conftest import NOW, resync
from kenning.answer.ask import GRAPH_EMPTY, GRAPH_GUESS_EMPTY, ask_project
from kenning.answer.naming import content_words
from kenning.search.weights import TEST_BOOST
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

# The session tests drive the app through a client fixture: no call of the project's code,
# so the graph links them to nothing and "which tests cover the session" walks to nothing;
# they say "session" once, as the session module's symbols do; the test helpers (flask.testing)
# say "tests" and "session" too.
FILES = {
    "src/shop/__init__.py": "",
    "src/shop/session.py": (
        '"""The shopping session, kept in a signed cookie."""\n\n\n'
        "class CookieStore:\n"
        '    """Keeps each visitor\'s cart by its token until it expires."""\n\n'
        "    def open_session(self, token):\n"
        '        """The cart for ``token``: a new one when it expired."""\n'
        "        return {}\n\n"
        "    def persist_session(self, token, cart):\n"
        '        """Write the cart back under its token."""\n'
        "        return None\n"
    ),
    "src/shop/testing.py": (
        '"""Helpers for tests: a test client for tests that keeps the session cookie between test requests."""\n\n\n'
        "class ShopClient:\n"
        '    """The test client tests use; each test gets one with a fresh session."""\n\n'
        "    def fetch(self, url):\n"
        "        return url\n"
    ),
    "src/shop/cart.py": (
        'def cart_total(lines):\n    """The total of the cart lines."""\n    return sum(price for _, price in lines)\n'
    ),
    "docs/support.md": (
        "# Support calls\n\nEvery call to support is logged. Calls are answered within a day; "
        "who calls twice gets a callback.\n"
    ),
    "docs/export.md": "# Nightly export\n\nThe exporter writes the orders to a CSV file each night.\n",
    "tests/__init__.py": "",
    "tests/test_basic.py": (
        "def test_a_second_request_keeps_the_cart(client):\n"
        '    client.fetch("/cart")\n'
        '    assert client.cookie("session")\n\n\n'
        "def test_the_cookie_expires_after_a_month(client, clock):\n"
        "    clock.advance(days=31)\n"
        '    assert not client.cookie("session")\n\n\n'
        "def test_the_home_page_lists_the_catalog(client):\n"
        '    assert "catalog" in client.fetch("/")\n'
    ),
    "tests/test_cart.py": (
        "from shop.cart import cart_total\n\n\n"
        "def test_cart_total_adds_the_prices():\n"
        '    assert cart_total([("a", 1), ("b", 2)]) == 3\n'
    ),
}


# Other modules, so that "session" and "tests" are rare words as in a real project.
for _topic in ("payment", "shipping", "catalog", "invoice", "discount", "warehouse", "refund", "review", "coupon"):
    FILES[f"src/shop/{_topic}.py"] = (
        f'"""The {_topic} rules of the shop."""\n\n\ndef apply_{_topic}(order):\n'
        f'    """Apply the {_topic} rules to the order."""\n    return order\n'
    )
    FILES[f"docs/{_topic}.md"] = f"# The {_topic}\n\nHow the shop handles each {_topic} of an order.\n"


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced(make_project, FILES, "shop", request.param)


@pytest.mark.parametrize(
    "question", ["which tests cover the session", "what tests exercise the session", "quels tests couvrent la session"]
)
def test_a_tests_question_falling_back_to_words_ranks_the_tests_about_the_thing_first(project, question):
    answer = ask_project(project, question, now=NOW, explain=True)
    assert (answer.mode, answer.rule, answer.degradations) == ("lexical", "relation", (GRAPH_GUESS_EMPTY,))
    assert answer.query == question  # the user's question, not the words searched
    assert {e.fact.meta.get("symbol") for e in answer.excerpts[:2]} == {
        "test_a_second_request_keeps_the_cart",
        "test_the_cookie_expires_after_a_month",
    }, [e.fact.source.uri for e in answer.excerpts]
    assert answer.excerpts[0].explain["factors"]["test_file"] == TEST_BOOST  # --explain shows the boost
    assert "words searched (the relation words left out): session" in answer.notes


NO_NODE_FOR_WORDS = "graph found no node for the words 'nightly export'"


def test_a_callers_question_falling_back_to_words_does_not_search_the_relation_words(project):
    question = "who calls the nightly export"
    answer = ask_project(project, question, now=NOW, explain=True)
    assert answer.mode == "lexical" and answer.degradations in ((GRAPH_GUESS_EMPTY,), (NO_NODE_FOR_WORDS,))
    assert answer.query == question
    assert "words searched (the relation words left out): nightly export" in answer.notes
    assert "docs/export.md" in files_of(answer)
    assert "docs/support.md" not in files_of(answer)  # it matches "calls" only
    assert all("test_file" not in e.explain.get("factors", {}) for e in answer.excerpts)  # not a tests question


@pytest.mark.parametrize(
    "question",
    [
        "qu'est-ce qui appelle l'export nightly",
        "quest-ce qui appelle l'export nightly",  # typed without the apostrophe
        "qu est-ce qui appelle lexport nightly",
    ],
)
def test_a_french_callers_question_falling_back_to_words_searches_no_elided_word(project, question):
    answer = ask_project(project, question, now=NOW)
    assert (answer.mode, answer.rule) == ("lexical", "relation")
    searched = next(n for n in answer.notes if n.startswith("words searched"))
    words = searched.removeprefix("words searched (the relation words left out): ")
    assert words in ("export nightly", "lexport nightly")
    assert "docs/export.md" in files_of(answer)


def test_a_question_left_with_no_content_word_searches_the_whole_question(project):
    answer = ask_project(project, "who calls what", now=NOW)
    assert answer.mode == "lexical" and answer.query == "who calls what"
    assert not any(n.startswith("words searched") for n in answer.notes)
    assert "docs/support.md" in files_of(answer)


def test_kenning_ask_and_memory_ask_agree_on_the_tests_fallback(project, cli):
    question = "which tests cover the session"
    from_cli = cli("ask", question, "--project", str(project.root), "--json", "--explain").json()
    from_mcp = memory_ask(project, question, NOW)
    for answer in (from_cli, from_mcp):
        assert (answer["mode"], answer["query"], answer["degradations"]) == ("lexical", question, [GRAPH_GUESS_EMPTY])
        assert answer["excerpts"][0]["source"]["uri"].startswith("tests/test_basic.py")
    assert [e["citation"] for e in from_mcp["excerpts"]] == [e["citation"] for e in from_cli["excerpts"]]
    assert from_cli["excerpts"][0]["explain"]["factors"]["test_file"] == TEST_BOOST


def test_content_words_leave_out_the_relation_vocabulary_and_keep_accented_words():
    assert content_words("which tests cover the session") == ["the", "session"]
    assert content_words("quels tests couvrent l'état de la session") == ["état", "de", "la", "session"]
    assert content_words("who calls `export_rows`") == ["export_rows"]
    assert content_words("who calls what") == []
    # elided words are none: "qu'", "l'", "jusqu'" … (also "qu'est-ce" typed "quest-ce")
    assert content_words("qu'est-ce qui dépend du module store") == ["qui", "du", "store"]
    assert content_words("quest-ce qui depend du module store") == ["qui", "du", "store"]
    # ("à": one letter is no word)
    assert content_words("qui appelle store jusqu'à lorsqu'il s'arrête") == ["qui", "store", "il", "arrête"]


def test_a_store_without_code_relations_searches_the_whole_question(make_project):
    """A claim with a relation word ("has an impact on") on a store of prose: the graph holds no
    edge, so the relation words may be the subject: the whole question is searched (SciFact)."""
    project = make_project(
        {
            "docs/surgery.md": "# Surgery\n\nBariatric surgery has a lasting impact on mental health.\n",
            "docs/diet.md": "# Diet\n\nA diet changes weight slowly; surgery is the last resort.\n",
        },
        name="claims",
    )
    resync(project)
    answer = ask_project(project, "Bariatric surgery has a positive impact on mental health", now=NOW)
    assert (answer.mode, answer.rule, answer.degradations[:1]) == ("lexical", "relation", (GRAPH_EMPTY,))
    assert not any(n.startswith("words searched") for n in answer.notes)
    assert files_of(answer)[0] == "docs/surgery.md"
