"""What a new user's walkthrough found docs/cli.md promising and the command line not doing
(2026-12-01): each test runs the real console script's entry point and checks the documented
behaviour."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from conftest import resync
from kenning import registry

CODE = (
    "def main():\n    return apply_tax(100, 0.2)\n\n\n"
    "def apply_tax(amount, rate=0.2):\n    return int(amount * (1 + rate))\n"
)
DOC = "# Guide\n\n## Tax\n\nThe tax rate is twenty percent.\n"


@pytest.fixture
def synced(make_project, isolated_home):
    project = make_project({"app/pricing.py": CODE, "docs/guide.md": DOC})
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    return project


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "command", [("search", "tax"), ("search", "tax", "--all-projects"), ("ask", "tax", "--all-projects")]
)
def test_a_since_after_the_until_is_a_validation_error_that_changes_nothing(cli, synced, command):
    db = synced.db_path
    before = digest(db)
    window = ("--since", "2026-12-01", "--until", "2026-01-01", "--project", str(synced.root))
    text = cli(*command, *window)
    as_json = cli(*command, *window, "--json")
    assert text.code == as_json.code == 2 and text.out == ""
    assert text.err.startswith("error: --since 2026-12-01 is after --until 2026-01-01")
    assert as_json.json()["error"]["type"] == "ValidationError"
    assert digest(db) == before
    same_day = cli("search", "tax", "--since", "2026-01-01", "--until", "2026-01-01", "--project", str(synced.root))
    assert same_day.code == 0  # a one-day window is a window


@pytest.fixture
def unsynced(make_project, isolated_home):
    project = make_project({"app/pricing.py": CODE, "docs/guide.md": DOC}, name="fresh")
    registry.register(isolated_home, project.name, project.root)
    return project


@pytest.mark.parametrize("command", [("search", "tax"), ("ask", "what is the tax rate")])
def test_no_index_prints_the_answer_then_exits_1_with_the_error_line(cli, unsynced, command):
    """SPEC §6: an absent index appears in the answer and never counts as "no result": the answer
    (text or JSON) says `index_missing` on stdout, and the exit code is IndexMissing's, 1, with
    its `error:`/`hint:` lines on stderr, as docs/cli.md lists "no index" among runtime errors."""
    text = cli(*command, "--project", str(unsynced.root))
    as_json = cli(*command, "--project", str(unsynced.root), "--json")
    assert text.code == as_json.code == 1
    assert "no results: index_missing" in text.out
    assert as_json.json()["empty_reason"] == "index_missing" and as_json.json()["excerpts"] == []
    assert text.err == as_json.err
    assert text.err.startswith("error: no index to answer from in fresh") and "hint: run `kenning sync`" in text.err
    assert not unsynced.db_path.exists()


def test_all_projects_without_any_index_is_index_missing_not_no_match(cli, unsynced):
    result = cli("search", "tax", "--all-projects", "--json")
    assert result.code == 1
    answer = result.json()
    assert answer["empty_reason"] == "index_missing"
    assert answer["scope"]["excluded"] == [
        {"project": "fresh", "reason": "index missing: run `kenning sync` in that project"}
    ]


def test_a_synced_project_with_no_match_still_exits_0(cli, synced):
    result = cli("search", "zebra", "--project", str(synced.root), "--json")
    assert result.code == 0 and result.json()["empty_reason"] == "no_match" and result.err == ""


def test_ask_without_an_index_never_claims_hybrid(cli, unsynced):
    """An unsynced project has no vectors: the default rule's answer is lexical, and the
    degradation says why dense cannot serve (not installed, disabled, or no index)."""
    answer = cli("ask", "hello", "--project", str(unsynced.root), "--json").json()
    assert answer["rule"] == "default" and answer["mode"] == "lexical"
    assert answer["degradations"] and all("dense" in d for d in answer["degradations"])
    relation = cli("ask", "what calls apply_tax", "--project", str(unsynced.root), "--json").json()
    assert relation["rule"] == "relation" and relation["mode"] == "lexical"
    assert relation["degradations"] == ["graph not built"]


def test_graph_path_shows_every_node_along_it_the_start_first(cli, synced):
    """docs/cli.md: "each node along it is one excerpt with the path so far" — the start too,
    with no edge yet, then each node with the edges that reached it."""
    answer = cli("graph", "path", "main", "apply_tax", "--project", str(synced.root), "--json").json()
    titles = [ex["title"] for ex in answer["excerpts"]]
    assert titles[0].startswith("def main(") and titles[-1].startswith("def apply_tax(")
    assert answer["excerpts"][0]["path"] == []
    hops = [len(ex["path"]) for ex in answer["excerpts"]]
    assert hops == list(range(len(hops))) and hops[-1] >= 1
    text = cli("graph", "path", "main", "apply_tax", "--project", str(synced.root)).out
    assert next(line for line in text.splitlines() if line.startswith("1. ")).startswith(
        "1. [current] code · def main("
    )


def test_all_projects_with_none_readable_is_project_unreadable_and_exits_1(cli, unsynced):
    (unsynced.root / ".kenning" / "config.toml").write_text("name = [broken\n", encoding="utf-8")
    result = cli("search", "tax", "--all-projects", "--json")
    assert result.code == 1 and result.json()["empty_reason"] == "project_unreadable"
    assert result.err.startswith("error: no project could be read (fresh)")
