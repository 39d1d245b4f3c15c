"""The store contract for the word index's vocabulary (``store.vocabulary``, read by
``search/prefix.py``): words folded as the index folds them, the index's own stem of each,
which stems it holds, and those beginning with a prefix. Run on both engines."""

from __future__ import annotations

from pathlib import Path

import pytest
from pg_engine import ENGINE as POSTGRESQL
from pg_engine import engine_store
from section_rows import write_sections

from kenning.store import vocabulary

ENGINES = ("sqlite", POSTGRESQL)


@pytest.fixture(params=ENGINES)
def store(request: pytest.FixtureRequest, tmp_path: Path):
    conn = engine_store(request.param, tmp_path)
    yield conn
    conn.close()


def test_a_word_is_folded_not_stemmed_and_several_words_are_none(store):
    assert vocabulary.word(store, "Déployment") == "deployment"
    assert vocabulary.word(store, "rrf_fuse") is None
    assert vocabulary.word(store, "!!") is None


def test_index_terms_are_the_engines_own_stems_of_each_word(store):
    write_sections(store, [("Deployment", "we deploy often")])
    terms = vocabulary.index_terms(store, ["deployment", "deployments", "running", "config"])
    assert terms[0] == terms[1] == "deploy" and terms[2] == "run" and terms[3] == "config"
    assert vocabulary.index_terms(store, ["rrf_fuse"]) == [None]  # two terms, not one


def test_held_and_terms_from_read_the_projects_vocabulary(store):
    write_sections(store, [("Deployment", "a deplorable config"), ("Monitoring", "alerts")])
    assert vocabulary.held(store, ["deploy", "config", "absent"]) == {"deploy", "config"}
    assert vocabulary.terms_from(store, "depl", 10) == ["deplor", "deploy"]
    assert vocabulary.terms_from(store, "depl", 1) == ["deplor"]
    assert vocabulary.terms_from(store, "zz", 10) == []
