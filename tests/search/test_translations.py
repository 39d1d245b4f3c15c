"""Documents translated into other languages, each in its language's folder (FastAPI's
``docs/en/docs/…`` beside ``docs/zh/docs/…`` and ten more): a question answers first from the
question's language and English, each other language's excerpt weighing ``TRANSLATION_FACTOR``
(``search.translations``, ``search.ranker``): FastAPI's "how do I test my app" served its English
page, then four translations of it. Both engines, ``search`` and ``ask``."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_project
from kenning.search.translations import language_of
from kenning.search.weights import TRANSLATION_FACTOR
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

CODE = "```python\nfrom fastapi.testclient import TestClient\n\nclient = TestClient(app)\nclient.get('/')\n```\n"
# A translation keeps the original's code and anchors, and says less: on BM25 alone it outranks it.
PAGES = {
    "en": "# Testing { #testing }\n\nUse the `TestClient` to test your app: create a client for your app, "
    "then call it as a browser would, and check the response.\n\n" + CODE,
    "fr": "# Tester { #testing }\n\nUtilisez `TestClient` pour tester votre application.\n\n" + CODE,
    "ja": "# テスト { #testing }\n\n`TestClient` を使います。\n\n" + CODE,
    "zh-hant": "# 測試 { #testing }\n\n使用 `TestClient`。\n\n" + CODE,
}
FILES = {
    **{f"docs/{language}/docs/tutorial/testing.md": page for language, page in PAGES.items()},
    "docs/en/docs/tutorial/cors.md": "# CORS\n\nAllow other origins to call your app with the CORS middleware.\n",
    "fastapi/testclient.py": '"""The test client."""\n\nfrom starlette.testclient import TestClient as TestClient\n',
}


@pytest.fixture(params=["sqlite", ENGINE])
def translated(request, make_project):
    return synced_on(request.param, make_project, FILES, "i18n")


def _languages(answer) -> list[str | None]:
    return [language_of(e.fact.source.uri.split("#")[0]) for e in answer.excerpts if e.fact.type == "doc"]


def test_an_english_question_answers_from_the_english_page_first(translated):
    answer = search_project(translated, "test client for your app", SearchOptions(limit=10, explain=True), now=NOW)
    languages = _languages(answer)
    assert languages[0] == "en", languages
    weighed = {language_of(e.fact.source.uri.split("#")[0]): e.explain["factors"] for e in answer.excerpts}
    assert weighed["fr"]["translation"] == weighed["ja"]["translation"] == TRANSLATION_FACTOR
    assert weighed["zh"]["translation"] == TRANSLATION_FACTOR
    assert "translation" not in weighed["en"]
    assert "translation" not in weighed[None]  # the code: in no language's folder
    # not vacuous: on BM25 alone a translation (shorter, the same code) came before the English page
    base = {language_of(e.fact.source.uri.split("#")[0]): e.explain["bm25_rank"] for e in answer.excerpts}
    assert min(base["fr"], base["ja"], base["zh"]) < base["en"], base
    asked = ask_project(translated, "how do I test my app with a test client", now=NOW)
    assert _languages(asked)[0] == "en"


def test_a_french_question_answers_from_the_french_page_and_keeps_english_whole(translated):
    answer = search_project(translated, "tester votre application TestClient", SearchOptions(explain=True), now=NOW)
    factors = {language_of(e.fact.source.uri.split("#")[0]): e.explain["factors"] for e in answer.excerpts}
    assert _languages(answer)[0] == "fr"
    assert "translation" not in factors["fr"] and "translation" not in factors["en"]
    assert factors["ja"]["translation"] == TRANSLATION_FACTOR


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("docs/en/docs/tutorial/testing.md", "en"),
        ("docs/zh-hant/docs/index.md", "zh"),
        ("website/i18n/pt_BR/docusaurus-plugin-content-docs/current/intro.md", "pt"),
        ("i18n/fr/intro.md", "fr"),
        ("content/de/posts/hello.md", "de"),
        ("docs/api/index.md", None),
        ("docs/ml/intro.md", None),  # machine learning, not a language anyone translates docs into here
        ("docs/os/linux.md", None),
        ("src/de/parser.py", None),  # a package named de: not under a docs or translations folder
        ("README.md", None),
        ("docs/index.md", None),
    ],
)
def test_a_language_folder_is_a_language_code_under_a_docs_or_translations_folder(path, language):
    assert language_of(path) == language


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("README_ZH.md", "zh"),
        ("README-zh_CN.adoc", "zh"),
        ("README.ja.md", "ja"),
        ("README_JP.md", "ja"),  # Japan's country code, as projects write it
        ("README-KR.md", "ko"),
        ("docs/index.fr.md", "fr"),  # mkdocs-static-i18n's suffix
        ("docs/try-it.md", None),  # no ``try.md`` beside it: no Italian page
        ("docs/setup-es.md", None),
        ("README_EN.md", "en"),
        ("README.md", None),
        ("notes_xx.md", None),  # no language's code
    ],
)
def test_a_file_named_as_its_twin_beside_it_with_a_language_code_is_a_translation(path, language):
    beside = {"": ["README.md", "README.adoc", "README_ZH.md", "notes.md"], "docs": ["index.md", "try-it.md"]}

    def files(parent: str) -> list[str]:
        return beside.get(parent, [])

    assert language_of(path, files) == language
    assert language_of(path) is None  # the file name alone is read only beside its twin


# zod keeps its version 3 readme in Chinese and Korean beside the English one (docs/benchmarks.md
# "zodgin"); the translations keep the code, say less, and outranked the English readme on BM25 alone.
README = (
    "# Zod\n\n## Coercion\n\nTo coerce input strings to numbers, use z.coerce.number(): it calls Number() "
    'on the input, so "42" becomes 42.\n'
)
NAMED = {
    "README.md": README,
    "README_ZH.md": "# Zod\n\n## 强制转换\n\n使用 z.coerce.number()：Number() coerce。\n",
    "README_KO.md": "# Zod\n\n## 강제 변환\n\nz.coerce.number() 사용: Number() coerce.\n",
    "src/coerce.ts": "export function number(input: unknown): number {\n  return Number(input);\n}\n",
    # code named so is no translation: an ECMAScript build beside its source
    "src/coerce.es.ts": "export function number(input) {\n  return Number(input);\n}\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def named_translations(request, make_project):
    return synced_on(request.param, make_project, NAMED, "named_i18n")


def test_readmes_translated_beside_the_original_weigh_as_translations(named_translations):
    answer = search_project(named_translations, "coerce number", SearchOptions(limit=10, explain=True), now=NOW)
    factors = {e.fact.source.uri.split("#")[0]: e.explain["factors"] for e in answer.excerpts}
    docs = [e.fact.source.uri.split("#")[0] for e in answer.excerpts if e.fact.type == "doc"]
    assert docs[0] == "README.md", docs
    assert factors["README_ZH.md"]["translation"] == factors["README_KO.md"]["translation"] == TRANSLATION_FACTOR
    assert "translation" not in factors["README.md"] and "translation" not in factors["src/coerce.ts:1-3"]
    assert "translation" not in factors["src/coerce.es.ts:1-3"]
    # not vacuous: on BM25 alone a translation came first
    ranks = {e.fact.source.uri.split("#")[0]: e.explain["bm25_rank"] for e in answer.excerpts}
    assert min(ranks["README_ZH.md"], ranks["README_KO.md"]) < ranks["README.md"], ranks
