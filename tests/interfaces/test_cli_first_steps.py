"""A new user's first ten minutes (walkthrough of 2026-12-02): `kenning init` as `git init
DIR` habits type it, names that cannot be registered, a moved or nested project, Ctrl-C
during a sync, text piped in, a terminal's safety. Tests run the console script's entry point
(its fast path for init, sync and search) and, where both exist, click's command too. Usage
errors' hints: test_cli_usage_hints.py."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys

import pytest
from terminal import read_to_end

from conftest import resync, through_click
from kenning import registry


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
    code, out, err = through_click(capsys, ["init", "--project", str(tmp_path / "right"), "--json"])
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
    assert (result.code, result.out, result.err) == through_click(capsys, args)
    if json:
        assert result.json()["error"]["type"] == "UsageError"
    assert not (tmp_path / "one" / ".kenning").exists() and not (tmp_path / "two" / ".kenning").exists()
    assert not home.exists()


def test_a_positional_directory_that_is_a_file_is_a_usage_error(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "file.txt").write_text("x")
    result = cli("init", str(tmp_path / "file.txt"))
    assert result.code == 2 and "is a file" in result.err


def test_a_name_already_taken_creates_nothing_and_the_hinted_name_then_works(cli, tmp_path, monkeypatch):
    """Before, the refused init left `.kenning/` with the taken name behind, and the hint's
    `--name NAME` was then ignored (already initialised): refused again, for ever."""
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    for parent in ("one", "two"):
        (tmp_path / parent / "app").mkdir(parents=True)
    assert cli("init", str(tmp_path / "one" / "app")).code == 0
    refused = cli("init", str(tmp_path / "two" / "app"))
    assert refused.code == 2
    assert refused.err.startswith("error: project name 'app' is already used by")
    assert "kenning init --name NAME" in refused.err
    assert not (tmp_path / "two" / "app" / ".kenning").exists()
    renamed = cli("init", str(tmp_path / "two" / "app"), "--name", "app2", "--json")
    assert renamed.code == 0 and renamed.json()["project"] == "app2"


def test_name_on_an_initialised_project_is_refused_not_ignored(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "p").mkdir()
    assert cli("init", str(tmp_path / "p")).code == 0
    config = (tmp_path / "p" / ".kenning" / "config.toml").read_text()
    result = cli("init", str(tmp_path / "p"), "--name", "q")
    assert result.code == 2
    assert "already initialised as 'p'" in result.err and "kenning projects rename p q" in result.err
    assert (tmp_path / "p" / ".kenning" / "config.toml").read_text() == config
    assert cli("init", str(tmp_path / "p"), "--name", "p").code == 0  # the same name: harmless


def test_a_copy_of_a_project_is_told_to_edit_its_config_never_to_rename_the_original(cli, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("KENNING_HOME", str(home))
    (tmp_path / "orig").mkdir()
    assert cli("init", str(tmp_path / "orig"), "--name", "shared").code == 0
    shutil.copytree(tmp_path / "orig", tmp_path / "copy")
    for extra in ([], ["--name", "mine"]):
        result = cli("init", str(tmp_path / "copy"), *extra)
        assert result.code == 2
        assert f"edit `name` in {tmp_path / 'copy' / '.kenning' / 'config.toml'}" in result.err
        assert "projects rename" not in result.err
    assert [(e.name, e.path) for e in registry.list_entries(home)] == [("shared", (tmp_path / "orig").resolve())]


def test_search_help_says_nothing_of_the_code_behind_it(cli):
    result = cli("search", "--help")
    assert result.code == 0 and result.out.startswith("Usage: kenning search [OPTIONS] QUERY")
    assert "fast_search" not in result.out and "console script" not in result.out


def test_projects_list_on_a_terminal_says_what_to_do_about_a_project_whose_directory_is_gone(
    cli, tmp_path, monkeypatch
):
    from kenning.interfaces.cli import registry_cmds

    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    for name in ("kept", "gone"):
        (tmp_path / name).mkdir()
        assert cli("init", str(tmp_path / name)).code == 0
    shutil.rmtree(tmp_path / "gone")
    piped = cli("projects", "list")
    assert piped.code == 0 and piped.err == "" and "\ngone  " in piped.out  # data only, when piped
    monkeypatch.setattr(registry_cmds, "stderr_is_terminal", lambda: True)
    shown = cli("projects", "list")
    assert shown.out == piped.out
    assert shown.err.startswith("hint: gone: directory gone — moved? run `kenning init` where it now lives")
    assert "`kenning projects remove gone`" in shown.err
    assert cli("projects", "remove", "gone").code == 0
    assert cli("projects", "list").err == ""


def test_projects_list_text_has_a_header_over_aligned_columns(cli, tmp_path, monkeypatch):
    """As `token list`: a name, a state, counts, a date and a path in a row cannot be told apart
    without a header, nor where a column starts; `--json` keeps its keys."""
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    for name in ("alpha", "gone"):
        (tmp_path / name / "docs").mkdir(parents=True)
        (tmp_path / name / "docs" / "a.md").write_text("# A\n\nWords.\n")
        assert cli("init", str(tmp_path / name), "--sync", "--no-embed").code == 0
    shutil.rmtree(tmp_path / "gone")
    header, *rows = cli("projects", "list").out.splitlines()
    columns = ["NAME", "STATE", "FACTS", "SIZE", "LAST SYNC", "PATH", "NOTE"]
    starts = [header.index(column) for column in columns]
    ends = [*starts[1:], None]
    assert starts == sorted(starts) and [header[a:b].strip() for a, b in zip(starts, ends, strict=True)] == columns
    listed = cli("projects", "list", "--json").json()["projects"]
    assert [set(r) for r in listed] == [
        {"name", "path", "state", "readable", "reason", "last_sync", "size_bytes", "facts", "confidential"}
    ] * 2
    cells = {row[: starts[1]].strip(): [row[a:b].strip() for a, b in zip(starts, ends, strict=True)] for row in rows}
    alpha = next(r for r in listed if r["name"] == "alpha")
    assert cells["alpha"][:3] == ["alpha", "ok", str(alpha["facts"])]
    assert cells["alpha"][3].endswith(" MiB")
    assert cells["alpha"][4:] == [alpha["last_sync"], str(tmp_path / "alpha"), ""]
    assert cells["gone"][:6] == ["gone", "missing", "-", "-", "-", str(tmp_path / "gone")]
    assert cells["gone"][6].startswith("no .kenning/config.toml")


def test_init_inside_a_project_says_so_and_what_it_changes(cli, tmp_path, monkeypatch):
    """A user who runs `kenning init` again from a subfolder creates a project of its own there,
    which the outer project's sync then leaves out: said, with the way back."""
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "outer" / "src").mkdir(parents=True)
    assert "note:" not in cli("init", str(tmp_path / "outer")).out
    monkeypatch.chdir(tmp_path / "outer" / "src")
    text = cli("init")
    assert text.code == 0
    assert f"note: inside the project at {tmp_path / 'outer'}" in text.out
    assert "the next sync of 'outer' leaves this folder out" in text.out
    assert "`kenning projects remove src`" in text.out
    assert cli("init", "--json").json()["inside"] == str(tmp_path / "outer")
    assert "inside" not in cli("init", str(tmp_path / "outer"), "--json").json()


INITIALIZE = (
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", '
    b'"capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}'
)


def test_mcp_typed_at_a_terminal_says_what_it_waits_for(make_project, isolated_home):
    """Before, `kenning mcp` typed at a terminal printed nothing and seemed to hang."""
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    main, tty = pty.openpty()
    server = subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", "mcp", "--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stdin=tty,
        stdout=subprocess.PIPE,
        stderr=tty,
    )
    os.close(tty)
    try:
        said = b""
        while b"Ctrl-C stops." not in said and select.select([main], [], [], 30)[0]:
            said += os.read(main, 1024)
        os.write(main, INITIALIZE + b"\n")  # typed at the terminal: the server answers it
        assert server.stdout is not None and select.select([server.stdout], [], [], 60)[0], "no answer"
        assert json.loads(server.stdout.readline())["id"] == 1
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        said += read_to_end(main)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        os.close(main)
    lines = said.decode().replace("\r\n", "\n").splitlines()
    assert code == 0
    assert lines[0].startswith("kenning mcp: serving alpha over stdio, waiting for an MCP client's JSON-RPC")
    assert "`kenning ask`" in lines[0]
    assert lines[-1] == "kenning mcp: stopped on SIGTERM, shut down cleanly"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("bad name", "--name 'bad name': a project name is 1-64 characters"),
        ("", "--name '': a project name is 1-64 characters"),
        ("global", "--name 'global': the name is reserved for the transverse memory"),
        ("-x", "--name '-x': a project name is 1-64 characters"),  # `projects rename -x y` would read an option
        (".hidden", "--name '.hidden': a project name is 1-64 characters"),
    ],
)
def test_an_invalid_name_is_refused_before_anything_is_written(cli, tmp_path, monkeypatch, name, said):
    """Before, `--name global` wrote .kenning/ with that name and then refused to register it,
    and the next `kenning init --name other` was refused as already initialised."""
    home = tmp_path / "home"
    monkeypatch.setenv("KENNING_HOME", str(home))
    (tmp_path / "p").mkdir()
    result = cli("init", str(tmp_path / "p"), "--name", name)
    assert result.code == 2 and result.err.startswith(f"error: {said}")
    assert not (tmp_path / "p" / ".kenning").exists() and not home.exists()
    assert cli("init", str(tmp_path / "p"), "--name", "fine").code == 0


def test_a_directory_named_global_is_asked_for_a_name_before_anything_is_written(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "global").mkdir()
    result = cli("init", str(tmp_path / "global"))
    assert result.code == 2 and "kenning init --name NAME" in result.err
    assert not (tmp_path / "global" / ".kenning").exists()
    assert cli("init", str(tmp_path / "global"), "--name", "mine").code == 0


@pytest.mark.parametrize("command", [("search", "x"), ("ask", "x"), ("status",), ("sync", "--no-embed"), ("get", "1")])
def test_a_project_path_that_does_not_exist_says_so(cli, tmp_path, command):
    result = cli(*command, "--project", str(tmp_path / "nope"), "--json")
    assert result.code == 1
    assert result.err.startswith(f"error: --project {tmp_path / 'nope'}: no such directory\n")
    assert result.json()["error"]["type"] == "ProjectNotFound"


def test_init_of_another_directory_says_how_to_sync_it_from_here(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "p" / "sub").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert cli("init", "p").out.endswith(f"\nnext: kenning sync --project {tmp_path / 'p'}\n")
    monkeypatch.chdir(tmp_path / "p" / "sub")
    assert cli("init", "..").out.endswith("\nnext: kenning sync\n")  # run from inside: it finds the project


def test_ctrl_c_during_a_sync_keeps_what_was_written_and_says_so(cli, capsys, make_project):
    """Ctrl-C is raised where the sync reports its progress (what a terminal's Ctrl-C does at
    that moment): the batches committed before it stay, and the next sync carries on."""
    from kenning.interfaces.cli.plain import report_failure
    from kenning.interfaces.cli.plain_project import sync_output

    project = make_project({f"docs/n{i:03}.md": f"# Note {i}\n\nWords number {i}.\n" for i in range(300)})

    def ctrl_c_in_the_second_batch(phase: str, done: int, total: int) -> None:
        if phase == "writing" and done > 100:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stopped:
        sync_output(project.root, True, False, ctrl_c_in_the_second_batch)
    capsys.readouterr()
    assert report_failure(stopped.value) == 130
    assert capsys.readouterr().err == (
        "interrupted\nhint: the files written before the interrupt stay indexed: `kenning sync` carries on\n"
    )
    carried_on = cli("sync", "--no-embed", "--project", str(project.root), "--json").json()
    assert carried_on["files"]["unchanged"] > 0 and carried_on["files"]["new"] < 300
    assert carried_on["files"]["unchanged"] + carried_on["files"]["new"] == 300


def test_ctrl_c_through_the_click_command_keeps_its_hint(capsys, make_project, monkeypatch):
    """On a terminal the sync goes through click, which wraps Ctrl-C in its Abort."""
    import kenning.sync.run

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kenning.sync.run, "sync", interrupted)
    project = make_project({"docs/a.md": "# A\n"})
    code, out, err = through_click(capsys, ["sync", "--no-embed", "--project", str(project.root)])
    assert (code, out) == (130, "")
    assert err.endswith(
        "interrupted\nhint: the files written before the interrupt stay indexed: `kenning sync` carries on\n"
    )


@pytest.mark.parametrize("command", [("remember",), ("memory", "save")])
def test_a_dash_saves_the_text_piped_in(cli, make_project, monkeypatch, command):
    """Before, `git log -1 | kenning remember -` saved the note "-"."""
    project = make_project({"docs/a.md": "# A\n"})
    monkeypatch.setattr(sys, "stdin", io.StringIO("Deploys freeze on Fridays\nsince the outage.\n"))
    saved = cli(*command, "-", "--no-embed", "--project", str(project.root), "--json").json()
    got = cli("get", str(saved["id"]), "--project", str(project.root), "--json").json()
    [fact] = got["facts"]
    assert fact["body"] == "Deploys freeze on Fridays\nsince the outage."


def test_a_dash_with_nothing_piped_in_is_a_usage_error(cli, make_project, monkeypatch):
    project = make_project({"docs/a.md": "# A\n"})
    terminal = io.StringIO()
    terminal.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", terminal)
    result = cli("remember", "-", "--project", str(project.root))
    assert result.code == 2 and "pipe the text in" in result.err


@pytest.mark.parametrize(("stdin", "said"), [("", "is empty"), ("garbage", "is not JSON (Expecting value")])
def test_the_post_tool_use_hook_says_what_it_expected_on_its_input(cli, monkeypatch, stdin, said):
    """Typed at a terminal to try it, the hook used to answer only the decoder's words."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    result = cli("hook", "post-tool-use")
    assert result.code == 0  # a hook never fails the agent
    assert result.err.startswith(f"kenning hook post-tool-use: standard input {said}")
    assert result.err.endswith("it expects the agent's PostToolUse JSON payload\n")


ESCAPES = "# Evil\n\nclearscreen \x1b[2J\x1b[31mRED\x1b[0m title \x1b]0;pwned\x07 back\rover \x9b31m.\n"


@pytest.mark.parametrize(
    "command",
    [("search", "clearscreen"), ("search", "clearscreen", "--explain"), ("ask", "clearscreen"), ("get", "1")],
)
def test_an_indexed_files_escape_sequences_never_reach_the_terminal(cli, make_project, command):
    """Before, a file holding `ESC [2J` cleared the screen of whoever searched it (or retitled
    the window, or rewrote a line with a carriage return)."""
    project = make_project({"docs/evil.md": ESCAPES})
    resync(project)
    text = cli(*command, "--project", str(project.root))
    assert text.code == 0
    assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) < 0xA0 for c in text.out)
    assert "\\x1b[2J" in text.out and "\\x07" in text.out
    as_json = cli(*command, "--project", str(project.root), "--json")
    assert "\x1b[2J" in as_json.out or "\\u001b[2J" in as_json.out  # JSON carries the data as it is


def test_bench_out_in_a_missing_folder_is_refused_before_the_run_not_with_a_traceback_after(
    cli, make_project, tmp_path
):
    project = make_project({"docs/a.md": "# A\n\nSome words.\n"})
    resync(project)
    result = cli("bench", "--out", str(tmp_path / "nowhere" / "report.txt"), "--project", str(project.root))
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"error: --out {tmp_path / 'nowhere' / 'report.txt'}: cannot write the report")
    written = cli("bench", "--out", str(tmp_path / "report.txt"), "--project", str(project.root))
    assert written.code == 0 and (tmp_path / "report.txt").read_text().startswith("kenning bench")


def test_init_with_kenning_home_a_file_is_a_usage_error_that_creates_nothing(cli, tmp_path, monkeypatch):
    """Before: a traceback (FileExistsError), and `.kenning/` left behind."""
    (tmp_path / "home").write_text("")
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    (tmp_path / "p").mkdir()
    result = cli("init", str(tmp_path / "p"))
    assert result.code == 2 and result.err.startswith(f"error: KENNING_HOME {tmp_path / 'home'} is a file")
    assert not (tmp_path / "p" / ".kenning").exists()


@pytest.mark.parametrize("command", [("search", "x"), ("ask", "x"), ("stale",)])
def test_outside_a_project_the_commands_that_can_ask_every_project_say_so(cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = cli(*command)
    assert result.code == 1 and result.err.startswith(f"error: no kenning project at or above {tmp_path}")
    assert result.err.endswith(", or add --all-projects to ask every registered project\n")
    assert "--all-projects" not in cli("status").err  # it has no such option
