"""Commits read again when the git projection's version moves (``GIT_PROJECTION``) are not
knowledge superseded by a later decision: httpx's store, upgraded, said `542 superseded` in
`kenning status` for commits nobody changed (branch cuts8). Their old facts stay `superseded`
(``superseded_by`` leads an old citation to the new fact, as for any excerpt a sync replaces),
and status counts them apart, with the excerpts a changed file replaced, as `replaced at sync`;
a note superseded by hand is still `superseded`. The sync says it read them again."""

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
def test_status_counts_commits_read_again_as_replaced_not_superseded(cli, make_project, monkeypatch, engine):
    project = _synced_before_the_fix(make_project, monkeypatch, engine)
    where = ("--project", str(project.root))
    synced = cli("sync", *where)
    assert synced.code == 0, synced.err
    assert (
        "git history: 1 commit(s) read again by this version of kenning: their excerpts replaced "
        "(the commits did not change)"
    ) in synced.out.splitlines(), synced.out
    data = cli("status", "--json", *where).json()
    assert data["index"]["by_lifecycle"]["superseded"] == 1  # the lifecycle as stored: unchanged
    assert data["index"]["replaced"] == 1
    text = cli("status", *where).out
    index = next(line for line in text.splitlines() if line.startswith("index: "))
    assert "1 replaced at sync" in index and "superseded" not in index, index

    note = cli("remember", "Greet in English", *where, "--json").json()["id"]
    newer = cli("remember", "Greet in French", *where, "--json").json()["id"]
    assert cli("supersede", str(note), str(newer), *where).code == 0
    (project.root / "docs" / "a.md").write_text("# A\n\nOther text.\n")  # the file's excerpt replaced
    assert cli("sync", *where).code == 0
    data = cli("status", "--json", *where).json()
    assert data["index"]["by_lifecycle"]["superseded"] == 3 and data["index"]["replaced"] == 2
    index = next(line for line in cli("status", *where).out.splitlines() if line.startswith("index: "))
    assert "1 superseded, 2 replaced at sync" in index, index


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
