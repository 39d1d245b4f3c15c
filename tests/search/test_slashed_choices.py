"""Words joined by slashes that no indexed path holds (``bash/zsh``, ``small/medium/large``) are a
choice between words (``search.lexical.loose_names``): no path route, each word searched, not the
phrase ``bash zsh``. fzf's "the ** trigger for fuzzy completion in bash/zsh" missed its section
"Customizing fuzzy completion for bash and zsh" (docs/benchmarks.md "choices"). A path the project
holds (``docs/api``) stays a path; quoted text stays as typed. Both engines."""

from __future__ import annotations

import re

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.search.lexical import loose_names, with_loose_names
from kenning.search.query import parse, slashed_words, split_choices
from kenning.store import fts_topk, lookups
from kenning.store.db import open_for_reading
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# The section that answers says "bash and zsh"; the one on fish says the question's other words more
# often, and another page writes the phrase "bash zsh" in a list of words.
FILES = {
    "README.md": (
        "# Shell integration\n\n## Customizing fuzzy completion for bash and zsh\n\nThe trigger sequence that "
        "starts fuzzy completion is `**` by default. Set FZF_COMPLETION_TRIGGER to change the trigger.\n\n"
        "## Fuzzy completion in fish\n\nIn fish, fuzzy completion has its own trigger: the trigger is the TAB key, "
        "and fuzzy completion starts when the trigger is pressed twice; change the trigger in the fish config.\n\n"
        "## Key bindings\n\nCTRL-T pastes the selected files onto the command line.\n"
    ),
    "docs/shells.md": "# Shells\n\nSupported: bash zsh fish. Each shell has its own install script for key bindings.\n",
    "docs/api/index.md": "# API\n\nThe HTTP API lists the endpoints of the server.\n",
    "src/completion.sh": "# completion for the shell\ncomplete_files() {\n  ls\n}\n",
    "src/a_b.txt": "underscore file\n",
    "packages/kit/src/mini/index.ts": "export const mini = 1;\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "slashed")


def _with_loose(project, question: str):
    conn, _ = open_for_reading(project)
    try:
        return with_loose_names(conn, parse(question))
    finally:
        conn.close()


def _files(answer) -> list[str]:
    return [re.sub(r"[#:].*", "", e.fact.source.uri) for e in answer.excerpts]


def test_words_joined_by_slashes_are_a_choice_between_them(project):
    question = "how do I change the ** trigger for fuzzy completion in bash/zsh to something else?"
    parsed = _with_loose(project, question)
    assert parsed.loose_names == {"bash/zsh"}
    assert '"completion" OR "bash" OR "zsh" OR' in parsed.fts and '"bash/zsh"' not in parsed.fts
    # a list of terms, as the exact top-k and the lists kept in memory rank it (a group in parentheses
    # sent SciFact's four slashed claims to FTS5's full ranking: docs/benchmarks.md "whynow")
    assert fts_topk.phrases_of(parsed.fts) is not None
    answer = ask_project(project, question, now=NOW)
    assert answer.rule == "default"
    assert answer.excerpts[0].fact.source.uri == "README.md#customizing-fuzzy-completion-for-bash-and-zsh"
    # not vacuous: the phrase alone finds the list of shells, never the section
    phrase = ask_project(project, '"bash zsh" trigger', now=NOW)
    assert _files(phrase) == ["docs/shells.md"]


def test_a_path_the_project_holds_stays_a_path(project):
    question = "what does docs/api say about the endpoints"
    parsed = _with_loose(project, question)
    assert parsed.loose_names == frozenset() and '"docs/api"' in parsed.fts
    assert ask_project(project, question, now=NOW).rule == "identifier"


def test_words_that_each_name_a_folder_are_a_path(project):
    """``kit/mini``: a package's subpath (zod's ``zod/mini``), its package and entry point folders of the project."""
    question = "how small is the bundle of kit/mini"
    parsed = _with_loose(project, question)
    assert parsed.loose_names == frozenset() and '"kit/mini"' in parsed.fts
    assert _with_loose(project, "how small is the bundle of kit/maxi").loose_names == {"kit/maxi"}


def test_the_path_look_up_matches_the_text_only(project):
    conn, _ = open_for_reading(project)
    try:
        assert lookups.path_holds(conn, "docs/api")
        assert lookups.path_holds(conn, "DOCS/API")  # ASCII case aside, as paths are typed
        assert lookups.path_holds(conn, "a_b")
        assert not lookups.path_holds(conn, "a%b") and not lookups.path_holds(conn, "docs_api")  # no wildcards
        assert not lookups.path_holds(conn, "bash/zsh")
        assert loose_names(conn, parse('the "bash/zsh" line')) == frozenset()  # quoted: as typed
    finally:
        conn.close()


def test_which_words_are_slashed_words():
    assert slashed_words(parse("allowed values like small/medium/large?")) == ("small/medium/large",)
    assert slashed_words(parse("GET/POST requests in bash/zsh")) == ("GET/POST", "bash/zsh")
    for question in ("read src/app.py", "/api/users", "the v1/v2 change", "`bash/zsh` here", "docs/", "docs/api/"):
        assert slashed_words(parse(question)) == (), question
    assert slashed_words(parse("bash/zsh", syntax="fts")) == ()
    assert split_choices('"trigger" OR "bash/zsh"', ["bash/zsh"]) == '"trigger" OR "bash" OR "zsh"'
    assert split_choices(None, ["bash/zsh"]) is None
