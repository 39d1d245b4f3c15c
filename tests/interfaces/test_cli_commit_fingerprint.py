"""A commit's excerpt names its fingerprint for what it is (branch walk4): the commit's git id,
not ``sha256:1a2b3c4d5e6f`` — a git id is no SHA-256 of anything, and a reader who checks it with
``sha256sum`` finds nothing. Line 1 already ends with that id in full, so line 2 says
``fingerprint: the commit id`` as ``kenning get`` does, not its first 12 hex a second time
(``commit 1a2b3c4d5e6f``, until the tenth session of issue 19). A file's excerpt keeps ``sha256:``."""

from __future__ import annotations

from conftest import commit_all, resync


def test_a_commit_excerpt_shows_its_git_id_and_a_file_excerpt_its_sha256(cli, make_project):
    project = make_project({"docs/router.md": "# Router\n\nThe router picks the mode.\n"}, name="fp")
    commit_all(project.root, "router: first import")
    (project.root / "notes.txt").write_text("router notes\n")
    sha = commit_all(project.root, "router picks a mode per question")
    resync(project)
    result = cli("search", "router mode", "--project", str(project.root))
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    commit = next(i for i, line in enumerate(lines) if f"commit · router picks a mode per question — {sha}" in line)
    assert " · fingerprint: the commit id · " in lines[commit + 1], lines[commit + 1]
    assert sha[:12] not in lines[commit + 1]  # said once, on line 1
    assert "sha256:" not in lines[commit + 1]
    doc = next(i for i, line in enumerate(lines) if "docs/router.md" in line)
    assert " · sha256:" in lines[doc + 1], lines[doc + 1]
