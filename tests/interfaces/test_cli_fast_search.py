"""`kenning search` is served without click; the click command stays the reference (and for
`kenning ask`, the two tests below that name both commands; the rest: test_cli_fast_ask.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import resync, through_click
from kenning.interfaces.cli.plain import parse_search_args


@pytest.fixture
def project_dir(make_project):
    project = make_project(
        {
            "docs/guide.md": "# Guide\n\nFreshness is computed at read time.\n\n## Ranking\n\nBM25 ranks excerpts.\n",
            "src/fuse.py": 'def rrf_fuse(lists):\n    """Reciprocal rank fusion."""\n    return lists\n',
        }
    )
    resync(project)
    return project.root


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--json"],
        ["--limit", "1"],
        ["--limit=2", "--type", "code", "--type=doc"],
        ["--include-superseded", "--include-missing", "--explain", "--json"],
        ["--syntax", "fts"],
    ],
)
def test_the_fast_path_prints_what_the_click_command_prints(cli, capsys, project_dir, extra, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    args = ["search", "freshness OR rrf_fuse", *extra, "--project", str(project_dir)]
    assert parse_search_args(args[1:]) is not None, "the fast path must take these arguments"
    fast = cli(*args)
    code, out, err = through_click(capsys, args)
    assert (fast.code, fast.out, fast.err) == (code, out, err)
    assert code == 0 and ("guide.md" in out or "fuse.py" in out)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["q", "--limit", "0"],
        ["q", "--limit", "abc"],
        ["q", "--limit"],
        ["q", "--syntax", "regex"],
        ["q", "--unknown"],
        ["q", "--json=yes"],
        ["one", "two"],
        [],
        ["--", "-q"],
    ],
)
def test_arguments_the_fast_path_does_not_know_go_to_click(args):
    assert parse_search_args(args) is None


@pytest.mark.parametrize("command", ["search", "ask"])
def test_a_usage_error_comes_from_click_with_exit_code_2(cli, project_dir, command):
    result = cli(command, "q", "--limit", "0", "--project", str(project_dir))
    assert result.code == 2
    assert result.err.startswith("error: `limit` must be at least 1 (got 0)\nhint: ")


def test_invalid_syntax_on_the_fast_path_is_a_typed_error(cli, project_dir):
    result = cli("search", "foo AND (", "--syntax", "fts", "--project", str(project_dir))
    assert result.code == 2 and result.err.startswith("error: invalid search syntax")


@pytest.mark.parametrize("command", ["search", "ask"])
def test_the_console_script_answers_without_importing_click(project_dir, command):
    code = (
        "import sys\n"
        "from kenning.interfaces.cli.entry import run\n"
        f"try:\n    run([{command!r}, 'how is freshness computed', '--project', sys.argv[1]])\n"
        "except SystemExit as e:\n    assert e.code == 0, e.code\n"
        "assert 'click' not in sys.modules, 'click was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(project_dir)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "docs/guide.md" in done.stdout


def test_the_installed_script_ends_with_its_output_and_exit_code_flushed(project_dir):
    exe = shutil.which("kenning", path=str(Path(sys.executable).parent))
    assert exe, "the kenning console script is installed with the package"
    found = subprocess.run(
        [exe, "search", "freshness", "--json", "--project", str(project_dir)], capture_output=True, text=True
    )
    assert found.returncode == 0 and found.stderr == ""
    assert json.loads(found.stdout)["excerpts"][0]["source"]["uri"].startswith("docs/guide.md")
    failed = subprocess.run(
        [exe, "search", "foo AND (", "--syntax", "fts", "--project", str(project_dir)], capture_output=True, text=True
    )
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr.startswith("error: invalid search syntax") and "hint:" in failed.stderr
