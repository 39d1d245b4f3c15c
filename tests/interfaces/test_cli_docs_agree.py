"""What a new user's walkthrough found docs/cli.md promising and the command line not doing
(2026-12-01): each test runs the real console script's entry point and checks the documented
behaviour."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from conftest import resync
from kenning import registry

CODE = "def main():\n    return apply_tax(100, 0.2)\n\n\ndef apply_tax(amount, rate=0.2):\n    return int(amount * (1 + rate))\n"
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
