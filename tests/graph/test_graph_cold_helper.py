"""A first sync's references resolved by two processes (``graph.helper``): the sync's and a
worker of the pool that parsed its files. The graph is the one a single process builds, edge
ids included, decisions superseded included; the share really runs in the worker; a helper
that fails leaves the sync to resolve its share itself, with the same graph."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from graph_repo import ADR_3, ADR_7
from test_graph_cold_resolution import NOW, _project

from kenning.config import load_project
from kenning.graph import helper, resolve
from kenning.ingest import read
from kenning.sync import batches
from kenning.sync.run import sync

LOG: Path | None = None  # where ``recording_share`` writes, set before the pool forks
_resolve_share = helper.resolve_share


def recording_share(path: str, share: tuple[int, int, int], stamp: str) -> helper.Share:
    """``resolve_share`` that records the process it ran in (module level: the pool pickles it by name)."""
    assert LOG is not None
    with LOG.open("a", encoding="utf-8") as log:
        log.write(f"{os.getpid()} {share[2]}\n")
    return _resolve_share(path, share, stamp)


def failing_share(path: str, share: tuple[int, int, int], stamp: str) -> helper.Share:
    raise sqlite3.OperationalError("unable to open database file")


def _tree(root: Path) -> Path:
    """``_project``'s modules; modules calling a method on a value another module binds (a
    chunk resolves those last: the helper's share must begin where a chunk does); and two
    decisions whose ``supersedes`` references come last."""
    _project(root)
    (root / "pkg" / "registry.py").write_text(
        "class Site:\n    def register(self, model):\n        return model\n\n\nSITE = Site()\n", encoding="utf-8"
    )
    for i in range(12):
        (root / "pkg" / f"use{i:02d}.py").write_text(
            f"from pkg.registry import SITE\n\n\ndef use_{i}():\n    SITE.register({i})\n    return helper_{i}(1)\n",
            encoding="utf-8",
        )
    adr = root / "zz" / "adr"
    adr.mkdir(parents=True)
    (adr / "0003-bm25-only.md").write_text(ADR_3, encoding="utf-8")
    (adr / "0007-fuse-rankings.md").write_text(ADR_7, encoding="utf-8")
    return root


def _state(root: Path) -> tuple[list[tuple], list[tuple]]:
    """Every edge as served, by id (its ends by id), and every excerpt's lifecycle."""
    conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
    try:
        edges = conn.execute("SELECT id, src, dst, type, link, ref_id FROM graph_edges_sourced ORDER BY id").fetchall()
        facts = conn.execute("SELECT id, lifecycle, superseded_by FROM facts ORDER BY id").fetchall()
    finally:
        conn.close()
    return edges, facts


def _synced_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``_tree`` synced with no helper, and a copy of it not synced yet, a helper now offered."""
    alone = _tree(tmp_path / "alone")
    other = tmp_path / "other"
    shutil.copytree(alone, other)
    monkeypatch.setattr(helper, "HELPED_FROM", 10**9)
    sync(load_project(alone), now=NOW, embed=False)
    monkeypatch.setattr(helper, "HELPED_FROM", 1)
    return alone, other


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool for a small tree, batches of eight files (a cold sync in one batch resolves as it
    goes), a helper for a few references, and chunks of seven (so that the helper's share
    begins at a chunk's start that is not the first)."""
    for name in ("BATCH_FIRST", "BATCH_MIN", "BATCH_MAX"):
        monkeypatch.setattr(batches, name, 8)
    monkeypatch.setattr(read, "PARALLEL_FROM", 2)
    monkeypatch.setattr(helper, "HELPED_FROM", 1)
    monkeypatch.setattr(resolve, "RESOLVE_BATCH", 7)
    monkeypatch.setattr(helper, "RESOLVE_BATCH", 7)


def test_a_helper_resolves_a_share_in_a_pool_worker_into_the_graph_one_process_builds(tmp_path, monkeypatch, pooled):
    global LOG
    alone, helped = _synced_alone(tmp_path, monkeypatch)
    LOG = tmp_path / "helper.log"
    monkeypatch.setattr(helper, "resolve_share", recording_share)
    try:
        report = sync(load_project(helped), now=NOW, embed=False)
    finally:
        LOG = None

    runs = (tmp_path / "helper.log").read_text(encoding="utf-8").split()
    assert len(runs) == 2 and int(runs[0]) != os.getpid() and int(runs[1]) > 0  # one share, in a worker
    edges, facts = _state(helped)
    assert (edges, facts) == _state(alone)
    assert report.graph["edges"] == len(edges) > 80
    assert any(kind == "supersedes" for _, _, _, kind, _, _ in edges)
    assert any(lifecycle == "superseded" for _, lifecycle, _ in facts)


def test_a_helper_that_fails_leaves_its_share_to_the_sync(tmp_path, monkeypatch, pooled):
    alone, failed = _synced_alone(tmp_path, monkeypatch)
    monkeypatch.setattr(helper, "resolve_share", failing_share)
    sync(load_project(failed), now=NOW, embed=False)
    assert _state(failed) == _state(alone)


def test_no_helper_without_a_pool_forked_before_the_store(tmp_path, monkeypatch, pooled):
    """A sync whose store exists already forks its pool with the store open: no share leaves it."""
    root = _tree(tmp_path / "again")
    offered: list[object] = []
    real = helper.offered

    def spy(rows, offload, path, stamp):  # noqa: ANN001, ANN202
        offered.append(offload)
        return real(rows, offload, path, stamp)

    monkeypatch.setattr(helper, "offered", spy)
    sync(load_project(root), now=NOW, embed=False)
    assert offered and offered[-1] is not None  # the first sync: its pool may help
    for path in (root / ".kenning").glob("kenning.db*"):
        path.unlink()
    load_project(root).db_path.touch()  # a store that exists (empty) when the sync starts
    offered.clear()
    sync(load_project(root), now=NOW, embed=False)
    assert offered == [None]
