"""Test files weigh half unless the query asks for tests: they repeat the words of the code they
test, and a developer asking about a feature, or how to test it, wants its implementation and docs
first."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project

FILES = {
    "src/shop/cache.py": (
        'def read_cache(path):\n    """Read the price cache from disk."""\n    return open(path).read()\n'
    ),
    "tests/test_cache.py": (
        "from shop.cache import read_cache\n\n\n"
        "def test_cache_reads_the_price_cache(tmp_path):\n"
        "    cache = tmp_path / 'cache'\n    cache.write_text('price cache')\n"
        "    assert read_cache(cache) == 'price cache'  # the cache, the price cache\n"
    ),
}


def _uris(project, query):
    return [e.fact.source.uri for e in search_project(project, query, SearchOptions(explain=True), now=NOW).excerpts]


def test_the_implementation_outranks_its_test_when_the_query_does_not_speak_of_tests(make_project):
    project = make_project(FILES)
    resync(project)
    uris = _uris(project, "price cache")
    assert uris[0].startswith("src/shop/cache.py")
    assert any(uri.startswith("tests/test_cache.py") for uri in uris)  # demoted, not hidden


def test_a_query_about_tests_ranks_them_as_bm25_does(make_project):
    project = make_project(FILES)
    resync(project)
    assert _uris(project, "price cache tests")[0].startswith("tests/test_cache.py")
    answer = search_project(project, "price cache tests", SearchOptions(explain=True), now=NOW)
    assert {e.explain["factor"] for e in answer.excerpts} == {1.0}


@pytest.mark.parametrize(
    "question",
    ["how do I test the price cache", "test the price cache in my unit tests", "comment tester le price cache"],
)
def test_a_question_on_how_to_test_keeps_the_tests_demoted(make_project, question):
    project = make_project(FILES)
    resync(project)
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    demoted = [e for e in answer.excerpts if e.fact.source.uri.startswith("tests/")]
    assert demoted and all(e.explain["factors"].get("test_file") == 0.5 for e in demoted)
    if question.startswith("how"):  # the words the test file alone holds ("unit tests") may still lead
        assert answer.excerpts[0].fact.source.uri.startswith("src/shop/cache.py")


@pytest.mark.parametrize(
    "question", ["tests for the price cache", "where is read_cache tested", "quels tests lisent le price cache"]
)
def test_a_question_asking_for_tests_keeps_them_whole(make_project, question):
    project = make_project(FILES)
    resync(project)
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    tests = [e for e in answer.excerpts if e.fact.source.uri.startswith("tests/")]
    assert tests and all("test_file" not in e.explain["factors"] for e in tests)


def test_search_and_the_graph_call_test_files_by_one_rule():
    from kenning.ingest.test_files import is_test_path

    tests = [
        "tests/test_cache.py",
        "pkg/test/x.py",
        "web/__tests__/a.js",
        "src/a_test.go",
        "src/a.spec.ts",
        "src/a.test.js",
        "conftest.py",
        "tests/unit/conftest.py",
        "polls/tests.py",  # a Django app's
        "src/App.Tests/UserServiceTests.cs",  # a .NET test project's
        "App.IntegrationTests/Api.cs",
        "app/src/androidTest/java/shop/CartTest.kt",  # a Gradle test source set's
        "shared/src/commonTest/kotlin/CartTest.kt",
        "Tests/ShopTests/CartTests.swift",  # a Swift package's
        "ShopUITests/CheckoutUITests.swift",  # an Xcode project's
        "src/test/scala/shop/CartSpec.scala",
        "cypress/e2e/login.cy.ts",  # Cypress's
        "src/components/Login.cy.tsx",
        "e2e/checkout.ts",  # Playwright's folder
    ]
    code = [
        "src/shop/cache.py",
        "src/testing_tools.py",
        "docs/tests.md.py",
        "src/contest.py",
        "attest/a.py",
        "app/management/commands/test.py",  # Django's `test` command
        "src/App.Testing/Fixtures.cs",
        "src/Latest/Contest.cs",
        "app/src/main/kotlin/shop/Contest.kt",
        "Sources/Shop/Contests.swift",
        "forms/test_email_send.go",  # Go: only `x_test.go` is a test (pocketbase's form)
        "locales/messages.cy.json",  # Welsh
    ]
    assert [p for p in tests if not is_test_path(p)] == []
    assert [p for p in code if is_test_path(p)] == []
