"""Commit messages say what changed, in the words of the docs and code that answer a question about
the project as it is: for a question that does not ask about history they weigh half, like a
changelog's entries (``search.history``), so a project with a long history does not answer it
with its log (branches clickwalk, walk4, historydocs); a question about history keeps them whole."""

from __future__ import annotations

import pytest

from conftest import NOW, commit_all, resync
from kenning.answer.ask import ask_project
from kenning.answer.search import search_project
from kenning.search.serve import SearchOptions
from kenning.search.weights import FILE_REPEAT_FACTOR, HISTORY_FACTOR, PER_FILE

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


def with_history(make_project, files: dict[str, str], name: str, messages: tuple[str, ...]):
    """A project of ``files``, committed, then one commit per message (each adding a note), synced."""
    project = make_project(files, name=name)
    commit_all(project.root, "Initial import")
    for i, message in enumerate(messages):
        (project.root / f"notes{i}.txt").write_text(f"release note {i}\n")
        commit_all(project.root, message)
    resync(project)
    return project


@pytest.fixture
def project(make_project):
    topics = {f"docs/topic{i}.md": f"# Topic {i}\n\nCaches, queues and logs, part {i}.\n" for i in range(8)}
    return with_history(make_project, {"docs/router.md": DOC, **topics}, "routing", COMMITS)


def _commits_weigh_half(answer) -> bool:
    commits = [e for e in answer.excerpts if e.fact.type == "commit"]
    return bool(commits) and all(e.explain["factors"] == {"history": HISTORY_FACTOR} for e in commits)


def test_a_question_asking_how_something_works_finds_the_explanation_before_the_commit_log(project):
    plain = search_project(project, "router works", SearchOptions(syntax="fts"), now=NOW)
    assert plain.excerpts[0].fact.type == "commit"  # the messages repeat the words most
    for question in ("how does the router work", "router works", "comment fonctionne le router"):
        answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
        assert answer.excerpts[0].fact.source.uri.startswith("docs/router.md"), [e.fact.title for e in answer.excerpts]
        assert _commits_weigh_half(answer), question


@pytest.mark.parametrize(
    "question",
    [
        "how do I make the router pick the rule that matched",
        "where is the router rule that matched",
        "router rule that matched",
    ],
)
def test_recipe_where_and_keyword_questions_find_the_doc_before_the_commit_log(project, question):
    plain = search_project(project, "router rule that matched", SearchOptions(syntax="fts"), now=NOW)
    assert plain.excerpts[0].fact.type == "commit"  # "router: names the rule that matched"
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("docs/router.md"), [e.fact.title for e in answer.excerpts]
    assert _commits_weigh_half(answer)


@pytest.mark.parametrize(
    "question",
    ["how did the router change", "when did the router change", "why did the router start naming the matched rule"],
)
def test_history_questions_keep_the_commits_weight(project, question):
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    assert any(e.fact.type == "commit" for e in answer.excerpts)
    assert all("history" not in e.explain["factors"] for e in answer.excerpts), question


def test_why_in_the_present_asks_how_it_works_not_what_changed(project):
    question = "why does the router name the rule that matched"
    assert _commits_weigh_half(search_project(project, question, SearchOptions(explain=True), now=NOW))


def test_fts_syntax_means_what_it_says(project):
    answer = search_project(project, "router works", SearchOptions(syntax="fts", explain=True), now=NOW)
    assert all("history" not in e.explain["factors"] for e in answer.excerpts)


REDIRECT_COMMITS = (
    "HEADs don't follow redirects by default",
    "Dispatch hooks before following redirects",
    "Use session cookies when following redirects",
    "Pass along timeout when following redirects",
    "Stop following redirects after thirty",
)
SESSIONS = '''"""Sessions."""


class Session:
    def resolve_redirects(self, response):
        """Receives a response and yields the requests its Location header leads to, one hop
        after another, until the server stops sending a redirect status."""
        while response.is_redirect:
            response = self.send(response.next)
            yield response
'''


@pytest.fixture
def redirects(make_project):
    """A long history whose messages repeat the question's words (psf/requests, walked)."""
    files = {"src/sessions.py": SESSIONS, "README.md": "# Client\n\nAn HTTP client.\n"}
    return with_history(make_project, files, "hops", REDIRECT_COMMITS)


def test_an_answer_keeps_two_commits_whole_then_weighs_the_log_as_one_file(redirects):
    """``ask``: past ``PER_FILE`` commits, each further one weighs ``FILE_REPEAT_FACTOR`` times the one
    before, as one file's excerpts do: the code that follows redirects is no longer under the log."""
    plain = search_project(redirects, "redirects following", SearchOptions(explain=True), now=NOW)
    assert [e.fact.type for e in plain.excerpts[:5]] == ["commit"] * 5  # search: the engine's order
    answer = ask_project(redirects, "where are redirects followed", now=NOW, limit=6, explain=True)
    kinds = [e.fact.type for e in answer.excerpts]
    assert kinds[:PER_FILE] == ["commit"] * PER_FILE and kinds[PER_FILE] == "code", kinds
    assert answer.excerpts[PER_FILE].fact.title.startswith("def Session.resolve_redirects")
    later = [e.explain["factors"].get("file_repeat") for e in answer.excerpts if e.fact.type == "commit"]
    assert later[:PER_FILE] == [None] * PER_FILE
    assert later[PER_FILE:] == [FILE_REPEAT_FACTOR ** (n + 1) for n in range(len(later) - PER_FILE)] != []


def test_a_question_about_history_keeps_its_commits_whole(redirects):
    answer = ask_project(redirects, "when did redirects handling change", now=NOW, limit=6, explain=True)
    commits = [e for e in answer.excerpts if e.fact.type == "commit"]
    assert len(commits) > PER_FILE
    assert all("file_repeat" not in e.explain["factors"] for e in commits)
