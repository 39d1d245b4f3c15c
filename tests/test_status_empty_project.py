"""A first sync of a project with nothing to index is a sync all the same: `status` no longer
says "no sync yet" after it, and a second sync still writes nothing (the store's bytes stay)."""

from __future__ import annotations

from conftest import resync
from kenning.graph.walk import NO_RELATIONS
from kenning.status import project_status


def test_an_empty_project_synced_is_said_synced_and_a_resync_writes_nothing(make_project):
    project = make_project({})
    report = resync(project)
    assert report.eligible == 0 and report.indexed == 0
    graph = project_status(project)["engines"]["graph"]
    assert graph == {"available": False, "reason": NO_RELATIONS}  # before: "graph not built: no sync yet"
    before = project.db_path.read_bytes()
    resync(project)
    assert project.db_path.read_bytes() == before


def test_a_project_whose_files_are_all_skipped_is_said_synced(make_project):
    project = make_project({"logo.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4})
    resync(project)
    assert project_status(project)["engines"]["graph"]["reason"] == NO_RELATIONS
