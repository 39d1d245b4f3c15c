"""A question asking how something works ("how does the router work", "comment fonctionne le
routeur"), how to do something ("how do I …", "how to …") or where something is ("where is …")
wants the docs and the code: commit messages, which say what changed, weigh half, so a project
with a long history does not answer it with its log (branches clickwalk, walk4)."""

from __future__ import annotations

import pytest

from conftest import NOW, commit_all, resync
from kenning.answer.search import search_project
from kenning.search.ranker import EXPLAIN_COMMIT_FACTOR, explanation
from kenning.search.serve import SearchOptions

DOC = (
    "# Router\n\nHow the router works. The router reads each question and picks the mode that answers it: "
    "an ordered table of rules, the first rule that matches decides, and a question with no cue goes to "
    "the default rule (lexical search, or hybrid search when dense retrieval is installed).\n"
)
COMMITS = (
    "router: the graph for who calls",
    "router works on folded text",
    "router: names the rule that matched",
)


@pytest.fixture
def project(make_project):
    topics = {f"docs/topic{i}.md": f"# Topic {i}\n\nCaches, queues and logs, part {i}.\n" for i in range(8)}
    project = make_project({"docs/router.md": DOC, **topics}, name="routing")
    commit_all(project.root, "Initial import")
    for i, message in enumerate(COMMITS):
        (project.root / f"notes{i}.txt").write_text(f"release note {i}\n")
        commit_all(project.root, message)
    resync(project)
    return project


def test_a_question_asking_how_something_works_finds_the_explanation_before_the_commit_log(project):
    plain = search_project(project, "router works", SearchOptions(), now=NOW)
    assert plain.excerpts[0].fact.type == "commit"  # the messages repeat the words most
    how = search_project(project, "how does the router work", SearchOptions(explain=True), now=NOW)
    assert how.excerpts[0].fact.source.uri.startswith("docs/router.md"), [e.fact.title for e in how.excerpts]
    commits = [e for e in how.excerpts if e.fact.type == "commit"]
    assert commits and all(e.explain["factors"] == {"how_commit": EXPLAIN_COMMIT_FACTOR} for e in commits)
    fr = search_project(project, "comment fonctionne le router", SearchOptions(), now=NOW)
    assert fr.excerpts[0].fact.source.uri.startswith("docs/router.md")


@pytest.mark.parametrize(
    "question", ["how do I make the router pick the rule that matched", "where is the router rule that matched"]
)
def test_recipe_and_where_questions_find_the_doc_before_the_commit_log(project, question):
    plain = search_project(project, "router rule that matched", SearchOptions(), now=NOW)
    assert plain.excerpts[0].fact.type == "commit"  # "router: names the rule that matched"
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("docs/router.md"), [e.fact.title for e in answer.excerpts]
    commits = [e for e in answer.excerpts if e.fact.type == "commit"]
    assert commits and all(e.explain["factors"] == {"how_commit": EXPLAIN_COMMIT_FACTOR} for e in commits)


def test_history_questions_keep_the_commits_weight(project):
    for question in ("how did the router change", "when did the router change", "router works"):
        answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
        assert all("how_commit" not in e.explain["factors"] for e in answer.excerpts), question


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("how are answers ranked", True),
        ("how does the router work", True),
        ("how do signals work", True),
        ("explain the query budget", True),
        ("comment fonctionne la complétion", True),
        ("comment sont classées les réponses", True),
        ("how do I enable completion", True),
        ("how to load subcommands lazily", True),
        ("how can I show the download progress", True),
        ("where is the retry logic for connections", True),
        ("where's the retry logic", True),
        ("où est gérée l'authentification digest", True),
        ("comment utiliser un proxy", True),
        ("comment définir un délai", True),
        ("how did the ranking change", False),
        ("when was zstd decoding added", False),
        ("comment a changé le classement", False),
        ("why was the app argument deprecated", False),
        ("what is the default timeout", False),
    ],
)
def test_questions_about_the_tree_are_told_from_history(question, asks):
    assert explanation(question) is asks
