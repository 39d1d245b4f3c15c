"""`kenning init` and `kenning sync` are served without click when stderr is not a terminal;
the click commands stay the reference and print the same thing for the same arguments."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import through_click, write_files
from kenning.interfaces.cli.plain_project import parse_project_args


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--json"],
        ["--name", "twin"],
        ["--name=twin", "--json"],
        ["--sync", "--no-embed"],
        ["--no-embed", "--sync", "--json"],
    ],
)
def test_init_on_the_fast_path_prints_what_the_click_command_prints(cli, capsys, tmp_path, monkeypatch, extra):
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    for name in ("left", "right"):  # each run's directory (its default name) and registry
        write_files(tmp_path / name, {"docs/a.md": "# A\n\nFreshness words.\n", "docs/b.md": "# B\n\nOther.\n"})
    args = {side: ["init", "--project", str(tmp_path / side), *extra] for side in ("left", "right")}
    assert parse_project_args("init", args["left"][1:]) is not None, "the fast path must take these arguments"
    outputs = []
    for _ in range(2):  # created, then already initialised
        monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home-left"))
        fast = cli(*args["left"])
        monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home-right"))
        code, out, err = through_click(capsys, args["right"])
        assert (fast.code, fast.err) == (code, err) == (0, "")
        assert fast.out.replace("left", "right") == out
        outputs.append(out)
    assert ("already initialised" in out) or ('"created": false' in out)
    if "--sync" in extra:  # indexed at once, in the same command: then nothing new
        assert ("2 new" in outputs[0] and "2 unchanged" in outputs[1]) or '"new": 2' in outputs[0]
        assert "docs/a.md" in cli("search", "freshness", "--project", str(tmp_path / "right"), "--json").out
    else:
        assert "next: kenning sync" in out or '"sync"' not in out


def test_a_name_taken_is_the_same_typed_error_on_both_paths(cli, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    for name in ("one", "two", "three"):
        (tmp_path / name).mkdir()
    assert cli("init", "--project", str(tmp_path / "one"), "--name", "same").code == 0
    fast = cli("init", "--project", str(tmp_path / "two"), "--name", "same", "--json")
    code, out, err = through_click(capsys, ["init", "--project", str(tmp_path / "two"), "--name", "same", "--json"])
    assert (fast.code, fast.out, fast.err) == (code, out, err) and code == 2
    assert err.startswith("error: project name 'same' is already used")


@pytest.mark.parametrize("extra", [["--no-embed"], ["--no-embed", "--json"], ["--json", "--no-embed"]])
def test_sync_on_the_fast_path_prints_what_the_click_command_prints(cli, capsys, make_project, monkeypatch, extra):
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    files = {"docs/a.md": "# A\n\nFreshness words.\n", "docs/b.md": "# B\n\nOther words.\n"}
    fast_project, click_project = make_project(files, name="left"), make_project(files, name="right")
    args = ["sync", *extra]
    assert parse_project_args("sync", [*extra, "--project", "x"]) is not None
    fast = cli(*args, "--project", str(fast_project.root))
    code, out, err = through_click(capsys, [*args, "--project", str(click_project.root)])
    assert (fast.code, fast.err) == (code, err) == (0, "")
    assert fast.out.replace("left", "right") == out
    assert "2 new" in out or '"new": 2' in out


def test_no_embed_without_sync_is_a_usage_error_that_creates_nothing(cli, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "p").mkdir()
    args = ["init", "--no-embed", "--project", str(tmp_path / "p")]
    fast = cli(*args)
    code, out, err = through_click(capsys, args)
    assert (fast.code, fast.out, fast.err) == (code, out, err) and code == 2
    assert "use it with --sync" in err
    assert not (tmp_path / "p" / ".kenning").exists() and not (tmp_path / "home").exists()


def test_a_missing_project_is_the_same_typed_error_on_both_paths(cli, capsys, tmp_path):
    args = ["sync", "--no-embed", "--project", str(tmp_path / "nowhere")]
    fast = cli(*args)
    code, out, err = through_click(capsys, args)
    assert (fast.code, fast.out, fast.err) == (code, out, err) and code != 0 and err.startswith("error: ")


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("init", ["--help"]),
        ("init", ["--name"]),
        ("init", ["--name", "--json"]),
        ("init", ["--project="]),
        ("init", ["one", "two"]),
        ("init", ["one", "--project", "two"]),
        ("init", ["--no-embed"]),
        ("init", ["--json", "--no-embed"]),
        ("sync", ["-h"]),
        ("sync", ["--name", "x"]),
        ("sync", ["--json=yes"]),
        ("sync", ["--project"]),
    ],
)
def test_arguments_the_fast_path_does_not_know_go_to_click(command, args):
    assert parse_project_args(command, args) is None


def test_a_project_path_that_is_a_file_goes_to_click(cli, tmp_path):
    (tmp_path / "file.txt").write_text("x")
    assert parse_project_args("sync", ["--project", str(tmp_path / "file.txt")]) is None
    result = cli("sync", "--project", str(tmp_path / "file.txt"))
    assert result.code == 2 and "is a file" in result.err


def test_the_console_script_inits_and_syncs_without_importing_click(tmp_path):
    write_files(tmp_path / "p", {"docs/a.md": "# A\n\nWords.\n"})
    code = (
        "import sys\n"
        "from kenning.interfaces.cli.entry import run\n"
        "for args in (['init', '--project', sys.argv[1]], ['sync', '--no-embed', '--project', sys.argv[1]]):\n"
        "    try:\n        run(args)\n"
        "    except SystemExit as e:\n        assert e.code == 0, e.code\n"
        "assert 'click' not in sys.modules, 'click was imported'\n"
    )
    env_home = {"KENNING_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "p")],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, **env_home},
    )
    assert done.returncode == 0, done.stderr
    assert "next: kenning sync" in done.stdout and "1 new" in done.stdout


def test_the_console_script_inits_and_syncs_in_one_command_without_importing_click(tmp_path):
    write_files(tmp_path / "p", {"docs/a.md": "# A\n\nWords.\n"})
    code = (
        "import sys\n"
        "from kenning.interfaces.cli.entry import run\n"
        "try:\n    run(['init', '--sync', '--no-embed', '--project', sys.argv[1]])\n"
        "except SystemExit as e:\n    assert e.code == 0, e.code\n"
        "assert 'click' not in sys.modules, 'click was imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "p")],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "KENNING_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 0, done.stderr
    assert "created at" in done.stdout and "1 new" in done.stdout and "next: kenning sync" not in done.stdout
