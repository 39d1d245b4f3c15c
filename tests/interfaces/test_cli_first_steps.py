"""A new user's first ten minutes (walkthrough of 2026-12-02): what they type out of habit
from other tools, and what the command line answers. Each test runs the console script's
entry point, both its fast path and click's."""

from __future__ import annotations

import pytest

from kenning import registry
from kenning.interfaces.cli.main import main as click_main


def _through_click(capsys, args: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        click_main(args)
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


@pytest.mark.parametrize("extra", [[], ["--json"], ["--sync", "--no-embed"]])
def test_init_takes_the_directory_as_a_positional_argument_like_git_init(cli, tmp_path, monkeypatch, extra):
    home = tmp_path / "home"
    monkeypatch.setenv("KENNING_HOME", str(home))
    (tmp_path / "proj" / "docs").mkdir(parents=True)
    (tmp_path / "proj" / "docs" / "a.md").write_text("# A\n\nFreshness words.\n")
    result = cli("init", str(tmp_path / "proj"), *extra)
    assert result.code == 0, result.err
    assert (tmp_path / "proj" / ".kenning" / "config.toml").is_file()
    assert [e.name for e in registry.list_entries(home)] == ["proj"]
    if "--sync" in extra:
        assert "docs/a.md" in cli("search", "freshness", "--project", str(tmp_path / "proj")).out


def test_init_with_a_positional_directory_prints_what_project_prints(cli, capsys, tmp_path, monkeypatch):
    for side in ("left", "right"):
        (tmp_path / side).mkdir()
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home-left"))
    positional = cli("init", str(tmp_path / "left"), "--json")
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home-right"))
    code, out, err = _through_click(capsys, ["init", "--project", str(tmp_path / "right"), "--json"])
    assert (positional.code, positional.err) == (code, err) == (0, "")
    assert positional.out.replace("left", "right") == out


def test_the_same_directory_as_positional_and_project_is_accepted(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "p").mkdir()
    monkeypatch.chdir(tmp_path)
    assert cli("init", "p", "--project", str(tmp_path / "p") + "/").code == 0
    assert (tmp_path / "p" / ".kenning").is_dir()


@pytest.mark.parametrize("json", [[], ["--json"]])
def test_two_different_directories_are_a_usage_error_that_creates_nothing(cli, capsys, tmp_path, monkeypatch, json):
    home = tmp_path / "home"
    monkeypatch.setenv("KENNING_HOME", str(home))
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    args = ["init", str(tmp_path / "one"), "--project", str(tmp_path / "two"), *json]
    result = cli(*args)
    assert result.code == 2
    assert result.err.startswith("error: two directories given")
    assert (result.code, result.out, result.err) == _through_click(capsys, args)
    if json:
        assert result.json()["error"]["type"] == "UsageError"
    assert not (tmp_path / "one" / ".kenning").exists() and not (tmp_path / "two" / ".kenning").exists()
    assert not home.exists()


def test_a_positional_directory_that_is_a_file_is_a_usage_error(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "file.txt").write_text("x")
    result = cli("init", str(tmp_path / "file.txt"))
    assert result.code == 2 and "is a file" in result.err
