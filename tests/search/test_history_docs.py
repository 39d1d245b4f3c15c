"""A changelog or release notes name every feature the project ever touched: a question about a
feature as it is now finds the page that explains it first (their excerpts weigh half), a question
about history keeps them whole; a fixture in a test folder is demoted like test code (branch
historydocs)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import search_project
from kenning.search.history import asks_history, is_history_path
from kenning.search.serve import SearchOptions
from kenning.search.weights import HISTORY_FACTOR, TEST_FACTOR

SESSIONS = (
    "# Sessions\n\nThe session engine keeps each visitor's data on the server. Set the engine to the "
    "database, the cache, signed cookies or files: the database is the default, the cache the fastest, "
    "and several other topics fill this page with words about middleware, expiry and serialization.\n"
)
CHANGELOG = "# Changelog\n\n## 1.4\n\n- Sessions stored in the cache engine.\n\n## 1.3\n\n- Sessions stored in files.\n"
RELEASE = "Release 1.2\n===========\n\nSessions stored in signed cookies.\n"


@pytest.fixture
def project(make_project):
    topics = {f"docs/topic{i}.md": f"# Topic {i}\n\nQueues, logs and caches, part {i}.\n" for i in range(8)}
    project = make_project(
        {
            "docs/sessions.md": SESSIONS,
            "CHANGELOG.md": CHANGELOG,
            "docs/releases/1.2.txt": RELEASE,
            "tests/fixtures/storage.txt": "stored\n",
            **topics,
        },
        name="history",
    )
    resync(project)
    return project


def test_a_question_about_a_feature_finds_its_page_before_the_changelog(project):
    answer = search_project(project, "choose where sessions are stored", SearchOptions(explain=True), now=NOW)
    paths = [_paths_of(e) for e in answer.excerpts]
    assert paths[0] == "docs/sessions.md", paths
    history = [e for e in answer.excerpts if _paths_of(e) in ("CHANGELOG.md", "docs/releases/1.2.txt")]
    assert {_paths_of(e) for e in history} == {"CHANGELOG.md", "docs/releases/1.2.txt"}
    assert all(e.explain["factors"].get("history") == HISTORY_FACTOR for e in history)
    page = next(e for e in answer.excerpts if _paths_of(e) == "docs/sessions.md")
    # the rule is what put the page first: the engine scored the changelog's entry higher
    assert max(e.score / e.explain["factor"] for e in history) > page.score


@pytest.mark.parametrize(
    "question",
    ["when were sessions stored in the cache added", "why were sessions stored in files", "what changed in sessions"],
)
def test_a_question_about_history_keeps_the_changelog_whole(project, question):
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    assert any(_paths_of(e) == "CHANGELOG.md" for e in answer.excerpts)
    assert all("history" not in e.explain["factors"] for e in answer.excerpts)


def test_why_in_the_present_asks_how_things_are_not_what_changed(project):
    """gin's "why doesn't the panic recovery middleware print a stack trace for broken pipe…": the
    code says why, and its commits, weighed whole, came first (docs/benchmarks.md, "whynow")."""
    answer = search_project(project, "why are sessions stored in files", SearchOptions(explain=True), now=NOW)
    history = [e for e in answer.excerpts if _paths_of(e) == "CHANGELOG.md"]
    assert history and all(e.explain["factors"].get("history") == HISTORY_FACTOR for e in history)


def test_a_fixture_in_a_test_folder_is_demoted_unless_the_question_speaks_of_tests(project):
    plain = search_project(project, "where is the data stored", SearchOptions(explain=True), now=NOW)
    fixture = next(e for e in plain.excerpts if _paths_of(e) == "tests/fixtures/storage.txt")
    assert fixture.fact.type != "code"
    assert fixture.explain["factors"].get("test_file") == TEST_FACTOR
    tests = search_project(project, "which test fixtures are stored", SearchOptions(explain=True), now=NOW)
    fixture = next(e for e in tests.excerpts if _paths_of(e) == "tests/fixtures/storage.txt")
    assert "test_file" not in fixture.explain["factors"]


def _paths_of(excerpt) -> str:
    return excerpt.fact.source.uri.split("#")[0].split(":")[0]


@pytest.mark.parametrize(
    ("path", "history"),
    [
        ("CHANGELOG.md", True),
        ("CHANGES.rst", True),
        ("HISTORY", True),
        ("NEWS.md", True),
        ("docs/changelog.rst", True),
        ("docs/releases/4.2.txt", True),
        ("docs/release-notes/index.md", True),
        ("README.md", False),
        ("docs/sessions.txt", False),
        ("src/changes.py", False),  # code is never a changelog
        ("src/releases/models.py", False),
    ],
)
def test_history_paths(path, history):
    assert is_history_path(path) is history


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("why was the proxies argument replaced by proxy", True),
        ("when was zstd decoding added", True),
        ("since when is HTTP/2 supported", True),
        ("what changed in 2.0", True),
        ("how did the ranking change", True),
        ("comment a changé le classement", True),
        ("what's new in 2.0", True),
        ("which options were removed", True),
        ("what was added in 2.0", True),
        ("zstd decoding added in 0.27", True),
        ("how are headers added to a request", False),
        ("is the app argument deprecated", True),
        ("pourquoi l'argument app a été déprécié", True),
        ("why did the default timeout change", True),
        ("why were redirects disabled", True),
        ("why are redirects no longer followed by default", True),  # a change said so
        ("pourquoi les redirections ne sont plus suivies par défaut", True),
        ("pourquoi le cache a-t-il été vidé", True),
        ("pourquoi les fichiers ont-ils été supprimés", True),
        ("pourquoi la clé a été renommée", True),
        ("why does flask use context locals", False),  # why, in the present: how things are
        ("why doesn't the recovery middleware print a stack trace for a broken pipe", False),
        ("why is the default line length 88", False),
        ("pourquoi flask utilise-t-il des variables locales au contexte", False),
        ("pourquoi black ne formate pas certaines cellules", False),  # "ne … pas": no change
        ("quand a été ajouté zstd", True),
        ("quelles options ont été ajoutées", True),
        ("choose where sessions are stored", False),
        ("hide authorization headers when logging", False),  # "when" inside: a condition
        ("when did the ranking change", True),
        ("when has the cache been removed", True),
        ("when does a plant need watering", False),  # "when" before the present: how the code behaves
        ("when are old .log and .ldb files deleted", False),
        ("when the target type is Object, which number type is produced", False),
        ("que faire quand la requête échoue", False),
        ("how to add a version option", False),
        ("change the default timeout", False),
        ("comment ajouter une option", False),
        ("release the connection pool", False),
        ("history of the session engine", True),
        ("show the git history of the router", True),
        ("what does the project's history say about sessions", True),
        ("where is the redirect history built", False),  # requests' ``Response.history``
        ("how is the undo history stored", False),
    ],
)
def test_questions_about_history(question, asks):
    assert asks_history(question) is asks
