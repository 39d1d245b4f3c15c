"""A file swapped for a link between the sync's discovery and its read is never followed (issue 20:
nothing outside the root is ever read). Discovery runs for real, then, before anything is read, a
file (or the folder holding it, or a file swapped for a FIFO) is replaced; the read is the
sync's own: the swapped path is refused (`unreadable`) and no byte from outside reaches the
store. A link inside the root, accepted by discovery, is still read."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

import kenning.sync.plan as sync_plan
import kenning.sync.run as sync_run
from conftest import resync
from kenning.store import bodies

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and FIFOs")

SECRET = "SECRET-OUTSIDE-THE-PROJECT token 7f3a"


def _bodies(project) -> str:
    conn = sqlite3.connect(f"file:{project.db_path}?mode=ro", uri=True)
    bodies.register(conn)  # bodies are stored deflated (migration 0019): read their text
    try:
        return "\n".join(r[0] for r in conn.execute("SELECT title || ' ' || kenning_text(body) FROM facts"))
    finally:
        conn.close()


def _swap_after_discovery(monkeypatch, swap) -> None:
    real = sync_run.discover

    def discover_then_swap(project):
        found = real(project)
        swap(project.root)
        return found

    monkeypatch.setattr(sync_run, "discover", discover_then_swap)  # a first sync's
    monkeypatch.setattr(sync_plan, "discover", discover_then_swap)  # any other's


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    (folder / "docs").mkdir(parents=True)
    (folder / "notes.md").write_text(f"# Outside\n\n{SECRET}\n", encoding="utf-8")
    (folder / "docs" / "notes.md").write_text(f"# Outside docs\n\n{SECRET}\n", encoding="utf-8")
    return folder


FILES = {
    "notes.md": "# Notes\n\nThe widget quorum.\n",
    "docs/notes.md": "# Docs\n\nThe gizmo ledger.\n",
    "README.md": "# Readme\n\nA demo of the budget socket.\n",
}


def test_a_file_swapped_for_a_link_out_after_discovery_is_not_followed(make_project, outside, monkeypatch):
    project = make_project(FILES)

    def swap(root: Path) -> None:
        (root / "notes.md").unlink()
        os.symlink(outside / "notes.md", root / "notes.md")

    _swap_after_discovery(monkeypatch, swap)
    report = resync(project)
    assert report.skipped.get("unreadable") == 1
    text = _bodies(project)
    assert SECRET not in text and "gizmo ledger" in text and "budget socket" in text


def test_a_folder_swapped_for_a_link_out_after_discovery_is_not_followed(make_project, outside, monkeypatch):
    project = make_project(FILES)

    def swap(root: Path) -> None:
        shutil.rmtree(root / "docs")
        os.symlink(outside / "docs", root / "docs")

    _swap_after_discovery(monkeypatch, swap)
    report = resync(project)
    assert report.skipped.get("unreadable") == 1
    text = _bodies(project)
    assert SECRET not in text and "widget quorum" in text


def test_a_file_swapped_for_a_fifo_after_discovery_is_refused_without_blocking(make_project, monkeypatch):
    project = make_project(FILES)

    def swap(root: Path) -> None:
        (root / "README.md").unlink()
        os.mkfifo(root / "README.md")

    _swap_after_discovery(monkeypatch, swap)
    report = resync(project)  # an open that waited for a writer would hang here
    assert report.skipped.get("unreadable") == 1
    assert "widget quorum" in _bodies(project)


def test_a_link_inside_the_root_is_still_read(make_project):
    project = make_project(FILES)
    os.symlink("docs/notes.md", project.root / "alias.md")
    report = resync(project)
    assert report.skipped.get("unreadable", 0) == 0 and report.files_new == 4
    conn = sqlite3.connect(f"file:{project.db_path}?mode=ro", uri=True)
    try:
        assert conn.execute("SELECT count(*) FROM locations WHERE path = 'alias.md'").fetchone()[0] == 1
    finally:
        conn.close()


def test_freshness_never_follows_a_file_swapped_for_a_link_after_its_check(make_project, outside, monkeypatch):
    """At read, freshness checks a changed file's path, then reads it: a file swapped for a link out
    of the root in between is refused (served as gone), never hashed or re-split from outside."""
    import kenning.files as files
    from conftest import NOW, bump_mtime
    from kenning.answer.search import SearchOptions, search_project
    from kenning.records import FreshnessState

    project = make_project(FILES)
    resync(project)
    notes = project.root / "notes.md"
    notes.write_text(FILES["notes.md"] + "\nOne more line.\n", encoding="utf-8")
    bump_mtime(notes)
    checked = files.inside_root
    swapped: list[str] = []

    def check_then_swap(root_real: str, path: str) -> str | None:
        real = checked(root_real, path)
        if path.endswith("notes.md") and not swapped and real is not None:
            notes.unlink()
            os.symlink(outside / "notes.md", notes)
            swapped.append(path)
        return real

    monkeypatch.setattr(files, "inside_root", check_then_swap)
    answer = search_project(project, "widget quorum", SearchOptions(limit=5, include_missing=True), now=NOW)
    assert swapped, "the swap ran between the check and the read"
    states = {e.fact.source.uri.split(":")[0].split("#")[0]: e.freshness.state for e in answer.excerpts}
    assert states.get("notes.md") == FreshnessState.SOURCE_MISSING
