"""French questions as people type them, over English text (search/translate.py, search/query.py):
without accents, with elided words, with a typo beside the words translated."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search import translate
from kenning.search.query import parse
from kenning.store.db import connect
from kenning.store.fts import Filters

FILES = {
    "docs/freshness.md": "# Freshness\n\nFreshness is computed at read time from the hash of the source file.\n",
    "docs/router.md": "# Router\n\nThe router is defined as an ordered table of rules.\n",
    "docs/cache.md": "# Cache\n\nThe answer cache is invalidated when the store changes.\n",
    "docs/client.md": "# Client\n\nSet the timeout of each request the client sends; a delay separates two retries.\n",
    "docs/query.md": "# Request query strings\n\nThe query string of a request is encoded once, by the transport.\n",
    "docs/zones.md": "# Time zones\n\nA date typed in EST time is stored in UTC.\n",
}


@pytest.fixture
def english(make_project):
    project = make_project(FILES, name="english")
    resync(project)
    return project


def _search(project, question):
    answer = search_project(project, question, SearchOptions(limit=3), now=NOW)
    return [e.fact.source.uri for e in answer.excerpts], answer.notes


@pytest.mark.parametrize(
    ("accented", "plain", "uri"),
    [
        ("comment est calculée la fraîcheur", "comment est calculee la fraicheur", "docs/freshness.md"),
        ("où est défini le routeur", "ou est defini le routeur", "docs/router.md"),
        ("pourquoi le cache est invalidé", "pourquoi le cache est invalide", "docs/cache.md"),
    ],
)
def test_a_french_question_typed_without_accents_finds_what_it_finds_with_them(english, accented, plain, uri):
    uris, notes = _search(english, plain)
    assert uris and uris[0].startswith(uri), (plain, uris, notes)
    assert _search(english, accented)[0][0] == uris[0]


def test_a_word_french_writes_with_accents_is_translated_typed_without_them_in_a_french_question(english):
    _, notes = _search(english, "comment est calculee la fraicheur")
    assert "translated: 'fraicheur' searched as 'freshness'" in notes
    assert "translated: 'calculee' searched as 'compute'" in notes
    _, notes = _search(english, "ou est defini le routeur")
    assert "translated: 'routeur' searched as 'router'" in notes


def test_a_term_with_an_elided_word_typed_with_a_space_is_translated_whole(english):
    for question in ("quel est le délai d'attente", "quel est le délai d attente", "quel est le delai d attente"):
        uris, notes = _search(english, question)
        typed = question.removeprefix("quel est le ")
        assert notes == (f"translated: '{typed}' searched as 'timeout'",), question
        assert uris[0].startswith("docs/client.md")


def test_an_english_question_with_a_word_french_writes_too_is_searched_as_typed(english):
    uris, notes = _search(english, "est time")
    assert notes == () and uris[0].startswith("docs/zones.md")


def test_a_typo_is_corrected_while_the_french_words_beside_it_are_translated(english):
    # four words typed (définir, délai, requêtes, clinet), searched as six (``délai`` as typed: the
    # word index stems ``delay`` to it): the glosses do not make the question long
    question = "comment définir le délai des requêtes du clinet"
    uris, notes = _search(english, question)
    assert notes == (
        "translated: 'définir' searched as 'define', 'set'",
        "translated: 'requêtes' searched as 'request', 'query'",
        "spelling: no excerpt holds 'clinet'; searched 'client'",
    )
    assert uris[0].startswith("docs/client.md")
    # a translated word is not corrected too: ``requetes`` is one letter from ``requests``
    _, notes = _search(english, "les requetes du clinet")
    assert notes == (
        "translated: 'requetes' searched as 'request', 'query'",
        "spelling: no excerpt holds 'clinet'; searched 'client'",
    )


def test_a_long_french_question_is_still_searched_without_correction(english):
    # seven words typed: a guessed word would outweigh the others (search/spelling.py, MAX_TERMS)
    question = "comment définir le délai des requêtes du clinet vers chaque serveur distant"
    _, notes = _search(english, question)
    assert not [n for n in notes if n.startswith("spelling")], notes


def test_a_question_whose_only_french_sign_is_a_word_translated_drops_french_stop_words(make_project):
    # "fusionner des fichiers" has no accent, elision or unambiguous French cue word ("des": the
    # DES cipher), but "fusionner" is French: its rewriting "merge des file" must not search "des"
    files = {
        "docs/merge.md": "# Merging\n\nTwo files are merged into one by the merge command.\n",
        "docs/cipher.md": "# Ciphers\n\nDES is refused: the des cipher and triple DES are too weak.\n",
    }
    project = make_project(files, name="mixed")
    resync(project)
    answer = search_project(project, "fusionner des fichiers", SearchOptions(limit=3), now=NOW)
    uris = [e.fact.source.uri for e in answer.excerpts]
    assert "translated: 'fusionner' searched as 'merge'" in answer.notes, answer.notes
    assert uris and uris[0].startswith("docs/merge.md") and not any("cipher" in u for u in uris), uris
    # an English question with one French word keeps its English reading ("how", "to", "the" dropped)
    answer = search_project(project, "how to merge the fichiers", SearchOptions(limit=3), now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts][:1] == ["docs/merge.md#merging"], answer.excerpts
    # and a slip corrected after the translation keeps the French reading too
    conn = connect(project.db_path)
    try:
        searched, notes = translate.searched(conn, parse("fusionner des ciphres"), Filters())
    finally:
        conn.close()
    assert "spelling: no excerpt holds 'ciphres'; searched 'ciphers'" in notes, notes
    assert searched.fts == '"merge" OR "ciphers"', searched.fts


def test_a_french_plural_of_a_word_english_writes_the_same_is_searched_as_its_singular(make_project):
    # "signal" is no glossary entry (English writes it the same); "signaux" is its French plural
    files = {
        "docs/signals.md": "# Signals\n\nA signal is sent when a request starts.\n",
        "docs/other.md": "# Requests\n\nEach request is read once.\n",
        "docs/canaux.md": "# Canaux\n\nLes canaux sont lus.\n",
        "docs/canal.md": "# Canal\n\nThe canal is open.\n",
    }
    project = make_project(files, name="plurals")
    resync(project)
    answer = search_project(project, "comment fonctionnent les signaux", SearchOptions(limit=3), now=NOW)
    assert "translated: 'signaux' searched as 'signal'" in answer.notes, answer.notes
    assert answer.excerpts[0].fact.source.uri.startswith("docs/signals.md")
    # a plural the index holds as typed is searched as typed ("canaux": the project's own word)
    answer = search_project(project, "comment lire les canaux", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if "canaux" in n], answer.notes
    # and an English question is never read as French plurals
    answer = search_project(project, "signaux", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if n.startswith("translated")], answer.notes


def test_french_words_the_project_does_not_hold_make_a_cue_less_question_french(english):
    # no cue word, accent or elision: the glossary's words absent from the index read as French
    uris, notes = _search(english, "fraicheur calculee")
    assert "translated: 'fraicheur' searched as 'freshness'" in notes, notes
    assert "translated: 'calculee' searched as 'compute'" in notes, notes
    assert uris[0] == "docs/freshness.md#freshness", uris
    # one such word is not enough ("active jobs": tests/search/test_translate.py, English questions)


def test_an_article_fused_to_its_word_is_read_apart_in_a_french_question(english):
    # "lapplication", "lobjet", "dattente": the apostrophe left out, as often typed
    uris, notes = _search(english, "où est invalidé lanswer cache")
    assert "translated: 'lanswer' searched as 'answer'" in notes, notes
    assert uris[0] == "docs/cache.md#cache", uris
    uris, notes = _search(english, "quand a lieu lencodage des requêtes")
    assert "translated: 'lencodage' searched as 'encoding'" in notes, notes
    assert uris[0] == "docs/query.md#request-query-strings", uris
    # a word the index holds as typed, or whose rest it does not hold, is searched as typed
    assert not [n for n in _search(english, "où est défini le lecteur du cache")[1] if "lecteur" in n]


def test_a_word_the_project_writes_is_never_read_as_a_fused_article(make_project):
    project = make_project({"docs/lease.md": "# Lease\n\nA lease is taken with ease, then renewed.\n"}, name="lease")
    resync(project)
    answer = search_project(project, "comment est renouvelé le lease", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if "lease" in n], answer.notes


def test_a_term_of_three_words_is_translated_whole_its_first_word_plural_too(make_project):
    project = make_project({"docs/names.md": "# Names\n\nEvery filename is checked before the upload.\n"}, name="names")
    resync(project)
    for question in ("comment vérifier un nom de fichier", "comment vérifier les noms de fichiers"):
        uris, notes = _search(project, question)
        assert uris and uris[0].startswith("docs/names.md"), (question, uris, notes)
        assert any(note.endswith("searched as 'filename'") for note in notes), (question, notes)
