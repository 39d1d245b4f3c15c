"""A commit message written with Windows line ends (httpx has hundreds: ``…ASGITransport\\r\\n``)
is read with plain ones (branch walk4): ``kenning get`` showed ``\\x0d`` at the end of every line
of the message, and the excerpt's words kept the carriage returns."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import commit_all, git, resync
from kenning.graph import projections
from kenning.ingest import git_history
from kenning.store import fact_sources
from kenning.store import facts as fact_store
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server


def test_a_commit_message_with_windows_line_ends_reads_with_plain_ones(cli, make_project):
    project = make_project({"docs/a.md": "# A\n\nText.\n"}, name="crlf")
    commit_all(project.root, "Initial import")
    (project.root / "docs" / "b.md").write_text("# B\n\nMore.\n")
    git(project.root, "add", "-A")
    git(project.root, "commit", "-q", "--cleanup=verbatim", "-m", "Deprecate app\r\n\r\n* Linting\r\n* Docs\r\n")
    raw = subprocess.run(["git", "-C", str(project.root), "log", "-1", "--format=%B"], capture_output=True, check=True)
    assert b"\r\n" in raw.stdout  # git kept them
    resync(project)
    found = cli("search", "Deprecate app linting", "--project", str(project.root), "--json", "--type", "commit")
    assert found.code == 0, found.err
    (excerpt,) = json.loads(found.out)["excerpts"]
    shown = cli("get", excerpt["citation"], "--project", str(project.root))
    assert shown.code == 0, shown.err
    assert "\\x0d" not in shown.out and "\r" not in shown.out
    assert "Deprecate app\n\n* Linting\n* Docs" in shown.out


def _commit_facts(project) -> list[tuple[str, str, str]]:
    """(sha, title, body) of the store's active commit facts."""
    conn = open_store(project)
    try:
        held = fact_sources.active_by_uri(conn, "", fact_type="commit")
        facts = fact_store.get_many(conn, project.name, [fact_id for fact_id, _ in held.values()])
        return sorted((f.source.uri, f.title, f.body) for f in facts.values())
    finally:
        conn.close()


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_commits_indexed_before_the_fix_lose_their_carriage_returns_at_the_next_sync(
    cli, make_project, monkeypatch, engine
):
    """A store synced before the fix (its git row with no projection version) kept ``\\r`` in
    the messages: git history is read only after its cursor, so nothing re-read them. The
    projection's version (``GIT_PROJECTION``) makes one sync read the commits held again."""
    project = make_project({"docs/a.md": "# A\n\nText.\n"}, name="crlf-old", config=engine_config(engine, "crlf-old"))
    commit_all(project.root, "Initial import")
    (project.root / "docs" / "b.md").write_text("# B\n\nMore.\n")
    git(project.root, "add", "-A")
    git(project.root, "commit", "-q", "--cleanup=verbatim", "-m", "Deprecate app\r\n\r\n* Docs\r\n")
    with monkeypatch.context() as old:  # the code before the fix, as it wrote the store
        old.setattr(git_history, "_plain_ends", str.strip)
        old.setattr(projections, "GIT_PROJECTION", None)
        resync(project)
    before = _commit_facts(project)
    touched = "\n\nFiles touched:\ndocs/b.md"
    assert [body for _, _, body in before if "\r" in body] == ["Deprecate app\r\n\r\n* Docs" + touched]
    report = resync(project)
    assert report.graph.get("commits_replaced") == 1
    after = _commit_facts(project)
    assert [sha for sha, _, _ in after] == [sha for sha, _, _ in before]  # one fact a commit, still
    assert not any("\r" in body for _, _, body in after)
    assert ("Deprecate app", "Deprecate app\n\n* Docs" + touched) in {(title, body) for _, title, body in after}
    found = cli("search", "Deprecate", "--project", str(project.root), "--json", "--type", "commit")
    assert found.code == 0, found.err
    (excerpt,) = json.loads(found.out)["excerpts"]
    assert "\r" not in excerpt["snippet"]
    again = resync(project)  # read once: the next sync has nothing to re-read
    assert "commits_replaced" not in again.graph and _commit_facts(project) == after
