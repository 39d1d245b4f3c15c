"""Commits read again when the git projection's version moves (``GIT_PROJECTION``), branch cuts8."""

from __future__ import annotations

import pytest

from conftest import commit_all, git, resync
from kenning.graph import projections
from kenning.ingest import git_history
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server


def _synced_before_the_fix(make_project, monkeypatch, engine: str):
    """A project of two commits, one with Windows line ends, synced by the projection before
    ``git/2`` (as tests/ingest/test_commit_line_ends.py does)."""
    project = make_project({"docs/a.md": "# A\n\nText.\n"}, name="again", config=engine_config(engine, "again"))
    commit_all(project.root, "Initial import")
    (project.root / "docs" / "b.md").write_text("# B\n\nMore.\n")
    git(project.root, "add", "-A")
    git(project.root, "commit", "-q", "--cleanup=verbatim", "-m", "Deprecate app\r\n\r\n* Docs\r\n")
    with monkeypatch.context() as old:
        old.setattr(git_history, "_plain_ends", str.strip)
        old.setattr(projections, "GIT_PROJECTION", None)
        resync(project)
    return project


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_commit_read_again_is_built_once(make_project, monkeypatch, engine):
    """``_project_again`` built each changed commit's fact twice: to compare, then to write."""
    project = _synced_before_the_fix(make_project, monkeypatch, engine)
    built: list[str] = []
    build = projections._commit_fact

    def counted(commit, stamp):
        built.append(commit.sha)
        return build(commit, stamp)

    monkeypatch.setattr(projections, "_commit_fact", counted)
    report = resync(project)
    assert report.graph.get("commits_replaced") == 1
    assert len(built) == 2 and len(set(built)) == 2, built  # each held commit once, the replaced one included
