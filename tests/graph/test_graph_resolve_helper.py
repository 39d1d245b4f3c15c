"""A cold sync's references resolved on two cores (``graph.resolve_helper``): a helper process
decides the last part of them while the sync resolves the first and writes every edge. The
stored rows are the ones one process writes, ids included, and a helper that fails leaves its
references to the sync. The thresholds are lowered so that a small tree uses a helper."""

from __future__ import annotations

import os
import signal
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kenning.config import init_project, load_project
from kenning.graph import resolve_helper
from kenning.sync import batches
from kenning.sync.run import sync

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
CONFIG = 'name = "{name}"\n\n[dense]\nenabled = false\n'
FILES = 40


def _project(root: Path) -> Path:
    """A chain of modules, each importing the previous one's class and function, deriving from
    the class and calling a method two classes up on ``self``, plus a test, a README linking
    modules and an ADR superseding another (the superseded decisions are marked at the end)."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "mod000.py").write_text(
        "def helper_0(x):\n    return x\n\n\nclass Base0:\n    def own_0(self):\n        return helper_0(0)\n",
        encoding="utf-8",
    )
    for i in range(1, FILES):
        (pkg / f"mod{i:03d}.py").write_text(
            f"from pkg.mod{i - 1:03d} import Base{i - 1}, helper_{i - 1}\n\n\n"
            f"def helper_{i}(x):\n    return helper_{i - 1}(x) + {i}\n\n\n"
            f"class Base{i}(Base{i - 1}):\n    def own_{i}(self, other):\n"
            f"        other.run()\n        return self.own_{max(i - 2, 0)}()\n",
            encoding="utf-8",
        )
    (root / "tests").mkdir()
    (root / "tests" / "test_mod.py").write_text(
        "from pkg.mod001 import helper_1\n\n\ndef test_helper():\n    assert helper_1(2)\n", encoding="utf-8"
    )
    (root / "README.md").write_text("# Chain\n\nSee [one](pkg/mod000.py) and [two](pkg/mod002).\n", encoding="utf-8")
    decisions = root / "docs" / "decisions"
    decisions.mkdir(parents=True)
    (decisions / "0001-chain.md").write_text(
        "# 1. A chain of classes\n\n## Status\n\nAccepted\n\n## Decision\n\nSee [it](../../pkg/mod003.py).\n",
        encoding="utf-8",
    )
    (decisions / "0002-flat.md").write_text(
        "# 2. Flat classes\n\n## Status\n\nAccepted\n\nSupersedes [ADR 1](0001-chain.md)\n\n## Decision\n\nFlat.\n",
        encoding="utf-8",
    )
    init_project(root, root.name)
    (root / ".kenning" / "config.toml").write_text(CONFIG.format(name=root.name), encoding="utf-8")
    return root


def _rows(root: Path) -> tuple[list[tuple], ...]:
    """The graph's rows and the excerpts' (their dates left out: two trees, two file times)."""
    conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
    try:
        graph = tuple(
            conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
            for table in ("graph_nodes", "graph_refs", "graph_edges")
        )
        facts = conn.execute(
            "SELECT id, type, title, path, source_uri, content_hash, lifecycle, superseded_by FROM facts ORDER BY id"
        )
        return (*graph, facts.fetchall())
    finally:
        conn.close()


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of eight files: the cold deferral begins after the first one, and the helper with it."""
    for name in ("BATCH_FIRST", "BATCH_MIN", "BATCH_MAX"):
        monkeypatch.setattr(batches, name, 8)


@pytest.fixture
def one_process(tmp_path: Path, small_batches: None) -> tuple[list[tuple], ...]:
    """What a cold sync of the tree stores when it resolves in one process (the tree is small)."""
    root = _project(tmp_path / "one")
    sync(load_project(root), now=NOW, embed=False)
    return _rows(root)


@pytest.fixture
def helped(monkeypatch: pytest.MonkeyPatch) -> list[resolve_helper.Helper | None]:
    """Thresholds lowered so that this small tree's sync starts and uses a helper; the list
    collects the helper each resolution was given."""
    monkeypatch.setattr(resolve_helper, "HELPER_MIN_REFS", 0)
    monkeypatch.setattr(resolve_helper, "HELPER_CHUNK", 16)
    given: list[resolve_helper.Helper | None] = []
    real = resolve_helper.resolve_rows

    def resolve_rows(resolver, rows, helper):  # noqa: ANN001, ANN202
        given.append(helper)
        return real(resolver, rows, helper)

    monkeypatch.setattr(resolve_helper, "resolve_rows", resolve_rows)
    return given


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sync takes no chunk of the helper's and waits for each as long as it takes."""
    monkeypatch.setattr(resolve_helper._Shared, "steal", lambda self: None)
    monkeypatch.setattr(resolve_helper, "WAIT_SECONDS", 60.0)


def test_a_helper_that_answers_every_chunk_stores_what_one_process_stores(tmp_path, one_process, helped, patient):
    root = _project(tmp_path / "two")
    sync(load_project(root), now=NOW, embed=False)
    assert len(helped) == 1 and helped[0] is not None
    helper = helped[0]
    assert helper.seconds is not None and helper.answered > 3  # it answered every chunk of its share
    rows = _rows(root)
    assert rows == one_process  # every row, ids included
    assert len(rows[2]) > 200
    assert any(fact[6] == "superseded" for fact in rows[3])  # ADR 1, marked after both shares


def test_a_helper_that_gets_no_core_leaves_its_chunks_to_the_sync(tmp_path, monkeypatch, one_process, helped):
    """A helper stopped (``SIGSTOP``: a machine whose cores are all busy) answers nothing: the
    sync takes every chunk of its share from the back, then the first after a moment's wait."""
    real_begin = resolve_helper.Helper.begin

    def begin_stopped(self, stamp, chunks):  # noqa: ANN001, ANN202
        os.kill(self._process.pid, signal.SIGSTOP)
        return real_begin(self, stamp, chunks)

    monkeypatch.setattr(resolve_helper.Helper, "begin", begin_stopped)
    root = _project(tmp_path / "stopped")
    sync(load_project(root), now=NOW, embed=False)
    assert len(helped) == 1 and helped[0] is not None and helped[0].answered == 0
    assert _rows(root) == one_process


def test_a_helper_that_died_before_its_job_leaves_it_to_the_sync(tmp_path, monkeypatch, one_process, helped):
    real_begin = resolve_helper.Helper.begin

    def begin_dead(self, stamp, chunks):  # noqa: ANN001, ANN202
        self._process.kill()
        self._process.wait()
        return real_begin(self, stamp, chunks)

    monkeypatch.setattr(resolve_helper.Helper, "begin", begin_dead)
    root = _project(tmp_path / "dead")
    sync(load_project(root), now=NOW, embed=False)
    assert len(helped) == 1 and helped[0] is not None and helped[0].seconds is None
    assert _rows(root) == one_process


def test_a_helper_that_fails_midway_leaves_the_rest_to_the_sync(tmp_path, monkeypatch, one_process, helped, patient):
    """The helper answers its first chunk, then fails on the second (given no ids): the sync
    writes the first, then resolves every other one itself."""
    real_begin = resolve_helper.Helper.begin

    def begin_broken(self, stamp, chunks):  # noqa: ANN001, ANN202
        return real_begin(self, stamp, [chunks[0], None, *chunks[2:]])

    monkeypatch.setattr(resolve_helper.Helper, "begin", begin_broken)
    root = _project(tmp_path / "midway")
    sync(load_project(root), now=NOW, embed=False)
    assert helped[0] is not None and helped[0].answered == 1 and helped[0].seconds is None
    assert _rows(root) == one_process


def test_a_small_cold_sync_starts_no_helper(tmp_path, small_batches, monkeypatch):
    started: list[object] = []
    monkeypatch.setattr(resolve_helper, "Helper", lambda path: started.append(path))
    sync(load_project(_project(tmp_path / "small")), now=NOW, embed=False)
    assert started == []
