from __future__ import annotations

import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_conn, search_project
from kenning.errors import InvalidQuery, StoreUnreadable
from kenning.records import EmptyReason
from kenning.search.query import parse
from kenning.store.db import connect

CODE = '''"""Ranking helpers."""


def rrf_fuse(rankings, k=60):
    """Fuse rankings with reciprocal rank fusion."""
    return sorted(rankings)


class QueryPlanner:
    def planFor(self, text):
        return text
'''


@pytest.fixture
def project(make_project):
    project = make_project({"src/ranking.py": CODE, "docs/guide.md": "# Guide\n\n## Fusion\n\nWe fuse rankings.\n"})
    resync(project)
    return project


def _uris(project, query, **options):
    answer = search_project(project, query, SearchOptions(**options), now=NOW)
    return [e.fact.source.uri for e in answer.excerpts]


def test_a_function_is_found_by_its_name_by_a_part_of_it_and_by_a_substring(project):
    expected = "src/ranking.py:4-6"
    assert _uris(project, "rrf_fuse")[0] == expected
    assert expected in _uris(project, "fuse")
    assert _uris(project, "rrf_fu")[0] == expected


def test_a_camel_case_method_is_found_by_its_parts(project):
    assert _uris(project, "plan for")[0].startswith("src/ranking.py:")
    assert _uris(project, "planFor")[0].startswith("src/ranking.py:")


def test_invalid_fts_syntax_is_a_typed_error_not_an_empty_answer(project):
    with pytest.raises(InvalidQuery, match="invalid search syntax: the expression ends too early"):
        search_project(project, "foo AND (", SearchOptions(syntax="fts"), now=NOW)


def test_explicit_fts_syntax_supports_boolean_operators_phrases_and_prefixes(project):
    assert _uris(project, '"reciprocal rank" AND fuse*', syntax="fts")
    assert not _uris(project, "reciprocal NOT rankings", syntax="fts")


def test_a_search_without_an_index_says_index_missing(make_project):
    project = make_project({"README.md": "# Hello\n"})
    answer = search_project(project, "hello", SearchOptions(), now=NOW)
    assert answer.empty_reason is EmptyReason.INDEX_MISSING and not answer.excerpts


def test_no_match_is_distinguished_from_everything_filtered(project):
    assert search_project(project, "zebra", SearchOptions(), now=NOW).empty_reason is EmptyReason.NO_MATCH
    answer = search_project(project, "rankings", SearchOptions(types=("decision",)), now=NOW)
    assert answer.empty_reason is EmptyReason.ALL_FILTERED and answer.filtered["type"] > 0


def test_every_word_of_a_20000_character_markdown_document_is_findable(make_project):
    rng = random.Random(7)
    words = ["".join(rng.choices(string.ascii_lowercase, k=9)) for _ in range(2600)]
    paragraphs = [" ".join(words[i : i + 40]) for i in range(0, len(words), 40)]
    text = "# Long document\n\n" + "\n\n".join(paragraphs) + "\n"
    assert len(text) >= 20_000
    project = make_project({"long.md": text})
    resync(project)
    conn = connect(project.db_path)
    try:
        missing = [
            w for w in words if not search_conn(conn, project, parse(w), SearchOptions(limit=1), now=NOW).excerpts
        ]
    finally:
        conn.close()
    assert missing == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=80).filter(lambda t: t.strip()))
def test_any_natural_language_text_runs_without_a_syntax_error(project, text):
    answer = search_project(project, text, SearchOptions(limit=3), now=NOW)
    assert answer.empty_reason in (None, EmptyReason.NO_MATCH, EmptyReason.ALL_FILTERED)


@pytest.mark.parametrize("query", ["x" * 501, "é" * 513])
def test_queries_over_the_character_or_byte_budget_are_rejected(project, query):
    with pytest.raises(InvalidQuery, match="limit"):
        search_project(project, query, SearchOptions(), now=NOW)


def test_a_corrupt_index_is_a_store_unreadable_error_not_a_no_match(make_project):
    project = make_project({"README.md": "# Hello\n"})
    project.db_path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnreadable, match="cannot be read") as caught:
        search_project(project, "hello", SearchOptions(), now=NOW)
    assert "not a database" not in caught.value.message  # the engine's wording stays inside


def test_a_question_naming_a_function_leads_with_its_definition_not_its_mentions(make_project):
    tests = "\n".join(
        f"def test_rrf_fuse_case_{i}():\n    assert rrf_fuse([[1]]) == rrf_fuse([[1]])\n" for i in range(5)
    )
    project = make_project(
        {"src/ranking.py": CODE, "tests/test_ranking.py": "from ranking import rrf_fuse\n\n" + tests}
    )
    resync(project)
    assert _uris(project, "where is rrf_fuse defined and what calls it")[0] == "src/ranking.py:4-6"


def test_the_module_that_assigns_a_constant_is_its_definition_and_comes_first(make_project):
    project = make_project(
        {
            "app/settings.py": '"""Settings."""\n\nimport os\n\nDEFAULT_RETRIES = 3\nNAME: str = "app"\n',
            "app/client.py": (
                "from app.settings import DEFAULT_RETRIES\n\n\n"
                "def fetch(url, retries=DEFAULT_RETRIES):\n"
                '    """Fetch url, up to DEFAULT_RETRIES times (DEFAULT_RETRIES by default)."""\n'
                "    for _ in range(retries or DEFAULT_RETRIES):\n"
                "        pass\n"
            ),
        },
        name="constants",
    )
    resync(project)
    answer = search_project(project, "where is DEFAULT_RETRIES defined", SearchOptions(explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("app/settings.py"), [e.fact.title for e in answer.excerpts]
    assert answer.excerpts[0].explain["factors"] == {"definition": 3.0}


CONTEXT_FILES = {
    "Troubleshooting.md": "# Troubleshooting\n\n## ClassCastException when using deserialized object\n\n"
    "A list returned by fromJson holds maps, not your class, when the type was erased: use a TypeToken.\n",
    "src/Gson.java": "class Gson {\n"
    + "".join(
        f"  /** fromJson reads a list or an object from json. */\n  public Object fromJson(String json{i}) {{\n"
        f"    return read(json{i});\n  }}\n"
        for i in range(3)
    )
    + "}\n",
}


def test_a_code_name_said_among_many_words_is_context_and_gets_no_definition_boost(make_project):
    project = make_project(CONTEXT_FILES, name="context")
    resync(project)
    situation = "ClassCastException when I use the list returned by fromJson"
    answer = search_project(project, situation, SearchOptions(explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("Troubleshooting.md"), [e.fact.title for e in answer.excerpts]
    assert all("definition" not in e.explain["factors"] for e in answer.excerpts)
    # asked about the name itself, its definitions lead
    named = search_project(project, "where is fromJson defined", SearchOptions(explain=True), now=NOW)
    assert named.excerpts[0].fact.source.uri.startswith("src/Gson.java")
    assert named.excerpts[0].explain["factors"] == {"definition": 3.0}


# pages where no word of the questions below is, so that their words are rare as in a real project
TOPICS = {f"docs/topic{i}.md": f"# Topic {i}\n\nCaches, queues and logs, part {i} of the guide.\n" for i in range(8)}
WHY_FILES = {
    "docs/design.md": "# Design\n\n## Explicit over convenient\n\nAn explicit client never sends a request twice "
    "to a misconfigured URL, so it waits to be asked, which a new user may find surprising at first; the "
    "release notes list this change along with the others of that release, and the migration guide shows "
    "how to ask for the old behaviour on a client or on one request.\n\n"
    "Redirects are no longer followed by default: redirects are followed when asked.\n",
    "app/client.py": (
        "def get(url, follow_redirects=False, default_redirects=False, redirects_by_default=False):\n"
        '    """Get url; redirects followed by default when follow_redirects, default redirects by default."""\n'
        "    return url\n"
    ),
    **TOPICS,
}


def test_a_question_asking_why_and_naming_no_code_finds_the_rationale_before_the_code(make_project):
    project = make_project(WHY_FILES, name="why")
    resync(project)
    question = "redirects no longer followed by default"
    how = search_project(project, question, SearchOptions(), now=NOW)
    assert how.excerpts[0].fact.type == "code"  # the signatures repeat the question's words
    why = search_project(project, f"why are {question}", SearchOptions(explain=True), now=NOW)
    assert why.excerpts[0].fact.source.uri.startswith("docs/design.md")
    assert all(e.explain["factors"] == {"why_code": 0.5} for e in why.excerpts if e.fact.type == "code")
    fr = search_project(project, f"pourquoi {question}", SearchOptions(), now=NOW)
    assert fr.excerpts[0].fact.source.uri.startswith("docs/design.md")
    # a why question that names code leaves code its weight
    named = search_project(project, "why is follow_redirects off by default", SearchOptions(explain=True), now=NOW)
    assert all("why_code" not in e.explain["factors"] for e in named.excerpts)


TASK_FILES = {
    "docs/guide.md": "# Guide\n\n## Common options\n\nSearch case insensitive with -i, or let smart case "
    "search case insensitive unless the pattern has an uppercase letter. The options of the search are "
    "listed with --help, and a config file sets them for every search run.\n",
    "src/matcher.py": (
        "def case_insensitive(pattern, yes=True):\n"
        '    """Case insensitive search of the pattern: search the pattern case insensitive, yes."""\n'
        "    return pattern\n"
    ),
    **TOPICS,
}


def test_a_task_asked_in_words_finds_the_docs_before_the_code_that_repeats_its_words(make_project):
    project = make_project(TASK_FILES, name="task")
    resync(project)
    task = "case insensitive search unless the pattern has capital letters"
    found = search_project(project, task, SearchOptions(explain=True), now=NOW)
    assert found.excerpts[0].fact.source.uri.startswith("docs/guide.md")
    assert all(e.explain["factors"] == {"task_code": 0.7} for e in found.excerpts if e.fact.type == "code")
    french = search_project(project, "chercher sans tenir compte de la casse", SearchOptions(explain=True), now=NOW)
    assert all("task_code" in e.explain["factors"] for e in french.excerpts if e.fact.type == "code")
    # a question (how, where, is …), a description (in, my, the …), a code name typed, a lookup of two
    # words or a question asking for tests leaves code its weight
    for question in (
        "how is a case insensitive search run",
        "the case insensitive search",
        "case_insensitive search",
        "case insensitive",
        "case insensitive search tests",
    ):
        asked = search_project(project, question, SearchOptions(explain=True), now=NOW)
        assert asked.excerpts and all("task_code" not in e.explain["factors"] for e in asked.excerpts), question


def test_the_postgresql_parser_reads_fts5_barewords_as_fts5_does():
    """FTS5's bareword characters (fts5_expr.c): A-Z a-z 0-9 _, 0x1A and every non-ASCII one;
    the level-2 parser spells their complement as the ASCII it leaves (compiled in microseconds)."""
    from kenning.store.postgres.fts_syntax import _NOT_BARE

    def bare(c: str) -> bool:
        return c.isascii() and (c.isalnum() or c in "_\x1a") or not c.isascii()

    for code in (*range(0x200), 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF):
        assert (_NOT_BARE.search(chr(code)) is None) == bare(chr(code)), hex(code)
