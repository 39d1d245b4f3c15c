"""A file read again (a new parser version, or its bytes changed) keeps the facts whose type, title
and body are the same (their content hash), and gives them the keywords the parser gives now: a
parser's keywords are no part of the hash (a method's HTTP route, ``ingest.route_words``, comes
from its class's decorator), and a kept fact took them nowhere else. The same on SQLite and on
PostgreSQL."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.ingest import parsers, read
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {"src/billing.py": 'def settle(invoice):\n    """Close the invoice."""\n    return invoice.total\n'}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "rekeyed")


def _settle_ids(project, query: str) -> list[int]:
    answer = search_project(project, query, SearchOptions(limit=5), now=NOW)
    return [e.fact.id for e in answer.excerpts if e.fact.title.startswith("def settle")]


def test_a_kept_fact_takes_the_keywords_its_file_gives_when_read_again(project, monkeypatch):
    [kept] = _settle_ids(project, "settle")
    assert _settle_ids(project, "zebrafish") == []
    real = read.load_relations

    def newer(name: str):  # noqa: ANN202 - a parser version that gives each excerpt one more keyword
        parse = real(name)

        def parsed(text: str, path: str):  # noqa: ANN202
            chunks, relations = parse(text, path)
            return [dataclasses.replace(c, keywords=f"{c.keywords} zebrafish") for c in chunks], relations

        return parsed

    monkeypatch.setitem(parsers._BY_SUFFIX, ".py", "python/999")  # the stored files were read by another
    monkeypatch.setattr(read, "load_relations", newer)
    report = resync(project)

    assert report.kept >= 1 and report.added == 0, report  # the same facts, not new ones
    assert _settle_ids(project, "zebrafish") == [kept]
    assert _settle_ids(project, "settle") == [kept]
    again = resync(project)  # nothing read again: nothing to write
    assert again.added == 0 and again.kept == 0
