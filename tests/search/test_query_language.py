"""A query drops the stop words of its own language only: French function words are often
English content (``IL-6``, ``T cells``, ``son``), and elided forms (``l'``, ``'s``) are noise."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.query import parse, reads_french


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


def test_a_french_question_typed_without_accents_reads_as_french():
    # its cue words are the same typed with or without accents: "est", "la", "le", "pourquoi"
    assert parse("comment est calculee la fraicheur").fts == '"calculee" OR "fraicheur"'
    assert parse("pourquoi le cache est invalide").fts == '"cache" OR "invalide"'
    assert parse("ou est defini le routeur").fts == '"defini" OR "routeur"'
    # the accented cue words typed without their accents, "c'est" without its apostrophe
    assert reads_french("cache tres lent") and parse("cache tres lent").fts == '"cache" OR "lent"'
    assert reads_french("peut etre vide") and reads_french("cest quoi un extrait")


def test_combien_and_chaque_are_french_cues():
    # "combien de jetons coûte…" had no cue ("de" and "un" are none: too common in mixed text)
    assert reads_french("Combien de jetons coûte chaque couche de divulgation progressive ?")
    assert reads_french("le graphe est-il reconstruit en entier a chaque synchronisation")
    assert parse("combien de jetons par couche").fts == '"jetons" OR "couche"'


def test_a_letter_french_does_not_elide_is_searched_in_a_french_question():
    # French elides before a vowel or an h only: a letter at the end, or before another letter, is named
    assert parse("la vitamine d protège-t-elle des fractures").fts == '"vitamine" OR "d" OR "protège" OR "fractures"'
    assert parse("quels risques de l hépatite c pendant la grossesse").fts == (
        '"risques" OR "hépatite" OR "c" OR "grossesse"'
    )
    assert parse("comment doser la vitamine d").fts == '"doser" OR "vitamine" OR "d"'
    # before a vowel or an h it is an elision typed with a space, as before
    assert parse("où est le délai d attente").fts == '"délai" OR "attente"'
    assert parse("comment l index est-il mis à jour").fts == '"index" OR "mis" OR "jour"'


def test_english_questions_with_words_french_writes_too_stay_english():
    for question in (
        "est time",
        "EST time zone",
        "a cache",
        "ou cache",
        "a pile of jobs",
        "What happened to Melanie's son on their road trip?",  # LoCoMo: "son" and "on"
    ):
        assert not reads_french(question), question
    assert parse("est time").fts == '"est" OR "time"'  # the time zone is searched
    # "est" opening a French question is hyphenated: est-ce, est-il
    assert reads_french("est-il possible de lire un fichier")
    assert parse("est-il possible de lire un fichier").fts == '"possible" OR "lire" OR "fichier"'


def test_french_elided_words_are_never_search_terms():
    assert parse("qu'est-ce qui dépend du module store").terms == ("dépend", "module", "store")
    assert parse("quest-ce qui depend du module store").terms == ("depend", "module", "store")
    assert parse("qu est-ce qui depend du module store").terms == ("depend", "module", "store")
    assert parse("jusqu'où va le cache").terms == ("va", "cache")
    assert parse("que fait le cache lorsqu'il expire").terms == ("fait", "cache", "expire")
    assert parse("puisqu'on relit l'index, d'où vient l'écart").terms == ("relit", "index", "vient", "écart")
    assert parse("c'est quoi j'ai n'importe s'il").terms == ("importe",)
    # the word after an elision is kept whole, however short ("l'id" is no English "'d")
    assert parse("où est stocké l'id").terms == ("stocké", "id")
    # English apostrophes are untouched: possessives and contractions as before
    assert parse("the patient's results don't vary").fts == '"patient" OR "results" OR "don" OR "vary"'


def test_an_elided_word_typed_with_a_space_is_no_term_of_a_french_question_only():
    assert parse("quel est le délai d attente par défaut").fts == '"délai" OR "attente" OR "défaut"'
    assert parse("comment l index est il mis a jour").fts == '"index" OR "mis" OR "jour"'
    assert parse("vitamin d deficiency").fts == '"vitamin" OR "d" OR "deficiency"'  # English: as typed


def test_the_noun_of_a_french_prepositional_phrase_is_no_term_of_a_french_question():
    """``sous forme de`` means "as", ``en fonction de`` "depending on": their nouns are not
    searched (``forme`` would find ``form``, ``fonction`` every ``function``), elided (``en cas
    d'erreur``, ``à l'aide d'un``) or typed without the apostrophe; the same noun elsewhere is."""
    assert parse("vues sous forme de classes").terms == ("vues", "classes")
    assert parse("trier les résultats en fonction de la date").terms == ("trier", "résultats", "date")
    assert parse("que faire en cas d'erreur").terms == ("faire", "erreur")
    assert parse("à l'aide d'un fichier").terms == ("fichier",)
    assert parse("à l aide de git").terms == ("git",)
    assert parse("la fonction en fonction du cas").terms == ("fonction", "cas")
    assert parse("la forme de la réponse").terms == ("forme", "réponse")  # no phrase: searched
    assert parse("les tests en cas limite").terms == ("tests", "cas", "limite")  # no "de" after it: searched
    assert parse("in the form of a class").terms == ("form", "class")  # English: untouched
