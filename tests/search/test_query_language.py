"""A query drops the stop words of its own language only: French function words are often
English content (``IL-6``, ``T cells``, ``son``), and elided forms (``l'``, ``'s``) are noise."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.query import parse


def test_an_english_query_keeps_words_that_are_only_french_stop_words():
    assert parse("IL-6 signaling in T cells").fts == '"il" OR "6" OR "signaling" OR "t" OR "cells"'
    assert parse("what did her son paint").fts == '"son" OR "paint"'


def test_a_french_query_drops_french_stop_words():
    assert parse("où est le cache des réponses").fts == '"cache" OR "réponses"'
    assert parse("où est défini rrf_fuse").fts == '"rrf_fuse"'  # "défini" beside a code name: test_where_frame.py
    assert parse("quelles décisions sur le cache").fts == '"décisions" OR "cache"'


def test_elided_forms_are_dropped_in_both_languages():
    assert parse("comment l'index est-il mis à jour").fts == '"index" OR "mis" OR "jour"'
    assert parse("the patient's results don't vary").fts == '"patient" OR "results" OR "don" OR "vary"'


def test_a_query_made_only_of_stop_words_still_searches_them():
    assert parse("le la").fts == '"le" OR "la"'


def test_a_one_letter_english_term_ranks_the_text_that_holds_it_first(make_project):
    project = make_project(
        {
            "docs/a.md": "# Cells\n\nB cells make antibodies.\n",
            "docs/b.md": "# Cells\n\nT cells answer antigens.\n",
        }
    )
    resync(project)
    answer = search_project(project, "T cells", SearchOptions(), now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts][0] == "docs/b.md#cells"
