"""Boundaries (issue 20, finding 3 and must-show 4): every hostile file case is handled and
reported by the sync, one bad name never stops it, and nothing outside the root is indexed."""

from __future__ import annotations

import os
import sqlite3

import pytest

from conftest import commit_all, resync
from kenning.store import bodies

SECRET = "OUTSIDE-ROOT-SECRET-7f3a"
DOC = "# Guide\n\nThe widget frobnicates the gizmo.\n"


def _all_text(project) -> str:
    # Read-only look at the store file from the test (SQL stays out of src/ outside store/).
    conn = sqlite3.connect(f"file:{project.db_path}?mode=ro", uri=True)
    bodies.register(conn)  # bodies are stored deflated (migration 0019): read their text
    try:
        rows = conn.execute("SELECT coalesce(title,''), kenning_text(body), coalesce(source_uri,'') FROM facts")
        return "\n".join(" ".join(r) for r in rows)
    finally:
        conn.close()


def _hostile_tree(make_project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    project = make_project(
        {
            "README.md": DOC,
            "blob.md": b"# Binary\n\x00\x01\x02\xff",
            "huge.md": "# Huge\n\n" + "word " * 900,  # past a document's cap: 4 x max_file_bytes
            "latin1.md": "# Caf\xe9\n\nD\xe9j\xe0 vu, na\xefve r\xe9sum\xe9.\n".encode("latin-1"),
            "broken.md": b"# Broken\n\nvalid then \xc3\x28 invalid \xff\xfe bytes\n",
            "odd name [x] & 'q' (1) \u00e9\u4e2d.md": "# Odd\n\nodd characters in the name\n",
            "/".join(f"d{i}" for i in range(40)) + "/deep.md": "# Deep\n\nnested forty levels\n",
        },
        config='name = "demo"\nmax_file_bytes = 1000\n',
    )
    root = project.root
    (root / os.fsdecode(b"l_\xe9.md")).write_bytes(b"# Latin name\n\nundecodable file name\n")
    (root / "new\nline.md").write_text("# Newline\n\nnewline in the name\n")
    os.symlink(outside / "secret.md", root / "leak.md")
    os.symlink(outside, root / "leakdir")
    os.symlink("../../outside/secret.md", root / "relative_leak.md")
    os.symlink("loop_b.md", root / "loop_a.md")
    os.symlink("loop_a.md", root / "loop_b.md")
    os.symlink("README.md", root / "inside_link.md")
    return project


@pytest.mark.parametrize("use_git", [False, True], ids=["walk", "git"])
def test_every_hostile_file_case_is_handled_and_reported(make_project, tmp_path, use_git):
    project = _hostile_tree(make_project, tmp_path)
    if use_git:
        commit_all(project.root)
    report = resync(project)  # must not raise (finding 3: a UnicodeEncodeError used to end the sync)
    assert report.discovery == ("git" if use_git else "walk")
    skipped = report.skipped
    assert skipped["undecodable_name"] == 1
    assert skipped["control_character_in_name"] == 1
    assert skipped["binary"] == 1
    assert skipped["too_large"] == 1
    # leak.md, relative_leak.md; git also lists the link leakdir (a blob), which has no suffix and so is
    # looked at as a possible script: a link out of the root (the walk neither follows nor lists it)
    assert skipped["link_outside_root"] == (3 if use_git else 2)
    assert skipped["link_loop"] == 2
    text = _all_text(project)
    assert SECRET not in text
    assert "frobnicates" in text
    for marker in ("Caf", "valid then", "odd characters in the name", "nested forty levels"):
        assert marker in text, marker
    assert "undecodable file name" not in text and "newline in the name" not in text
    assert "Binary" not in text
    assert report.to_json()["coverage"]["skipped"]["undecodable_name"] == 1
    again = resync(project)
    assert again.writes == 0


def test_one_bad_name_does_not_stop_the_others(make_project):
    project = make_project({"a.md": DOC, "z.md": "# Zed\n\nthe last file\n"})
    (project.root / os.fsdecode(b"m_\xff\xfe.md")).write_bytes(b"# M\n")
    report = resync(project)
    assert report.files_new == 2 and report.skipped["undecodable_name"] == 1
    assert "the last file" in _all_text(project)


def test_a_link_swapped_to_outside_after_a_sync_is_retired_not_followed(make_project, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text(f"# Secret\n\n{SECRET}\n")
    project = make_project({"README.md": DOC, "notes.md": "# Notes\n\nplain notes\n"})
    resync(project)
    (project.root / "notes.md").unlink()
    os.symlink(outside, project.root / "notes.md")
    report = resync(project)
    assert report.skipped["link_outside_root"] == 1 and report.retired >= 1
    assert SECRET not in _all_text(project)
