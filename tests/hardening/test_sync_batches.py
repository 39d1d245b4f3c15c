"""The sync commits in batches (issue 20, must-show 6): a memory save made during a long sync waits
for one batch, not for the whole sync, and succeeds; a sync killed between two batches leaves a
consistent store that the next sync completes, with the facts and the graph of a clean sync.

The sync runs in a child process whose batches are made small (10 files) and, for the first
test, slow (each holds the write lock 0.2 s longer): the real `kenning remember` then meets a
locked store. No timing is asserted: the order of the saved ids proves the interleaving."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kenning.config import init_project, load_project
from kenning.files import lock_in_use
from kenning.store.db import _wait_path, connect, transaction, yield_to_waiting_writers

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import _kill  # noqa: E402

KENNING = str(Path(sys.executable).with_name("kenning"))
WAIT = 300  # a bound for a loaded machine, never a target

_CHILD = """
import json, os, signal, sys, time
from datetime import UTC, datetime
from pathlib import Path
from kenning.config import load_project
from kenning.sync import batches
from kenning.sync.run import sync

batches.BATCH_FIRST = batches.BATCH_MIN = batches.BATCH_MAX = 10
slow, kill_after = float(sys.argv[2]), int(sys.argv[3])
write_files = batches._write_files

def slow_write(*args, **kwargs):
    applied = write_files(*args, **kwargs)
    time.sleep(slow)  # inside the batch's transaction: the write lock stays held
    return applied

committed = 0
yield_to = batches.yield_to_waiting_writers

def after_commit(conn):
    global committed
    committed += 1
    print(json.dumps({"committed": committed}), flush=True)
    if committed == kill_after:
        os.kill(os.getpid(), signal.SIGKILL)
    return yield_to(conn)

batches._write_files = slow_write
batches.yield_to_waiting_writers = after_commit
report = sync(load_project(Path(sys.argv[1])), now=datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
print(json.dumps({"batches": report.batches, "new": report.files_new, "writes": report.writes}), flush=True)
"""


def _corpus(root: Path, files: int) -> None:
    """Python modules that call and import each other across the corpus (so across batches)."""
    for i in range(files):
        j = (i * 7 + 3) % files
        (root / "pkg").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"mod{i:03d}.py").write_text(
            f'"""Module {i}: the widget quorum, part {i}."""\n\n'
            f"from pkg.mod{j:03d} import helper_{j}\n\n\n"
            f"def helper_{i}(x):\n    return helper_{j}(x) + {i}\n\n\n"
            f"class Gizmo{i}:\n    def run(self):\n        return helper_{i}(1)\n",
            encoding="utf-8",
        )
    (root / "README.md").write_text("# Widgets\n\nThe widget quorum.\n", encoding="utf-8")


def _project(tmp_path: Path, name: str, files: int) -> Path:
    root = tmp_path / name
    _corpus(root, files)
    init_project(root, name)
    (root / ".kenning" / "config.toml").write_text(_kill.LEXICAL_ONLY.format(name=name), encoding="utf-8")
    return root


def _start(root: Path, slow: float = 0.0, kill_after: int = 0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(root), str(slow), str(kill_after)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _graph(db: Path) -> set[tuple[str, str, str, str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return set(
            conn.execute(
                "SELECT a.key, b.key, e.type, e.link FROM graph_edges e"
                " JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst"
            )
        )
    finally:
        conn.close()


def _clean_copy(root: Path, tmp_path: Path) -> Path:
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns(".kenning"))
    init_project(clean, "clean")
    (clean / ".kenning" / "config.toml").write_text(_kill.LEXICAL_ONLY.format(name="clean"), encoding="utf-8")
    _kill.finish_sync(clean)
    return load_project(clean).db_path


def test_a_remember_during_a_multi_batch_sync_succeeds_between_two_batches(tmp_path):
    root = _project(tmp_path, "busy", 80)
    proc = _start(root, slow=0.2)
    assert proc.stdout is not None
    try:
        assert json.loads(proc.stdout.readline()) == {"committed": 1}, proc.stderr.read()
        saved = subprocess.run(
            [KENNING, "remember", "Saved during the sync: the quorum needs five votes.", "--project", str(root)],
            capture_output=True,
            text=True,
            timeout=WAIT,
        )
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert saved.returncode == 0, saved.stderr
    assert proc.returncode == 0, err
    report = json.loads(out.splitlines()[-1])
    assert report["new"] == 81 and report["batches"] >= 8
    db = load_project(root).db_path
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (memory,) = conn.execute("SELECT id FROM facts WHERE body LIKE '%five votes%'").fetchone()
        first, last = conn.execute("SELECT min(id), max(id) FROM facts WHERE source_kind = 'file'").fetchone()
    finally:
        conn.close()
    assert first < memory < last  # written between two of the sync's batches, not after it
    assert _kill.fact_set(db) == _kill.fact_set(_clean_copy(root, tmp_path))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL")
def test_a_sync_killed_between_two_batches_leaves_done_files_whole_and_the_next_sync_converges(tmp_path):
    root = _project(tmp_path, "killed", 60)
    proc = _start(root, kill_after=2)
    out, _ = proc.communicate(timeout=WAIT)
    assert proc.returncode == -9 and json.loads(out.splitlines()[-1]) == {"committed": 2}
    db = load_project(root).db_path
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        manifest = {r[0] for r in conn.execute("SELECT path FROM manifest")}
        located = {r[0] for r in conn.execute("SELECT DISTINCT path FROM locations")}
        graphed = {r[0] for r in conn.execute("SELECT DISTINCT coalesce(nullif(origin, ''), path) FROM graph_nodes")}
    finally:
        conn.close()
    # Two batches of ten files committed, each with its excerpts and graph: nothing more, nothing less.
    assert len(manifest) == 20 and manifest == located == graphed
    _kill.finish_sync(root)
    clean = _clean_copy(root, tmp_path)
    assert _kill.fact_set(db) == _kill.fact_set(clean)
    assert _graph(db) == _graph(clean)  # references across batches resolved as in one transaction


def test_an_edit_synced_in_batches_yields_the_graph_and_facts_of_a_clean_sync(tmp_path):
    root = _project(tmp_path, "edited", 60)
    _kill.finish_sync(root)
    for i in range(0, 60, 3):  # edits in every batch; one module removed, one renamed
        path = root / "pkg" / f"mod{i:03d}.py"
        path.write_text(path.read_text(encoding="utf-8") + f"\n\ndef extra_{i}():\n    return helper_1(2)\n")
    (root / "pkg" / "mod005.py").unlink()
    (root / "pkg" / "mod007.py").rename(root / "pkg" / "moved007.py")
    proc = _start(root)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert json.loads(out.splitlines()[-1])["batches"] >= 3
    db = load_project(root).db_path
    clean = _clean_copy(root, tmp_path)
    assert _kill.fact_set(db) == _kill.fact_set(clean)
    assert _graph(db) == _graph(clean)


def test_a_waiting_writer_flags_itself_and_a_batched_writer_lets_it_in_first(tmp_path):
    db = tmp_path / "k.db"
    sync_conn, other = connect(db, create=True), connect(db, create=True)
    order: list[str] = []
    try:
        sync_conn.execute("BEGIN IMMEDIATE")  # a batch holds the lock

        def save() -> None:
            with transaction(other):
                order.append("save")

        saver = threading.Thread(target=save)
        saver.start()
        deadline = time.monotonic() + WAIT
        while not lock_in_use(_wait_path(sync_conn)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert lock_in_use(_wait_path(sync_conn))  # it waits, and says so
        sync_conn.execute("COMMIT")
        yield_to_waiting_writers(sync_conn, at_most=WAIT)
        with transaction(sync_conn):
            order.append("next batch")
        saver.join(WAIT)
        assert order == ["save", "next batch"]
        assert not lock_in_use(_wait_path(sync_conn))  # the flag goes with the wait
        assert yield_to_waiting_writers(sync_conn) < 0.5  # nobody waits: no pause
    finally:
        sync_conn.close()
        other.close()
