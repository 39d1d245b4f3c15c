"""A French word an English project quotes in a few places (a glossary page, a translated line) is
still searched as its English gloss when the project writes the gloss far more often
(search/translate.py, ``FRENCH_FEW`` and ``GLOSS_DOMINATES``): a French question then finds what
the English question finds, not the page that quotes the French word."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search import translate
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

PAGES = translate.GLOSS_DOMINATES + 1  # pages that write "freshness": more than the rule asks for one quote
QUOTING = {
    "docs/freshness.md": "# Freshness\n\nThe freshness of an excerpt is computed when it is read, from its source.\n",
    **{
        f"docs/topic{n}.md": f"# Topic {n}\n\nEach answer of topic {n} shows the freshness of its excerpts.\n"
        for n in range(PAGES - 1)
    },
    "docs/fingerprints.md": "# Fingerprints\n\nA source's fingerprint is its SHA-256, checked at read.\n",
    "docs/glossaire.md": "# Glossaire\n\nLa fraîcheur d'un extrait. L'empreinte d'une source.\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def quoting(request, make_project):
    """An English project with one French glossary page, on SQLite and served by PostgreSQL."""
    project = make_project(QUOTING, name="quoting", config=engine_config(request.param, "quoting"))
    resync(project)
    return project


def _uris(answer) -> list[str]:
    return [e.fact.source.uri.split("#")[0] for e in answer.excerpts]


def test_a_french_word_quoted_once_is_searched_as_the_gloss_the_project_writes(quoting):
    english = search_project(quoting, "how is freshness computed", SearchOptions(limit=3), now=NOW)
    french = search_project(quoting, "comment la fraîcheur est-elle calculée", SearchOptions(limit=3), now=NOW)
    assert "translated: 'fraîcheur' searched as 'freshness'" in french.notes, french.notes
    assert _uris(french)[0] == _uris(english)[0] == "docs/freshness.md", (_uris(french), _uris(english))
    assert "docs/glossaire.md" not in _uris(french)
    # typed without accents, the same
    plain = search_project(quoting, "comment la fraicheur est elle calculee", SearchOptions(limit=3), now=NOW)
    assert _uris(plain)[0] == "docs/freshness.md" and "translated: 'fraicheur' searched as 'freshness'" in plain.notes


def test_a_french_word_the_project_writes_about_as_often_as_its_gloss_is_searched_as_typed(quoting):
    # "empreinte": one page, "fingerprint": one page; not the gloss's project more than the word's
    answer = search_project(quoting, "où est l'empreinte d'une source", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if "empreinte" in n], answer.notes
    assert _uris(answer)[0] == "docs/glossaire.md", _uris(answer)


def test_an_english_question_never_reads_a_held_word_as_french(quoting):
    # "extrait" is held (the glossary page) and "excerpt" everywhere, but the question is English
    answer = search_project(quoting, "extrait excerpt", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if n.startswith("translated")], answer.notes


def test_a_word_held_in_many_excerpts_is_the_projects_own(make_project):
    # a project that writes the French word on many pages keeps it, even where it writes the
    # English word on far more
    french = translate.FRENCH_FEW + 1
    pages = {f"docs/fr{n}.md": f"# Page {n}\n\nLa fraîcheur de la page {n}.\n" for n in range(french)}
    english = french * translate.GLOSS_DOMINATES
    pages |= {f"docs/en{n}.md": f"# Page {n}\n\nThe freshness of page {n}.\n" for n in range(english)}
    project = make_project(pages, name="bilingual")
    resync(project)
    answer = search_project(project, "comment la fraîcheur est-elle calculée", SearchOptions(limit=3), now=NOW)
    assert not [n for n in answer.notes if "fraîcheur" in n], answer.notes
    assert _uris(answer)[0].startswith("docs/fr"), _uris(answer)
