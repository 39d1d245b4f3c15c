"""A project that keeps no release notes, only git tags (bubbletea, walked: "what changed in the
last release" answered commits saying "last render"): the release is the tag that names its number,
what changed in it the commits its tag reaches and the tag before it does not, newest first
(``answer.tagged_releases``); "since" is what HEAD reaches and that release's tag does not; a
pre-release's tag is none. Both engines."""

from __future__ import annotations

import os
import subprocess

import pytest

from conftest import GIT_ENV, NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server


def _git(root, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], env={**os.environ, **GIT_ENV}, check=True, capture_output=True)


def _commit(root, message: str, tag: str = "", annotated: bool = False) -> None:
    (root / "src" / "app.go").write_text(f"package app\n\n// {message}\nfunc Run() {{}}\n")
    _git(root, "add", "src")
    _git(root, "commit", "-q", "-m", message)
    if tag:
        _git(root, "tag", *(["-a", "-m", tag] if annotated else []), tag)


@pytest.fixture(params=["sqlite", ENGINE])
def tagged(request, make_project):
    project = make_project({"src/app.go": "package app\n"}, config=engine_config(request.param, "tags"))
    _git(project.root, "init", "-q", "-b", "main")
    _commit(project.root, "Start the app", "v1.0.0")
    _commit(project.root, "Add the renderer")
    _commit(project.root, "Fix the key map", "v1.1.0", annotated=True)
    _commit(project.root, "Try the new layout", "v1.2.0-rc.1")  # a pre-release: no release
    _commit(project.root, "Draw the last line once")
    resync(project)
    return project


def _messages(answer, count: int) -> list[str]:
    return [e.fact.title for e in answer.excerpts[:count]]


def test_the_last_release_is_its_tags_commits_since_the_tag_before(tagged):
    answer = ask_project(tagged, "what changed in the last release", now=NOW, limit=5)
    assert _messages(answer, 2) == ["Fix the key map", "Add the renderer"], (_messages(answer, 5), answer.notes)
    assert all(e.fact.type == "commit" and e.freshness.state.value == "current" for e in answer.excerpts[:2])
    assert any("the commits of v1.1.0's tag since v1.0.0's for v1.1.0 (newest release)" in n for n in answer.notes)


def test_a_release_named_and_the_releases_since_one(tagged):
    named = ask_project(tagged, "what's new in 1.0.0", now=NOW, limit=3)
    assert _messages(named, 1) == ["Start the app"], named.notes
    since = ask_project(tagged, "what changed since 1.1.0", now=NOW, limit=5)
    assert _messages(since, 2) == ["Draw the last line once", "Try the new layout"], since.notes


def test_a_number_no_tag_names_gets_the_search_alone(tagged):
    answer = ask_project(tagged, "what's new in 3.4", now=NOW, limit=5)
    assert not any("release notes first" in n for n in answer.notes)
