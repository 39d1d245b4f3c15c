"""A question about what changed in a release is answered by that release's notes first
(``answer/releases.py``): a changelog's sections for the release named, or for the newest; a
folder of release notes by its files' names. "What changed" in a release is not the freshness
report of the index, and the notes' words are not the question's ("last", "release")."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.search.history import Release, release_asked
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

CHANGELOG = """# ChangeLog

## [Unreleased]

- Work in progress on the router.

## [1.13.0-beta.1] - 2026-04-01

- A pre-release: no part of a release's notes.

## [1.12.0] - 2026-03-01

### Features

- Add a BSON renderer.

### Bug fixes

- Stop a panic in the recovery middleware.

## [1.10.1] - 2025-06-01

### Fixes

- Escape the redirect location.

## [1.10.0] - 2025-05-01

### Features

- Trust the X-Forwarded-For header of a unix socket.

## [1.9.1] - 2024-12-01

- Security fix for the file server.
"""

CODE = """package gin

// Last returns the last handler of the chain: the release of the handler is the caller's.
func (c HandlersChain) Last() HandlerFunc {
	return c[len(c)-1]
}
"""


def titles(answer) -> list[str]:
    return [e.fact.title for e in answer.excerpts]


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, {"CHANGELOG.md": CHANGELOG, "gin.go": CODE}, "releases")


def test_the_newest_release_notes_come_first(project) -> None:
    answer = ask_project(project, "what changed in the last release", now=NOW, limit=5, explain=True)
    assert answer.rule == "default" and answer.mode != "freshness"
    assert titles(answer)[:3] == [
        "ChangeLog > [1.12.0] - 2026-03-01",
        "ChangeLog > [1.12.0] - 2026-03-01 > Features",
        "ChangeLog > [1.12.0] - 2026-03-01 > Bug fixes",
    ], titles(answer)
    assert titles(answer)[3:5] == ["ChangeLog > [1.10.1] - 2025-06-01", "ChangeLog > [1.10.1] - 2025-06-01 > Fixes"]
    assert answer.excerpts[0].explain == {"release_notes": "v1.12.0"}
    assert any("release notes first: CHANGELOG.md for v1.12.0 (newest release)" in n for n in answer.notes)
    assert not any("1.13.0" in t for t in titles(answer)[:4])  # a pre-release is none
    french = ask_project(project, "qu'est-ce qui a changé dans la dernière version", now=NOW, limit=3)
    assert titles(french)[0] == "ChangeLog > [1.12.0] - 2026-03-01"


def test_a_release_named_by_its_number(project) -> None:
    line = ask_project(project, "what's new in 1.10", now=NOW, limit=4)
    assert titles(line) == [  # 1.10.0's notes, then its fix's
        "ChangeLog > [1.10.0] - 2025-05-01",
        "ChangeLog > [1.10.0] - 2025-05-01 > Features",
        "ChangeLog > [1.10.1] - 2025-06-01",
        "ChangeLog > [1.10.1] - 2025-06-01 > Fixes",
    ]
    exact = ask_project(project, "release notes of v1.10.1", now=NOW, limit=4)
    assert titles(exact)[:2] == ["ChangeLog > [1.10.1] - 2025-06-01", "ChangeLog > [1.10.1] - 2025-06-01 > Fixes"]
    since = ask_project(project, "what changed since 1.10", now=NOW, limit=2)  # each later release's head
    assert titles(since) == ["ChangeLog > [1.12.0] - 2026-03-01", "ChangeLog > [1.10.1] - 2025-06-01"]
    assert any("the releases after v1.10, the newest first" in n for n in since.notes)
    none = ask_project(project, "what changed in 3.0", now=NOW, limit=4)  # no such release: the words alone
    assert not any("release notes first" in n for n in none.notes)


def test_a_folder_of_release_notes_by_file_name(make_project) -> None:
    notes = {
        f"docs/releases/{v}.txt": f"{'=' * 20}\nDjango {v} release notes\n{'=' * 20}\n\nWhat's new in {v}: item {v}.\n"
        for v in ("4.2", "5.0", "5.0.1", "5.0.6")
    }
    project = make_project({**notes, "docs/index.txt": "Index\n=====\n\nThe documentation.\n"})
    resync(project)
    newest = ask_project(project, "what changed in the latest release", now=NOW, limit=3)
    assert [e.fact.locations[0].path for e in newest.excerpts] == [
        "docs/releases/5.0.6.txt",
        "docs/releases/5.0.1.txt",
        "docs/releases/5.0.txt",
    ], titles(newest)
    named = ask_project(project, "what's new in 5.0", now=NOW, limit=3)
    assert named.excerpts[0].fact.locations[0].path == "docs/releases/5.0.txt", titles(named)


def test_freshness_and_other_questions_are_left_alone(make_project) -> None:
    project = make_project({"CHANGELOG.md": CHANGELOG, "gin.go": CODE})
    resync(project)
    assert ask_project(project, "what changed since the last sync", now=NOW).mode == "freshness"
    asked = ask_project(project, "how do I release a new version", now=NOW, limit=3)
    assert not any("release notes first" in n for n in asked.notes)
    bare = make_project({"gin.go": CODE}, name="bare")  # no release notes: the search's answer alone
    resync(bare)
    alone = ask_project(bare, "what changed in the last release", now=NOW, limit=3)
    assert alone.mode != "freshness" and not any("release notes first" in n for n in alone.notes)
    assert titles(alone) == ["func (c HandlersChain) Last() HandlerFunc {"]


def test_which_questions_ask_about_a_release() -> None:
    assert release_asked("what changed in the last release") == Release(None)
    assert release_asked("what are the changes in the latest version") == Release(None)
    assert release_asked("what's new in 1.10") == Release((1, 10))
    assert release_asked("nouveautés de la version 5.0") == Release((5, 0))
    assert release_asked("what was added in v2.0.1") == Release((2, 0, 1))
    assert release_asked("what changed since 1.2") == Release((1, 2), since=True)
    assert release_asked("qu'est-ce qui a changé depuis la 1.2") == Release((1, 2), since=True)
    # the meta sets' ("what new features came in gin v1.12.0", "did gson 2.10 add support for records?")
    assert release_asked("what new features came in gin v1.12.0, is there bson rendering?") == Release((1, 12, 0))
    assert release_asked("did gson 2.10 add support for serializing java records?") == Release((2, 10))
    assert release_asked("did I add the middleware in the right order?") is None  # no release named
    after = Release((1, 2), since=True)
    assert after.matches((1, 2, 1)) and after.matches((1, 3)) and not after.matches((1, 2, 0))
    assert not after.matches((1, 1, 9))
    for question in (
        "how do I release a new version",
        "how do I change the current version",
        "does it support python 3.11",
        "what changed since the last sync",
        "what changed recently",
    ):
        assert release_asked(question) is None, question


def _changelog(*releases: str) -> str:
    return "# Changelog\n\n# Unreleased\n\n- Work in progress.\n\n" + "".join(
        f"# {number}\n\n- Changes of {number}.\n\n" for number in releases
    )


# A workspace of packages, each with its changelog (axum's crates): the extra package's numbers are
# higher than the project's own, and say nothing of which release came last.
WORKSPACE = {
    "CHANGELOG.md": "The changelog has moved: see each package's.\n",
    "web/CHANGELOG.md": _changelog("0.8.9", "0.8.8"),
    "web-extra/CHANGELOG.md": _changelog("0.12.6", "0.12.5"),
    "web-macros/CHANGELOG.md": _changelog("0.5.2"),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_in_a_workspace_the_last_release_is_the_projects_own(make_project, engine) -> None:
    project = synced_on(engine, make_project, WORKSPACE, "web")  # its folder is named web
    answer = ask_project(project, "what changed in the last release", now=NOW, limit=3)
    assert titles(answer)[:2] == ["0.8.9", "0.8.8"], (titles(answer), answer.notes)
    asked = ask_project(project, "what's new in 0.12.6", now=NOW, limit=3)  # a number: wherever it is
    assert titles(asked)[0] == "0.12.6"


def test_in_a_workspace_without_a_package_named_as_the_project_the_root_changelog_is_its_own(make_project) -> None:
    files = {**WORKSPACE, "CHANGELOG.md": _changelog("0.3.0", "0.2.0")}  # lower than a package's
    project = make_project(files, name="site")
    resync(project)
    answer = ask_project(project, "what changed in the last release", now=NOW, limit=3)
    assert titles(answer)[:2] == ["0.3.0", "0.2.0"], titles(answer)
    del files["CHANGELOG.md"]  # no root changelog, none named as the project: the highest number
    other = make_project(files, name="other")
    resync(other)
    assert titles(ask_project(other, "what changed in the last release", now=NOW, limit=1)) == ["0.12.6"]
