"""Rough edges a new user met outside the CLI layer (walkthrough of 2026-12-02): each error's
hint says what to do next in the caller's own terms."""

from __future__ import annotations

import pytest


def test_a_question_over_its_budget_says_its_length_and_to_shorten_it(cli, make_project):
    project = make_project({"docs/a.md": "# A\n\nText.\n"})
    result = cli("ask", "x" * 501, "--project", str(project.root))
    assert result.code == 2
    assert result.err == "error: the text is 501 characters, the limit is 500\nhint: shorten it, then retry\n"
    assert "FTS" not in result.err


def test_an_empty_question_asks_for_one(cli, make_project):
    project = make_project({"docs/a.md": "# A\n\nText.\n"})
    result = cli("ask", "", "--project", str(project.root))
    assert result.code == 2
    assert result.err.startswith("error: the text is empty\nhint: ask a question")
    assert "FTS" not in result.err


def test_a_malformed_id_offers_forms_a_shell_keeps(cli, make_project):
    """A bare `#42` on a command line is a comment: the hint shows it quoted."""
    project = make_project({"docs/a.md": "# A\n\nText.\n"})
    cli("sync", "--project", str(project.root))
    result = cli("get", "abc", "--project", str(project.root))
    assert result.code == 2
    hint = result.err.split("hint: ", 1)[1]
    assert "'#42'" in hint and " #42" not in hint


@pytest.mark.parametrize(
    "args", [("remember", "--global", "hello"), ("projects", "list"), ("ask", "x", "--all-projects")]
)
def test_a_kenning_home_that_is_a_file_is_the_usage_error_init_gives(cli, tmp_path, monkeypatch, args):
    """Not a NotADirectoryError traceback, nor "no projects registered": the one check."""
    home = tmp_path / "home-file"
    home.write_text("", encoding="utf-8")
    monkeypatch.setenv("KENNING_HOME", str(home))
    init = cli("init", str(tmp_path / "p"))
    result = cli(*args)
    assert result.code == init.code == 2
    assert result.err == init.err
    assert result.err.startswith(f"error: KENNING_HOME {home} is a file, not a folder")


@pytest.mark.parametrize("args", [("ask", "x"), ("search", "x"), ("stale",)])
def test_all_projects_with_none_registered_says_so_not_no_match(cli, args):
    """Asked nowhere is not an empty search: the answer says so, then ``ProjectNotFound``'s
    lines, exit 1, as ``index_missing`` does (the exit code changed in papercuts3)."""
    result = cli(*args, "--all-projects", "--json")
    assert result.code == 1
    assert result.err == (
        "error: no project registered on this machine: nothing was searched\n"
        "hint: run `kenning init` in a project (it registers it), or `kenning projects add PATH`\n"
    )
    answer = result.json()
    assert answer["excerpts"] == [] and answer["scope"] == {"projects": [], "excluded": []}
    assert answer["empty_reason"] == "no_project"
    assert "no project registered on this machine: run `kenning init` in a project" in answer["notes"]
