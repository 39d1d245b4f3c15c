"""What `kenning init` keeps out of git: a team commits `.kenning/` for its config (level 2
shares one project name across checkouts); the sync's lock file is this machine's, and was
committed with it (an empty `.kenning/sync.lock` in every clone)."""

from __future__ import annotations

from conftest import commit_all, git, resync


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
