"""When the trigram index joins the word index, and when it stays out."""

from __future__ import annotations

import pytest

from conftest import resync
from kenning.search import lexical
from kenning.search.query import parse
from kenning.store.db import connect

FILES = {
    "docs/il6.md": "# Cytokines\n\nIL-6 levels rise in inflammation and fever.\n",
    "docs/titles.md": "# Inflammation markers overview\n\nA list.\n",
    "src/plan.py": "def build_planner(text):\n    return text\n",
}


@pytest.fixture
def conn(make_project):
    project = make_project(FILES)
    resync(project)
    connection = connect(project.db_path)
    yield connection
    connection.close()


def test_a_prose_query_with_a_matched_identifier_like_term_is_ranked_by_words_alone(conn):
    hits = lexical.search(conn, parse("IL-6 levels rise in inflammation"), lexical.Filters(), 1)
    assert hits and "rrf" not in hits[0].explain
    assert "bm25" in hits[0].explain


def test_a_code_name_fuses_the_trigram_index_with_the_words(conn):
    hits = lexical.search(conn, parse("where is build_planner"), lexical.Filters(), 5)
    assert "rrf" in hits[0].explain


def test_trigram_hits_only_fill_after_the_word_hits(conn):
    hits = lexical.search(conn, parse("overview lanner"), lexical.Filters(), 10)
    words = [h for h in hits if "bm25" in h.explain]
    fill = [h for h in hits if h.explain.get("after_words")]
    assert words and fill and hits[: len(words)] == words
    assert all(f.score < min(w.score for w in words) for f in fill)


def test_stemming_lets_inflected_forms_meet(conn):
    hits = lexical.search(conn, parse("rising"), lexical.Filters(), 5)
    assert hits
