"""`kenning ask` for one project is served without click; the click command stays the reference
(a usage error from click and the console script without click: tests/interfaces/test_cli_fast_search.py,
for both commands)."""

from __future__ import annotations

import pytest

from conftest import resync, through_click
from kenning.interfaces.cli.plain_ask import parse_ask_args

FILES = {
    "docs/guide.md": "# Guide\n\nFreshness is computed at read time.\n\n## Ranking\n\nBM25 ranks excerpts.\n",
    "src/fuse.py": 'def rrf_fuse(lists):\n    """Reciprocal rank fusion."""\n    return lists\n',
}


@pytest.fixture
def project_dir(make_project):
    project = make_project(FILES)
    resync(project)
    return project.root


@pytest.mark.parametrize(
    ("question", "extra"),
    [
        ("how is freshness computed", []),
        ("how is freshness computed", ["--json"]),
        ("where is rrf_fuse", ["--limit", "1"]),
        ("what calls rrf_fuse", ["--limit=2", "--explain"]),
        ("what is stale", ["--json", "--explain"]),
    ],
)
def test_the_fast_path_prints_what_the_click_command_prints(cli, capsys, project_dir, question, extra, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    args = ["ask", question, *extra, "--project", str(project_dir)]
    assert parse_ask_args(args[1:]) is not None, "the fast path must take these arguments"
    fast = cli(*args)
    code, out, err = through_click(capsys, args)
    assert (fast.code, fast.out, fast.err) == (code, out, err)
    assert code == 0 and out.strip()


def test_an_unsynced_project_fails_the_same_way_on_both_paths(cli, capsys, make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    root = make_project(FILES).root  # never synced: no index
    for extra in ([], ["--json"]):
        args = ["ask", "how is freshness computed", *extra, "--project", str(root)]
        fast = cli(*args)
        code, out, err = through_click(capsys, args)
        assert (fast.code, fast.out, fast.err) == (code, out, err)
        assert code != 0 and "kenning sync" in err


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["q", "--all-projects"],
        ["q", "--since", "2026-01-01"],
        ["q", "--type", "doc"],
        ["q", "--limit", "0"],
        ["q", "--limit", "101"],
        ["q", "--limit", "abc"],
        ["q", "--limit"],
        ["q", "--unknown"],
        ["q", "--json=yes"],
        ["one", "two"],
        [],
        ["--", "-q"],
    ],
)
def test_arguments_the_fast_path_does_not_know_go_to_click(args):
    assert parse_ask_args(args) is None
