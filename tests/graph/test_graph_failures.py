"""kenning's own bug on one file's relations no longer stops a sync in the graph (a cold sync of
{fmt} once stopped in the resolution on an IndexError): that file is indexed without its
references' edges, named in the report (``graph_failed``), and every other file's graph is the
one a sync without the bug builds. A failure of the store itself still stops the sync."""

from __future__ import annotations

import os
import sqlite3

import pytest
import test_graph_cold_helper as cold_helper
from graph_edges import callees
from test_graph_cold_helper import _synced_alone, pooled  # noqa: F401 (a fixture)
from test_graph_cold_resolution import NOW, _graph, _project, small_batches  # noqa: F401 (a fixture)

from conftest import resync
from kenning.config import load_project
from kenning.graph import build, helper, resolve
from kenning.interfaces.cli.plain_project import sync_text
from kenning.sync.run import sync
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "util.py": "def helper(x):\n    return x + 1\n",
    "good.py": "from util import helper\n\n\ndef caller():\n    return helper(1)\n",
    "bad.py": "from util import helper\n\n\ndef caller():\n    return helper(2)\n",
}


def _failing_on(monkeypatch: pytest.MonkeyPatch, path: str, error: Exception) -> None:
    """``narrow`` (which picks a call's target) raising ``error`` on the references of ``path``:
    a bug of the resolution's on that one file."""
    real = resolve.narrow

    def fragile(found, target, hint, qualified, src_path, expanded):
        if src_path == path:
            raise error
        return real(found, target, hint, qualified, src_path, expanded)

    monkeypatch.setattr(resolve, "narrow", fragile)


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_file_whose_references_the_resolution_fails_on_is_named_and_the_others_resolve(
    make_project, monkeypatch, engine
):
    project = make_project(FILES, name="graphfail", config=engine_config(engine, "graphfail"))
    _failing_on(monkeypatch, "bad.py", IndexError("list index out of range"))
    report = resync(project)

    assert report.graph_failed == {"bad.py": "IndexError: list index out of range"}
    assert report.indexed == 3  # its excerpts are indexed all the same
    assert ("util.helper", "extracted") in callees(project, "good.caller")
    assert callees(project, "bad.caller") == set()  # no edge rather than a guess from a broken pass
    data = report.to_json()
    assert data["graph_failed"] == {"files": 1, "first": {"bad.py": "IndexError: list index out of range"}}
    assert "graph: 1 file(s) indexed without their relations" in sync_text(data)
    assert "bad.py (IndexError: list index out of range)" in sync_text(data)


def test_a_cold_sync_in_batches_keeps_every_other_files_edges(tmp_path, monkeypatch, small_batches):  # noqa: F811
    """The deferred resolution of a cold sync (``resolve_held``): one module's references fail;
    the graph is a clean sync's but for the edges of that module's references."""
    clean = _project(tmp_path / "clean")
    assert sync(load_project(clean), now=NOW, embed=False).graph_failed == {}
    broken = _project(tmp_path / "broken")
    _failing_on(monkeypatch, "pkg/mod005.py", KeyError("hint"))
    report = sync(load_project(broken), now=NOW, embed=False)

    assert report.batches >= 5  # deferred: resolved after the last batch
    assert report.graph_failed == {"pkg/mod005.py": "KeyError: 'hint'"}
    (clean_edges, clean_refs), (edges, refs) = _graph(clean), _graph(broken)
    assert refs == clean_refs  # the references are all stored: only their resolution failed
    # (key, key, type, link, source kind, source URI, fingerprint, line, origin, reference id)
    lost = [e for e in clean_edges if e[9] and e[5].startswith("pkg/mod005.py:")]
    assert {e[2] for e in lost} == {"imports", "calls"}  # the module's references, all of them
    kept = [e for e in clean_edges if e not in lost]
    assert edges == kept


def test_a_file_the_graph_cannot_take_in_is_named_and_the_others_are_built(make_project, monkeypatch):
    real = build._add_file

    def fragile(writer, path, *args):
        if path == "bad.py":
            raise AttributeError("'NoneType' object has no attribute 'qualname'")
        return real(writer, path, *args)

    monkeypatch.setattr(build, "_add_file", fragile)
    project = make_project(FILES, name="graphtake")
    report = resync(project)
    assert report.graph_failed == {"bad.py": "AttributeError: 'NoneType' object has no attribute 'qualname'"}
    assert ("util.helper", "extracted") in callees(project, "good.caller")


def test_the_stores_own_failure_still_stops_the_sync_and_changes_nothing(make_project, monkeypatch):
    project = make_project(FILES, name="graphdisk")
    _failing_on(monkeypatch, "bad.py", sqlite3.OperationalError("disk I/O error"))
    with pytest.raises(Exception) as stopped:
        resync(project)
    assert "disk I/O error" in str(stopped.value) or isinstance(stopped.value.__cause__, sqlite3.OperationalError)
    monkeypatch.undo()
    report = resync(project)  # the failed sync wrote nothing: this one reads every file as new
    assert report.files_new == 3 and report.graph_failed == {}


def test_a_helpers_share_names_the_file_it_failed_on(tmp_path, monkeypatch, pooled):  # noqa: F811
    """The failure happens in the pool worker that resolves the last share of a cold sync's
    references (``graph.helper``): the sync names the file and writes every other edge."""
    alone, helped = _synced_alone(tmp_path, monkeypatch)
    _failing_on(monkeypatch, "pkg/use11.py", IndexError("list index out of range"))
    cold_helper.LOG = tmp_path / "helper.log"
    monkeypatch.setattr(helper, "resolve_share", cold_helper.recording_share)
    try:
        report = sync(load_project(helped), now=NOW, embed=False)
    finally:
        cold_helper.LOG = None

    pid, _ = (tmp_path / "helper.log").read_text(encoding="utf-8").split()
    assert int(pid) != os.getpid()  # the share was resolved in a worker
    assert report.graph_failed == {"pkg/use11.py": "IndexError: list index out of range"}
    conn = sqlite3.connect(f"file:{load_project(alone).db_path}?mode=ro", uri=True)
    try:  # the references of use11.py, by id (both trees number them alike)
        query = "SELECT r.id FROM graph_refs r JOIN graph_nodes n ON n.id = r.src WHERE n.path = 'pkg/use11.py'"
        lost = {ref for (ref,) in conn.execute(query)}
    finally:
        conn.close()
    everything = [e[1:] for e in cold_helper._state(alone)[0]]  # (src, dst, type, link, reference)
    assert any(e[4] in lost for e in everything)
    # (in another order: the failing chunk is resolved again file by file)
    assert sorted(e[1:] for e in cold_helper._state(helped)[0]) == sorted(e for e in everything if e[4] not in lost)


def test_many_failed_files_are_counted_and_the_first_named():
    from kenning.sync.report import GRAPH_FAILED_NAMED, SyncReport

    report = SyncReport(project="p", discovery="git")
    report.graph_failed = {f"src/f{i:02d}.h": "IndexError: list index out of range" for i in range(25)}
    data = report.to_json()
    assert data["graph_failed"]["files"] == 25
    assert list(data["graph_failed"]["first"]) == [f"src/f{i:02d}.h" for i in range(GRAPH_FAILED_NAMED)]
    line = next(line for line in sync_text(data).splitlines() if line.startswith("graph:"))
    assert line.startswith("graph: 25 file(s) indexed without their relations")
    assert "src/f02.h (IndexError: list index out of range), … and 22 more (see --json)" in line
