"""What `kenning init` keeps out of git: a team commits `.kenning/` for its config (level 2
shares one project name across checkouts); the sync's lock file is this machine's, and was
committed with it (an empty `.kenning/sync.lock` in every clone)."""

from __future__ import annotations

from conftest import commit_all, git, resync
from kenning.project import GITIGNORE


def test_after_a_sync_git_sees_only_the_files_meant_to_be_committed(make_project):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    commit_all(project.root)
    resync(project)
    assert (project.state_dir / "sync.lock").exists()
    listed = git(project.root, "ls-files", "--others", "--exclude-standard", ".kenning").split()
    committed = git(project.root, "ls-files", ".kenning").split()
    assert sorted(listed + committed) == [".kenning/.gitignore", ".kenning/config.toml"]


def test_the_journal_a_first_sync_writes_under_is_kept_out_of_git(make_project):
    """A first sync fills its new store under SQLite's rollback journal (``store.db.connect``'s
    ``wal``): a sync stopped in a batch leaves ``kenning.db-journal`` beside the store."""
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    commit_all(project.root)
    (project.state_dir / "kenning.db-journal").write_bytes(b"left by a stopped first sync")
    listed = git(project.root, "ls-files", "--others", "--exclude-standard", ".kenning").split()
    assert listed == []


def test_a_first_sync_adds_the_journal_to_an_earlier_kennings_ignore_file(make_project):
    """A project set up before the journal came has kenning's ``.gitignore`` without ``*.db-journal``:
    its next first sync (a new store) adds the patterns it lacks, and keeps its own lines."""
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    commit_all(project.root)
    ignore = project.state_dir / ".gitignore"
    older = [line for line in GITIGNORE.splitlines() if line != "*.db-journal"] + ["notes/"]
    ignore.write_text("\n".join(older) + "\n", encoding="utf-8")
    for leftover in project.state_dir.glob("kenning.db*"):
        leftover.unlink()
    resync(project)
    lines = ignore.read_text(encoding="utf-8").splitlines()
    assert lines[: len(older)] == older and lines[len(older) :] == ["*.db-journal"]
    (project.state_dir / "kenning.db-journal").write_bytes(b"left by a stopped first sync")
    assert git(project.root, "ls-files", "--others", "--exclude-standard", ".kenning").split() == []


def test_an_ignore_file_someone_wrote_is_left_as_it_is(make_project):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    ignore = project.state_dir / ".gitignore"
    ignore.write_text("*\n", encoding="utf-8")
    for leftover in project.state_dir.glob("kenning.db*"):
        leftover.unlink()
    resync(project)
    assert ignore.read_text(encoding="utf-8") == "*\n"


def test_a_first_sync_leaves_a_deleted_ignore_file_deleted(make_project):
    project = make_project({"README.md": "# Demo\n\nText.\n"})
    (project.state_dir / ".gitignore").unlink()
    for leftover in project.state_dir.glob("kenning.db*"):
        leftover.unlink()
    resync(project)
    assert not (project.state_dir / ".gitignore").exists()
