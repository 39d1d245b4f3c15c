"""A camelCase word no symbol of the project is named, and that many of its excerpts hold, is the
project's vocabulary (a product name: ``AsciiDoc`` in asciidoctor, ``GitHub`` in black's docs), read
as a word: no identifier route, no trigram search fused with the words, no definition to boost
(``search.lexical.loose_names``). asciidoctor's "convert an AsciiDoc string to HTML with the Ruby
API" served its Chinese readme's sponsors before the page (docs/benchmarks.md "zodgin"). A name
from elsewhere that few excerpts hold (``ClassCastException``) and a name the project defines stay
code names. Both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.search.lexical import LOOSE_SHARE, loose_names
from kenning.search.query import humped_names, parse
from kenning.store.db import open_for_reading
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# Pages whose titles and paths hold "asciidoc" (as asciidoctor's do, a fifth of them), and the one
# that answers, whose title says it in other words.
PAGES = {
    f"docs/asciidoc-syntax-{i}.adoc": f"= AsciiDoc syntax, part {i}\n\nAsciiDoc markup for lists, tables and "
    f"admonitions, part {i} of the AsciiDoc guide.\n"
    for i in range(12)
}
FILES = {
    **PAGES,
    "docs/api/convert-strings.adoc": (
        "= Load and convert strings using the API\n\nTo convert an AsciiDoc string to HTML from Ruby, pass the "
        "string to Asciidoctor.convert: the API returns the HTML as a string.\n"
    ),
    "lib/asciidoctor.rb": (
        "# The processor's entry points.\nmodule Asciidoctor\n  # Convert the source to HTML.\n"
        "  def self.convert(source)\n    source\n  end\nend\n"
    ),
    "lib/document_parser.rb": (
        "# Parses a document.\nclass DocumentParser\n  # Raises ClassCastException when a node is no block.\n"
        "  def parse(text)\n    text\n  end\nend\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "loose")


def _loose(project, question: str) -> frozenset[str]:
    conn, _ = open_for_reading(project)
    try:
        return loose_names(conn, parse(question))
    finally:
        conn.close()


def test_a_product_name_the_project_talks_about_is_read_as_a_word(project, monkeypatch):
    question = "convert an AsciiDoc string to HTML with the Ruby API"
    assert _loose(project, question) == {"AsciiDoc"}
    answer = ask_project(project, question, now=NOW, explain=True)
    assert answer.rule == "default", answer.notes
    assert answer.excerpts[0].fact.source.uri.startswith("docs/api/convert-strings.adoc"), [
        e.fact.source.uri for e in answer.excerpts
    ]
    assert all("rrf" not in e.explain and "trigram" not in e.explain for e in answer.excerpts)
    # not vacuous: read as a code name, its trigram search, fused, put a syntax page first
    monkeypatch.setattr("kenning.search.lexical.LOOSE_SHARE", 1.0)
    assert _loose(project, question) == frozenset()
    fused = ask_project(project, question, now=NOW, explain=True)
    assert fused.rule == "identifier" and "rrf" in fused.excerpts[0].explain
    assert fused.excerpts[0].fact.source.uri.startswith("docs/asciidoc-syntax-"), fused.excerpts[0].fact.source.uri


def test_names_the_project_defines_or_few_excerpts_hold_stay_code_names(project):
    assert _loose(project, "where is DocumentParser defined") == frozenset()  # a symbol
    assert _loose(project, "ClassCastException when parsing a list") == frozenset()  # one excerpt holds it
    assert ask_project(project, "ClassCastException when parsing a list", now=NOW).rule == "identifier"
    assert ask_project(project, "what does DocumentParser do", now=NOW).rule == "identifier"


def test_only_camel_case_words_as_typed_are_candidates():
    assert humped_names(parse("convert an AsciiDoc string with `GitHub` and snake_case or a.b.cD")) == ("AsciiDoc",)
    # the shapes the router reads as code names: a product's name in tRPC, an iOS app
    assert humped_names(parse("what does a tRPC cache key hold on iOS")) == ("tRPC", "iOS")
    assert 0 < LOOSE_SHARE < 1


def test_the_words_are_read_once_a_question(project, monkeypatch):
    """The router, the ranker and each deepening of the ranking read them off the query."""
    from kenning.store import graph_lookup

    calls = []
    real = graph_lookup.symbol_names
    monkeypatch.setattr(graph_lookup, "symbol_names", lambda conn, names: calls.append(names) or real(conn, names))
    answer = ask_project(project, "convert an AsciiDoc string to HTML with the Ruby API", now=NOW)
    assert answer.rule == "default" and calls == [("AsciiDoc",)]
