"""Git history read through git itself: subfolder projects, any ref format, and an unreadable
history listed as a degradation, never a silent zero."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session
from starlette.testclient import TestClient

from conftest import NOW, commit_all, git, resync, write_files
from kenning import registry
from kenning.config import init_project
from kenning.ingest import git_history
from kenning.ingest.discover import discover
from kenning.ingest.git_history import HistoryProblem
from kenning.interfaces.mcp.server import build_server
from kenning.interfaces.web.app import create_app


def _repo_with_a_subfolder_project(tmp_path: Path):
    repo = tmp_path / "repo"
    write_files(repo, {"README.md": "# mono\n", "other/notes.md": "# other\n\nelsewhere\n"})
    commit_all(repo, "Start the monorepo")
    write_files(repo, {"app/guide.md": "# Guide\n\nhow the app ranks\n"})
    commit_all(repo, "Add the app guide")
    write_files(repo, {"other/notes.md": "# other\n\nstill elsewhere\n"})
    commit_all(repo, "Touch only the other folder")
    write_files(repo, {"app/guide.md": "# Guide\n\nhow the app ranks, fused\n", "README.md": "# mono!\n"})
    commit_all(repo, "Change the guide and the readme")
    project, _ = init_project(repo / "app", "app")
    return repo, project


def test_a_project_in_a_subfolder_lists_the_commits_touching_it_with_paths_from_its_root(tmp_path, cli):
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    report = resync(project)
    assert report.graph["commits"] == 2
    subjects = [c.subject for c in git_history.commits(project.root, None)]
    assert subjects == ["Add the app guide", "Change the guide and the readme"]
    assert all(c.files == ("guide.md",) for c in git_history.commits(project.root, None))
    result = cli("graph", "touches", "guide.md", "--project", str(project.root), "--json")
    assert result.code == 0, result.err
    answer = result.json()
    titles = {e["title"] for e in answer["excerpts"] if e["type"] == "commit"}
    assert titles == {"Add the app guide", "Change the guide and the readme"}
    assert answer["degradations"] == []
    assert git_history.problem(project.root) is None


def test_packed_refs_and_a_linked_worktree_read_the_same_head(tmp_path):
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert git_history.head(project.root) == sha
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"), "-b", "linked")
    assert git_history.head(tmp_path / "linked" / "app") == sha
    linked = git_history.commits(tmp_path / "linked" / "app", None)
    assert linked[-1].subject == "Change the guide and the readme"


@pytest.mark.parametrize("damage", ["head", "objects"])
def test_a_repository_whose_history_cannot_be_read_answers_with_a_degradation(tmp_path, cli, damage):
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    if damage == "head":
        (repo / ".git" / "HEAD").write_text("this is not a ref\n", encoding="utf-8")
    else:
        shutil.rmtree(repo / ".git" / "objects")
        (repo / ".git" / "objects").mkdir()
    report = resync(project)
    assert report.graph.get("commits", 0) == 0
    assert git_history.problem(project.root) is HistoryProblem.UNREADABLE
    for args in (("graph", "touches", "guide.md"), ("ask", "how does the app rank")):
        result = cli(*args, "--project", str(project.root), "--json")
        assert result.code == 0, result.err
        assert HistoryProblem.UNREADABLE.value in result.json()["degradations"], args
    text = cli("ask", "how does the app rank", "--project", str(project.root))
    assert f"degraded: {HistoryProblem.UNREADABLE.value}" in text.out


def test_once_the_repository_reads_again_the_degradation_is_gone(tmp_path, cli):
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    head = (repo / ".git" / "HEAD").read_text(encoding="utf-8")
    (repo / ".git" / "HEAD").write_text("garbage\n", encoding="utf-8")
    resync(project)
    assert git_history.problem(project.root) is HistoryProblem.UNREADABLE
    (repo / ".git" / "HEAD").write_text(head, encoding="utf-8")
    assert resync(project).graph["commits"] == 2
    assert git_history.problem(project.root) is None
    answer = cli("ask", "how does the app rank", "--project", str(project.root), "--json").json()
    assert not any(d.startswith("git history") for d in answer["degradations"])


def test_without_git_a_project_outside_any_repository_is_not_degraded_and_one_inside_is(
    tmp_path, make_project, monkeypatch, cli
):
    """With no git installed, a project outside any repository still has no history to miss:
    "git is not installed" listed in its answers was noise (it said "not in a repository" only
    when git was there). Inside a repository the history exists, and git's absence degrades."""
    project = make_project({"guide.md": "# Guide\n\nhow the app ranks\n"})
    repo = make_project({"guide.md": "# Guide\n\nhow the app ranks\n"}, name="repo")
    commit_all(repo.root, "Start")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert shutil.which("git") is None
    resync(project)
    assert git_history.problem(project.root) is HistoryProblem.NOT_A_REPOSITORY
    answer = cli("ask", "how does the app rank", "--project", str(project.root), "--json")
    assert answer.code == 0 and not any("git" in d for d in answer.json()["degradations"]), answer.out
    line = "git history: none: the project is not in a git repository (nothing to read, so no answer is degraded)"
    assert line in cli("status", "--project", str(project.root)).out.splitlines()
    resync(repo)
    assert git_history.problem(repo.root) is HistoryProblem.NO_GIT
    answer = cli("ask", "how does the app rank", "--project", str(repo.root), "--json")
    assert HistoryProblem.NO_GIT.value in answer.json()["degradations"]
    assert [p for p in HistoryProblem if not p.degrades] == [HistoryProblem.NOT_A_REPOSITORY]


def test_a_project_outside_any_repository_has_no_history_and_no_answer_says_degraded(make_project, cli, isolated_home):
    """No repository, no history to read: not a degradation of any answer (CLI, MCP, web, the
    hook); ``kenning status`` says plainly that there is none, and why."""
    project = make_project({"guide.md": "# Guide\n\nhow the app ranks\n"})
    resync(project)
    registry.register(isolated_home, project.name, project.root)  # for --all-projects
    where = ("--project", str(project.root))
    asked = [
        cli("ask", "how does the app rank", *where, "--json"),
        cli("ask", "what calls guide.md", *where, "--json"),
        cli("graph", "touches", "guide.md", *where, "--json"),
        cli("ask", "how does the app rank", "--all-projects", "--json"),
    ]
    for result in asked:
        assert result.code == 0, result.err
        assert not any("git" in d for d in result.json()["degradations"]), result.out
    text = cli("ask", "how does the app rank", *where)
    assert "git" not in text.out and "degraded: git" not in text.out
    hook = cli("hook", "session-start", *where)
    assert "git" not in hook.out

    server = build_server(project, tools="all", clock=lambda: NOW)

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool("memory_ask", {"question": "how does the app rank"})

    over_mcp = anyio.run(main)
    assert not over_mcp.isError and over_mcp.structuredContent["excerpts"]
    assert not any("git" in d for d in over_mcp.structuredContent["degradations"])
    assert "git" not in over_mcp.content[0].text
    web = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    api = web.get("/api/ask", params={"q": "how does the app rank"}).json()
    assert api["excerpts"] and not any("git" in d for d in api["degradations"])

    status = cli("status", *where, "--json").json()
    assert status["git_history"] == {
        "read": False,
        "state": "none",
        "reason": HistoryProblem.NOT_A_REPOSITORY.value,
        "degraded": False,
    }
    assert not any("git" in d for d in status["degradations"])
    line = "git history: none: the project is not in a git repository (nothing to read, so no answer is degraded)"
    assert line in cli("status", *where).out.splitlines()
    assert HistoryProblem.NOT_A_REPOSITORY.value in web.get("/status").text


def test_status_says_how_many_commits_were_read_and_lists_an_unreadable_history(tmp_path, cli):
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    resync(project)
    where = ("--project", str(project.root))
    history = cli("status", *where, "--json").json()["git_history"]
    assert history == {"read": True, "state": "read", "commits": 2, "degraded": False}
    assert "git history: read, 2 commit(s) indexed" in cli("status", *where).out.splitlines()
    (repo / ".git" / "HEAD").write_text("garbage\n", encoding="utf-8")
    resync(project)
    status = cli("status", *where, "--json").json()
    assert status["git_history"]["degraded"] is True
    assert HistoryProblem.UNREADABLE.value in status["degradations"]
    text = cli("status", *where).out.splitlines()
    assert "git history: not read: the repository cannot be read" in text
    assert f"degraded: {HistoryProblem.UNREADABLE.value}" in text


def test_a_sync_outside_any_repository_starts_no_git_process(tmp_path, make_project, monkeypatch):
    """No ``.git`` at or above the project and no ``GIT_DIR``: git could only say "not a git
    repository", so neither discovery nor the sync's history check starts it. With ``GIT_DIR``
    set, git may find a repository anywhere: it is asked."""
    calls = tmp_path / "git-calls"
    shim = tmp_path / "bin" / "git"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec {shutil.which("git")} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    project = make_project({"guide.md": "# Guide\n\nranks\n"})
    report = resync(project)
    assert report.discovery == "walk" and not calls.exists()
    assert git_history.problem(project.root) is HistoryProblem.NOT_A_REPOSITORY
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere.git"))
    assert discover(project).method == "walk"
    assert git_history.read_head(project.root).problem is HistoryProblem.NOT_A_REPOSITORY
    asked = calls.read_text(encoding="utf-8").splitlines()
    assert [line.split()[2] for line in asked] == ["ls-files", "rev-parse"]


def test_a_repository_without_a_commit_yet_is_not_degraded(make_project):
    project = make_project({"guide.md": "# Guide\n"})
    git(project.root, "init", "-q", "-b", "main")
    assert git_history.read_head(project.root) == git_history.Head(None)


def test_a_reftable_repository_reads_like_any_other(tmp_path):
    try:
        git(tmp_path, "init", "-q", "--ref-format=reftable", "-b", "main", "rt")
    except subprocess.CalledProcessError:
        pytest.skip("this git has no reftable support (git >= 2.45)")
    root = tmp_path / "rt"
    write_files(root, {"guide.md": "# Guide\n"})
    sha = commit_all(root, "Start")
    assert git_history.read_head(root) == git_history.Head(sha)
    assert [c.subject for c in git_history.commits(root, None)] == ["Start"]


def test_commits_read_again_by_sha_skip_those_git_no_longer_holds_and_keep_the_subfolder_paths(tmp_path):
    """``commits_named`` (a projection's version moved): the commits a store holds, read as
    ``commits`` reads them. A sha git does not hold (a rewritten history) is left out — a plain
    ``git log --stdin`` would stop at it and read none; outside a repository, None (try again)."""
    repo, project = _repo_with_a_subfolder_project(tmp_path)
    held = git_history.commits(project.root, None)
    gone = "0" * 40
    again = git_history.commits_named(project.root, [held[1].sha, gone, held[0].sha])
    assert again is not None
    assert sorted((c.sha, c.message, c.files) for c in again) == sorted((c.sha, c.message, c.files) for c in held)
    assert git_history.commits_named(project.root, [gone]) == []
    assert git_history.commits_named(tmp_path / "nowhere", [held[0].sha]) is None
