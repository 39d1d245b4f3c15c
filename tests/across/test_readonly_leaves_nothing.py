"""Reading the other registered projects leaves nothing beside their stores: their read-only
connections needed the `-wal`/`-shm` files and could not remove them, so every `kenning
projects list` or `--all-projects` question left both files in every readable project."""

from __future__ import annotations

import pytest
from across_corpus import build

from conftest import NOW
from kenning.clock import iso


@pytest.fixture
def machine(make_project, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", iso(NOW))
    return build(make_project)


def leftovers(*projects) -> dict[str, list[str]]:
    """The -wal/-shm beside each project's store (``-wait``, a writer's lock file, is meant to stay)."""
    found = {p.name: p.state_dir.glob("kenning.db-*") for p in projects}
    return {name: sorted(f.name for f in files if f.suffix != ".db-wait") for name, files in found.items()}


@pytest.mark.parametrize(
    "command",
    [("projects", "list"), ("ask", "memory", "--all-projects"), ("search", "memory", "--all-projects")],
    ids=["projects list", "ask --all-projects", "search --all-projects"],
)
def test_reading_every_registered_store_leaves_no_wal_beside_them(machine, cli, command):
    readable = (machine.alpha, machine.beta)
    assert leftovers(*readable) == {"alpha": [], "beta": []}
    result = cli(*command, "--project", str(machine.alpha.root)) if command[0] != "projects" else cli(*command)
    assert result.code == 0, result.err
    assert leftovers(*readable) == {"alpha": [], "beta": []}
