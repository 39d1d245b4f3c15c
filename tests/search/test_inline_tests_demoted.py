"""Test code its parser found in a file that is no test file (a Rust ``#[cfg(test)]`` module) weighs
half for a question that does not ask for tests, as a test file's code does (``search.factors``):
axum's ``check_query`` helpers, in ``src/extract/raw_form.rs``'s tests, came second and fourth for
"how do I extract JSON from the request body" asked in French. Asked for tests, they keep their
weight. Both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.search import SearchOptions, search_project
from kenning.search.weights import TEST_FACTOR
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "Cargo.toml": '[package]\nname = "web"\nversion = "0.1.0"\n',
    "src/form.rs": (
        "/// Reads a query string into a typed value.\n"
        "pub fn read_query(uri: &str) -> usize {\n    uri.len()\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
        "    async fn check_query(uri: &str) {\n        assert_eq!(read_query(uri), uri.len());\n    }\n\n"
        '    #[test]\n    fn query_string() {\n        check_query("/?query=string");\n    }\n}\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "inline")


def _factors(project, question: str) -> dict[str, dict[str, float]]:
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    return {e.fact.meta.get("symbol", ""): e.explain["factors"] for e in answer.excerpts}


def test_in_file_test_code_weighs_half_unless_tests_are_asked_for(project):
    factors = _factors(project, "read a query string")
    assert factors["tests.check_query"]["test_file"] == TEST_FACTOR
    assert factors["tests.query_string"]["test_file"] == TEST_FACTOR
    assert "test_file" not in factors["read_query"]
    asked = _factors(project, "tests of the query string")
    assert "test_file" not in asked["tests.check_query"]
