"""A dotted name or file name that no excerpt holds, as words or in its path (``report.csv``), is a
value of the asker's example (``search.lexical.loose_names``): no identifier rule, no trigram search
of it, no code name boosted. Sinatra's "make the browser save what my route returns as a file called
report.csv" went to the identifier rule, lexical at every level, where the same question without the
file's name answers hybrid at level 1 (docs/benchmarks.md "cppmacros"). A name the project holds
(``app.rb`` in its README, ``helpers.attachment`` a symbol's) stays a name; quoted text stays as
typed. Both engines."""

from __future__ import annotations

from contextlib import closing

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.search.lexical import with_loose_names
from kenning.search.query import dotted_terms, parse
from kenning.store.db import open_store
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "README.md": (
        "# Sinatra\n\n## Attachments\n\nUse the attachment helper to tell the browser the response should be "
        "stored on disk rather than displayed: `attachment` sets the Content-Disposition header.\n\n"
        "## Classic style\n\nPut your routes in app.rb and run it with ruby.\n"
    ),
    "lib/helpers.rb": (
        "module Helpers\n  def attachment(filename = nil)\n    response['Content-Disposition'] = 'x'\n  end\nend\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "examplefiles")


def _loose(project, question: str) -> frozenset[str]:
    with closing(open_store(project)) as conn:
        return with_loose_names(conn, parse(question)).loose_names


def test_an_example_s_file_name_is_no_identifier(project):
    question = "how do I make the browser save the response as a file called report.csv instead of showing it"
    assert _loose(project, question) == {"report.csv"}
    answer = ask_project(project, question, now=NOW)
    assert answer.rule == "default"
    assert answer.excerpts[0].fact.source.uri == "README.md#attachments"


def test_a_name_the_project_holds_stays_a_name(project):
    question = "what goes in app.rb for the classic style"
    assert _loose(project, question) == frozenset()
    assert ask_project(project, question, now=NOW).rule == "identifier"
    assert _loose(project, "does Helpers.attachment set a header") == frozenset()  # a symbol's qualified name
    assert _loose(project, 'the "report.csv" file') == frozenset()  # quoted: as typed


def test_which_terms_are_dotted():
    assert dotted_terms(parse("save report.csv with click.echo")) == ("report.csv", "click.echo")
    assert dotted_terms(parse("read `app.rb` here, i.e. now")) == ()
    assert dotted_terms(parse("report.csv", syntax="fts")) == ()
