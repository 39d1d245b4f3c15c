"""The transverse memory holds notes only: no files, so no graph and no core pack, ever. A
relation or project-frame question asked across projects was answered there lexically but
listed `global: graph not built` / `global: core pack not built` in every answer — a standing
degradation nothing could fix. Its notes answer by their words, and no degradation is said."""

from __future__ import annotations

from conftest import resync
from kenning import registry

FILES = {
    "docs/adr/0001-use-sqlite.md": "# 1. Use SQLite\n\nDate: 2026-11-01\n\n## Status\n\nAccepted\n\n"
    "## Decision\n\nWe choose SQLite because it needs no server.\n",
    "src/rank.py": "def rrf_fuse(rankings):\n    return rankings\n\n\ndef search():\n    return rrf_fuse([])\n",
    "CONTRIBUTING.md": "# Conventions\n\nShort functions; tests beside the code.\n",
}


def test_relation_and_frame_questions_across_projects_say_nothing_of_the_notes_own_graph(
    make_project, cli, isolated_home
):
    project = make_project(FILES, name="app")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    assert cli("pack", "build", "--project", str(project.root)).code == 0
    saved = cli("remember", "--global", "We chose short commit messages for every project", "--json")
    assert saved.code == 0, saved.err
    for question in ("why did we choose short commit messages", "what calls rrf_fuse", "what are the conventions"):
        answer = cli("ask", question, "--all-projects", "--json")
        assert answer.code == 0, answer.err
        payload = answer.json()
        assert payload["scope"]["projects"] == ["app", "global"]
        assert [d for d in payload["degradations"] if d.startswith("global:")] == [], (question, payload)
    why = cli("ask", "why did we choose short commit messages", "--all-projects", "--json").json()
    assert saved.json()["citation"] in [e["citation"] for e in why["excerpts"]]
