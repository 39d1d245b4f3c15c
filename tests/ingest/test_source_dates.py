"""Source dates (issue 13): a file git tracks, unmodified in the work tree, is dated by the last
commit that touched it; any other file by its modification time; ``dates.source_kind`` says
which (front matter dates are ``declared``, saved notes ``saved``)."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from conftest import GIT_ENV, NOW, resync, write_files
from kenning.answer.ask import ask_project
from kenning.clock import from_timestamp
from kenning.config import init_project
from kenning.ingest import git_dates, git_history
from kenning.ingest.git_history import HistoryProblem
from kenning.lifecycle import remember
from kenning.records import Fact
from kenning.store import facts as fact_store
from kenning.store import lookups
from kenning.store.db import connect

OLD, NEWER = "2020-02-02T10:00:00+00:00", "2021-05-05T08:30:00+02:00"


def commit_at(root: Path, when: str, message: str, paths: tuple[str, ...] = ("-A",)) -> None:
    """Commit everything (or ``paths``) under ``root`` with author and committer dates ``when``."""
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    if not (root / ".git").exists():
        subprocess.run(["git", "-C", str(root), "init", "-q", "-b", "main"], env=env, check=True)
    subprocess.run(["git", "-C", str(root), "add", *paths], env=env, check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", message], env=env, check=True)


def facts_of(project, path: str) -> list[Fact]:
    conn = connect(project.db_path)
    try:
        return list(fact_store.get_many(conn, project.name, lookups.active_ids_with_path(conn, path)).values())
    finally:
        conn.close()


def dates(project, path: str) -> set[tuple[str | None, str | None]]:
    return {(f.dates.source, f.dates.source_kind) for f in facts_of(project, path)}


FILES = {
    "guide.md": "# Guide\n\nHow the client retries.\n",
    "client.py": "def retry(times):\n    return times\n",
    "adr/0001-retries.md": "---\ndate: 2019-07-01\n---\n# Retry three times\n\nWe retry three times.\n",
}


def test_unmodified_files_take_their_last_commit_date_and_say_so(tmp_path, make_project):
    project = make_project(FILES)
    commit_at(project.root, OLD, "Import")
    write_files(project.root, {"client.py": "def retry(times):\n    return times + 1\n"})
    commit_at(project.root, NEWER, "Retry once more")
    resync(project)
    assert dates(project, "guide.md") == {("2020-02-02T10:00:00Z", "commit")}
    assert dates(project, "client.py") == {("2021-05-05T06:30:00Z", "commit")}  # committer date, in UTC
    # A date the file states wins over history.
    assert dates(project, "adr/0001-retries.md") == {("2019-07-01T00:00:00Z", "declared")}
    [fact] = facts_of(project, "guide.md")
    assert fact.to_json()["dates"]["source_kind"] == "commit"


def test_a_modified_or_untracked_file_falls_back_to_its_mtime_and_says_so(make_project):
    project = make_project(FILES)
    commit_at(project.root, OLD, "Import")
    write_files(project.root, {"guide.md": "# Guide\n\nHow the client retries, with backoff.\n", "new.md": "# New\n"})
    resync(project)
    for path in ("guide.md", "new.md"):
        mtime = from_timestamp((project.root / path).stat().st_mtime)
        assert dates(project, path) == {(mtime, "mtime")}, path
    assert dates(project, "client.py") == {("2020-02-02T10:00:00Z", "commit")}
    # Committed as it stands: HEAD moved, so the next sync dates it from that commit without
    # parsing it again; the untracked file keeps its mtime.
    commit_at(project.root, NEWER, "Backoff", ("guide.md",))
    report = resync(project)
    assert report.files_changed == 0 and report.writes > 0
    assert dates(project, "guide.md") == {("2021-05-05T06:30:00Z", "commit")}
    assert dates(project, "client.py") == {("2020-02-02T10:00:00Z", "commit")}
    new_mtime = from_timestamp((project.root / "new.md").stat().st_mtime)
    assert dates(project, "new.md") == {(new_mtime, "mtime")}
    assert resync(project).writes == 0  # nothing new: nothing read, nothing written


def test_a_staged_but_uncommitted_change_is_not_heads_and_keeps_the_mtime(make_project):
    project = make_project(FILES)
    commit_at(project.root, OLD, "Import")
    write_files(project.root, {"client.py": "def retry(times):\n    return 0\n"})
    subprocess.run(["git", "-C", str(project.root), "add", "client.py"], check=True)
    resync(project)
    assert {kind for _, kind in dates(project, "client.py")} == {"mtime"}


def test_a_project_in_a_subfolder_of_a_repository_reads_the_commits_touching_its_files(tmp_path):
    repo = tmp_path / "repo"
    write_files(repo, {"README.md": "# Mono\n", "app/guide.md": "# Guide\n\nHow the app ranks.\n"})
    commit_at(repo, OLD, "Start")
    write_files(repo, {"README.md": "# Mono!\n", "app/notes.md": "# Notes\n\nRanking notes.\n"})
    commit_at(repo, NEWER, "Notes, and the readme")
    project, _ = init_project(repo / "app", "app")
    resync(project)
    assert dates(project, "guide.md") == {("2020-02-02T10:00:00Z", "commit")}
    assert dates(project, "notes.md") == {("2021-05-05T06:30:00Z", "commit")}


def test_without_git_files_are_dated_by_mtime_and_only_an_expected_history_is_a_degradation(
    tmp_path, make_project, monkeypatch
):
    plain = make_project({"guide.md": "# Guide\n\nHow the client retries.\n"}, name="plain")
    resync(plain)
    mtime = from_timestamp((plain.root / "guide.md").stat().st_mtime)
    assert dates(plain, "guide.md") == {(mtime, "mtime")}

    repo = make_project({"guide.md": "# Guide\n\nHow the client retries.\n"}, name="repo")
    commit_at(repo.root, OLD, "Import")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # a repository, but no git to read it
    resync(repo)
    mtime = from_timestamp((repo.root / "guide.md").stat().st_mtime)
    assert dates(repo, "guide.md") == {(mtime, "mtime")}
    assert git_history.problem(repo.root) is HistoryProblem.NO_GIT
    answer = ask_project(repo, "how does the client retry", now=NOW)
    assert HistoryProblem.NO_GIT.value in answer.degradations


def test_commit_dates_costs_two_git_processes_whatever_the_number_of_files(make_project, monkeypatch):
    project = make_project({f"doc{i}.md": f"# Doc {i}\n\nText {i}.\n" for i in range(40)})
    commit_at(project.root, OLD, "Import")
    calls: list[list[str]] = []
    real_popen = subprocess.Popen  # subprocess.run starts its process through Popen

    def popen(args, *a, **k):
        calls.append(list(args))
        return real_popen(args, *a, **k)

    monkeypatch.setattr(subprocess, "Popen", popen)
    blobs = {f"doc{i}.md": blob_id((project.root / f"doc{i}.md").read_bytes()) for i in range(40)}
    found = git_dates.commit_dates(project.root, blobs)
    assert found == dict.fromkeys(blobs, "2020-02-02T10:00:00Z")
    assert [next(a for a in c if a in ("ls-tree", "log")) for c in calls] == ["ls-tree", "log"]


def blob_id(data: bytes) -> str:
    blob = hashlib.sha1(b"blob %d\x00" % len(data))
    blob.update(data)
    return blob.hexdigest()


def test_saved_notes_say_saved(make_project):
    project = make_project({"README.md": "# Readme\n"})
    conn = connect(project.db_path, create=True)
    try:
        saved = remember(conn, "We deploy on Fridays only.", now=NOW)
        fact = fact_store.get(conn, project.name, saved.fact_id)
    finally:
        conn.close()
    assert fact.dates.source_kind == "saved"


def test_a_project_outside_git_asks_git_nothing(tmp_path, monkeypatch):
    """Outside a repository (no ``.git`` at or above it), the sync records so without asking
    git (not even ``rev-parse``): the files read are dated by their mtime. Inside one, git is
    asked (the dates above)."""
    root = tmp_path / "plain"
    write_files(root, {"docs/a.md": "# A\n\nWords.\n"})
    project, _ = init_project(root, "plain")
    asked: list[str] = []
    real_run = git_history._run

    def run(where, *args, **options):  # noqa: ANN001, ANN002, ANN003, ANN202
        asked.append(next(a for a in args if not a.startswith("-") and "=" not in a))
        return real_run(where, *args, **options)

    monkeypatch.setattr(git_history, "_run", run)
    resync(project)
    assert git_history.problem(root) is HistoryProblem.NOT_A_REPOSITORY
    assert asked == []
    assert [f.dates.source_kind for f in facts_of(project, "docs/a.md")] == ["mtime"]
    tracked = tmp_path / "tracked"
    write_files(tracked, {"docs/a.md": "# A\n\nWords.\n"})
    commit_at(tracked, OLD, "first")
    other, _ = init_project(tracked, "tracked")
    asked.clear()
    resync(other)
    assert "ls-tree" in asked and [f.dates.source_kind for f in facts_of(other, "docs/a.md")] == ["commit"]
