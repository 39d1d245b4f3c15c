"""What a usage error says on the command line (walkthrough of 2026-12-02): the command meant
by a typo, the option meant by its beginning or by another tool's short name, where an option,
a directory or text beginning with '-' goes, and the command's own --help."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("serach", "`kenning search`"),
        ("Sync", "`kenning sync`"),
        ("index", "`kenning sync`"),
        ("help", "`kenning --help`"),
    ],
)
def test_an_unknown_command_names_the_one_meant(cli, typed, meant):
    result = cli(typed, "x")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"error: No such command '{typed}'. Did you mean {meant}?\n")
    assert cli(typed, "x", "--json").json()["error"]["type"] == "UsageError"


def test_a_command_close_to_none_is_still_a_plain_usage_error(cli):
    result = cli("gibberish-xyz")
    assert result.code == 2 and result.err == "error: No such command 'gibberish-xyz'.\nhint: see `kenning --help`\n"


def test_text_that_begins_with_a_dash_is_told_to_go_after_double_dash(cli, make_project):
    project = make_project({"docs/a.md": "# A\n\nThe -x flag.\n"})
    result = cli("search", "-x", "--project", str(project.root))
    assert result.code == 2
    assert "goes last, after `--`: `kenning search [OPTIONS] -- '-…'`" in result.err
    close = cli("search", "x", "--jsn", "--project", str(project.root))  # a typo of an option: no such hint
    assert close.code == 2 and "'--json'" in close.err and "after `--`" not in close.err
    assert cli("status", "-x", "--project", str(project.root)).err.count("after `--`") == 0  # takes no text
    assert "after `--`" not in cli("search", "x", "--bogus", "--project", str(project.root)).err


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (("search", "x", "--project"), "kenning search"),
        (("ask", "x", "--limit"), "kenning ask"),
        (("graph", "neighbours", "x", "--limit"), "kenning graph neighbours"),
        (("token", "create", "--scope"), "kenning token create"),
    ],
)
def test_an_option_missing_its_value_points_to_its_command_help(cli, args, command):
    """Click raises this error without its command: the hint used to say `kenning --help`."""
    result = cli(*args)
    assert result.code == 2
    assert result.err.endswith(f"requires an argument.\nhint: see `{command} --help`\n")


def test_the_beginning_of_an_option_names_the_option(cli):
    result = cli("ask", "x", "--all")
    assert result.code == 2
    assert result.err.startswith("error: No such option '--all'. Did you mean '--all-projects'?\n")
    assert "Did you mean" not in cli("ask", "x", "--zzz").err


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (("sync",), "kenning sync --project"),
        (("status",), "kenning status --project"),
        (("search", "x"), "kenning search … --project"),
    ],
)
def test_a_directory_given_as_an_argument_is_pointed_to_project(cli, make_project, command, shown):
    project = make_project({"docs/a.md": "# A\n"})
    result = cli(*command, str(project.root))
    assert result.code == 2
    assert result.err.startswith(f"error: Got unexpected extra argument ({project.root})\n")
    assert f"a project directory goes with --project: `{shown} {project.root}`" in result.err
    assert "--project" not in cli("search", "x", "not-a-directory").err  # a second word, not a directory


def test_an_option_given_before_the_command_is_told_to_go_after_it(cli):
    result = cli("--project", "/somewhere", "search", "x")
    assert result.code == 2
    assert result.err == (
        "error: --project is an option of the command, not of `kenning` itself: put it after the command\n"
        "hint: `kenning search … --project …` (see `kenning search --help`)\n"
    )
    assert "`kenning graph neighbours … --limit …`" in cli("--limit", "3", "graph", "neighbours", "x").err
    assert cli("--json", "status").json()["error"]["type"] == "UsageError"
    other = cli("--bogus", "search", "x")  # no command has it: click's own words
    assert other.code == 2 and other.err.startswith("error: No such option '--bogus'.")


@pytest.mark.parametrize(
    ("args", "meant"),
    [(("-V",), "--version"), (("search", "x", "-n", "5"), "--limit"), (("search", "x", "-j"), "--json")],
)
def test_a_short_option_other_tools_use_names_the_long_one(cli, args, meant):
    result = cli(*args)
    assert result.code == 2
    assert f"Did you mean '{meant}'?" in result.err.splitlines()[0]
    assert "after `--`" not in result.err  # not taken for text beginning with '-'


@pytest.mark.parametrize(("value", "said"), [("abc", "must be an integer (got 'abc')"), ("70000", "at most 65535")])
def test_serve_refuses_a_bad_port_in_the_words_mcp_http_uses(cli, make_project, value, said):
    """Before, `kenning serve --port abc` said "'abc' is not a valid integer range"."""
    project = make_project({"docs/a.md": "# A\n"})
    served = cli("serve", "--port", value, "--project", str(project.root))
    mcp = cli("mcp", "--http", "--port", value, "--project", str(project.root))
    assert served.code == mcp.code == 2
    assert said in served.err and served.err.splitlines()[0] == mcp.err.splitlines()[0]
    assert "`kenning serve --help`" in served.err and "`kenning mcp --help`" in mcp.err  # each its own
