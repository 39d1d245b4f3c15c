"""A caller that is test code by its parser's word, not its path (a Rust ``#[test]`` in the file it
tests), comes after the project's own callers in a "who calls" answer, as a test file's do
(``answer.relations``, ``store.graph_lookup.marked_test_facts``): ripgrep's "who calls
RegexMatcher::new" listed eleven in-file tests before its code callers."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.store.db import open_store
from kenning.store.graph_lookup import marked_test_facts
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "pub fn parse(text: &str) -> usize {\n    text.len()\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn parses() {\n"
        '        assert_eq!(parse("ab"), 2);\n    }\n}\n'
    ),
    # a code caller whose node sorts after the test's (``symbol:src/zz.rs:…``)
    "src/zz.rs": 'use crate::parse;\n\npub fn load() -> usize {\n    parse("x")\n}\n',
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "infile")


def test_in_file_tests_come_after_the_code_that_calls(project):
    answer = ask_project(project, "who calls parse", now=NOW)
    names = [e.explain["node"]["name"] for e in answer.excerpts]
    assert answer.mode == "graph" and names == ["load", "tests.parses"], (answer.notes, names)


def test_the_facts_a_parser_marked_as_tests_are_told_apart(project):
    answer = ask_project(project, "who calls parse", now=NOW)
    ids = {e.explain["node"]["name"]: e.fact.id for e in answer.excerpts}
    conn = open_store(project)
    try:
        assert marked_test_facts(conn, list(ids.values())) == {ids["tests.parses"]}
    finally:
        conn.close()
