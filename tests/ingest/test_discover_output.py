"""What discovery hands the sync, pinned whole: every candidate (path, size, modification
time, parser, resolved link target, where it is read from) and every skip reason, on one tree
that holds the rules discovery applies — nested ``.gitignore`` files, include and exclude
globs, a nested project, hidden files, links inside, outside and to folders, a too-large file,
names kenning cannot store — listed by git and by the walk. A faster discovery must hand over
exactly this."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from conftest import commit_all
from kenning.ingest.discover import discover
from kenning.ingest.parsers import parser_for

FILES: dict[str, str | bytes] = {
    ".gitignore": "*.log\nbuild/\n",
    "README.md": "# Readme\n",
    ".hidden.md": "# Hidden, not ignored\n",
    ".github/notes.md": "# In a hidden folder\n",
    "notes.txt": "not included by the globs\n",
    "noise.log": "ignored by .gitignore\n",
    "build/out.md": "ignored folder\n",
    "docs/guide.md": "# Guide\n\nsome text\n",
    "docs/.gitignore": "draft-*\n!draft-keep.md\n",
    "docs/draft-1.md": "ignored below docs\n",
    "docs/draft-keep.md": "# Kept by a negation\n",
    "docs/deep/er/page.md": "# Deep\n",
    "drafts/wip.md": "excluded by the config\n",
    "src/app.py": "x = 1\n",
    "src/image.png": b"\x89PNG not a supported type",
    "big.md": "# Big\n\n" + "word " * 820,  # past a document's cap: 4 x max_file_bytes
    "client/.kenning/config.toml": 'name = "client"\n',
    "client/deal.md": "# Another project's file\n",
}
CONFIG = 'name = "demo"\ninclude = ["*.md", "src/"]\nexclude = ["drafts/"]\nmax_file_bytes = 1000\n'


def _tree(make_project, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Outside\n", encoding="utf-8")
    project = make_project(FILES, config=CONFIG)
    root = project.root
    os.symlink("README.md", root / "inside-link.md")
    os.symlink("../docs/guide.md", root / "src" / "guide-link.md")
    os.symlink(outside / "secret.md", root / "leak.md")
    os.symlink("docs", root / "docs-link")
    os.symlink("missing.md", root / "broken.md")
    (root / "new\nline.md").write_text("# Newline\n", encoding="utf-8")
    (root / os.fsdecode(b"l_\xe9.md")).write_bytes(b"# Latin-1 name\n")
    return project


@pytest.mark.parametrize("use_git", [False, True], ids=["walk", "git"])
def test_discovery_hands_the_sync_every_eligible_file_with_its_stat_and_every_skip(make_project, tmp_path, use_git):
    project = _tree(make_project, tmp_path)
    if use_git:
        commit_all(project.root)
    found = discover(project)
    root = project.root
    real = os.path.realpath(root)

    assert found.method == ("git" if use_git else "walk")
    assert found.nested == ["client"]
    markdown, python = parser_for("a.md"), parser_for("a.py")  # their versions move with the parsers
    assert [(c.path, c.parser, c.target) for c in found.candidates] == [
        (".github/notes.md", markdown, None),
        (".hidden.md", markdown, None),
        ("README.md", markdown, None),
        ("docs/deep/er/page.md", markdown, None),
        ("docs/draft-keep.md", markdown, None),
        ("docs/guide.md", markdown, None),
        ("inside-link.md", markdown, "README.md"),
        ("src/app.py", python, None),
        ("src/guide-link.md", markdown, "docs/guide.md"),
    ]
    for cand in found.candidates:
        st = os.stat(root / (cand.target or cand.path))
        assert (cand.size, cand.mtime_ns) == (st.st_size, st.st_mtime_ns), cand.path
        assert cand.abs_path == root / cand.path and cand.root_real == real
    assert dict(found.skipped) == {
        "undecodable_name": 1,
        "control_character_in_name": 1,
        # client/deal.md; git lists client/.kenning/config.toml too (the walk never enters a .kenning)
        "nested_project": 2 if use_git else 1,
        # .gitignore, docs/.gitignore, notes.txt; git lists a link to a folder as a file: docs-link
        "not_included": 4 if use_git else 3,
        "unsupported_type": 1,  # src/image.png
        "excluded": 1,  # drafts/wip.md
        "too_large": 1,  # big.md
        "link_outside_root": 1,  # leak.md
        "unreadable": 1,  # broken.md
    }


def test_a_candidate_carries_text_not_a_path_object(make_project):
    """A sync builds no ``Path`` per file (most of a no-op sync's time at 60,000 files) and
    sends candidates to the parsing pool: what it sends holds strings and numbers alone."""
    project = make_project({"a.md": "# A\n", "docs/b.md": "# B\n"})
    for cand in discover(project).candidates:
        sent = pickle.dumps(cand)
        assert b"pathlib" not in sent, cand
        assert pickle.loads(sent) == cand and pickle.loads(sent).abs_path == project.root / cand.path
