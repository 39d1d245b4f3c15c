"""A cold sync resolves its references once, in its last batch, against every node (issue 19):
no batch resolves references that a later batch would resolve again. The graph is the one a
sync in a single batch builds, edge for edge; a sync stopped between two batches leaves the
references unresolved and says so, and the next sync, even with nothing else to do, resolves
them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from graph_edges import dangling

from kenning.config import init_project, load_project
from kenning.graph import resolve
from kenning.graph.pending import pending
from kenning.store.db import connect
from kenning.sync import batches
from kenning.sync.run import sync

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CONFIG = 'name = "{name}"\n\n[dense]\nenabled = false\n'


def _project(root: Path, files: int = 40) -> Path:
    """Modules that import and call each other across the tree (so across batches), methods
    called through unknown receivers, a test calling code, and Markdown linking a module."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    for i in range(files):
        j = (i * 7 + 3) % files
        (pkg / f"mod{i:03d}.py").write_text(
            f'"""Module {i}."""\n\nfrom pkg.mod{j:03d} import helper_{j}\n\n\n'
            f"def helper_{i}(x):\n    return helper_{j}(x) + {i}\n\n\n"
            f"class Gizmo{i}:\n    def run(self, other):\n        return other.run(helper_{i}(1))\n",
            encoding="utf-8",
        )
    (root / "tests").mkdir()
    (root / "tests" / "test_mod.py").write_text(
        "from pkg.mod001 import helper_1\n\n\ndef test_helper():\n    assert helper_1(2)\n", encoding="utf-8"
    )
    (root / "README.md").write_text("# Gizmos\n\nSee [the first module](pkg/mod000.py).\n", encoding="utf-8")
    init_project(root, root.name)
    (root / ".kenning" / "config.toml").write_text(CONFIG.format(name=root.name), encoding="utf-8")
    return root


def _graph(root: Path) -> tuple[list[tuple], list[tuple]]:
    """Every edge (by node keys, with its reference) and every reference, as sorted lists."""
    conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
    try:
        edges = conn.execute(
            "SELECT a.key, b.key, e.type, e.link, e.source_kind, e.source_uri, e.fingerprint, e.line, e.origin, "
            "coalesce(e.ref_id, 0) FROM graph_edges_sourced e "
            "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst"
        ).fetchall()
        refs = conn.execute("SELECT * FROM graph_refs").fetchall()
    finally:
        conn.close()
    return sorted(edges), sorted(refs)


def _ref_edges(root: Path) -> int:
    conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM graph_edges WHERE ref_id IS NOT NULL").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BATCH_FIRST", "BATCH_MIN", "BATCH_MAX"):
        monkeypatch.setattr(batches, name, 8)


def test_a_cold_sync_in_batches_resolves_each_reference_once_into_the_graph_of_one_batch(
    tmp_path, monkeypatch, small_batches
):
    one = _project(tmp_path / "one")
    monkeypatch.setattr(batches, "BATCH_FIRST", 1000)
    assert sync(load_project(one), now=NOW, embed=False).batches == 1

    many = _project(tmp_path / "many")
    monkeypatch.setattr(batches, "BATCH_FIRST", 8)
    resolved: list[tuple[list[int], bool]] = []
    unresolved_between: list[int] = []
    real_resolve, real_yield = resolve.Resolver.resolve, batches.yield_to_waiting_writers
    real_resolve_rows = resolve.Resolver.resolve_rows

    def recording(self, ref_ids, *, again=False):
        resolved.append((list(ref_ids), again))
        return real_resolve(self, ref_ids, again=again)

    def recording_rows(self, rows, **kwargs):  # the references a cold sync kept as it wrote them
        resolved.append(([row.id for row in rows], False))
        return real_resolve_rows(self, rows, **kwargs)

    def between(conn):  # after each batch but the last committed
        unresolved_between.append(_ref_edges(many))
        assert pending(conn, load_project(many)).resolve
        return real_yield(conn)

    monkeypatch.setattr(resolve.Resolver, "resolve", recording)
    monkeypatch.setattr(resolve.Resolver, "resolve_rows", recording_rows)
    monkeypatch.setattr(batches, "yield_to_waiting_writers", between)
    report = sync(load_project(many), now=NOW, embed=False)

    assert report.batches >= 5
    assert unresolved_between == [0] * (report.batches - 1)  # nothing resolved before the last batch
    ids = [ref_id for batch, _ in resolved for ref_id in batch]
    assert not any(again for _, again in resolved) and len(ids) == len(set(ids))  # each once, none again
    assert ids == sorted(ids)  # in id order: the edges are numbered as a one-batch sync numbers them
    edges, refs = _graph(many)
    assert len(ids) == len(refs)
    assert (edges, refs) == _graph(one)
    assert {e[2] for e in edges} >= {"imports", "calls", "defines", "tested_by", "links_to"}
    conn = connect(load_project(many).db_path)
    try:
        assert not pending(conn, load_project(many))  # the deferral is over
    finally:
        conn.close()


def test_references_left_unresolved_by_a_stopped_cold_sync_are_resolved_by_the_next_sync(
    tmp_path, monkeypatch, small_batches
):
    clean = _project(tmp_path / "clean")
    sync(load_project(clean), now=NOW, embed=False)
    root = _project(tmp_path / "stopped")
    committed = []

    def stop_after_two(conn):
        committed.append(1)
        if len(committed) == 2:
            raise KeyboardInterrupt  # stopped between two batches, as by Ctrl-C
        return None

    monkeypatch.setattr(batches, "yield_to_waiting_writers", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        sync(load_project(root), now=NOW, embed=False)
    edges, refs = _graph(root)
    assert refs and _ref_edges(root) == 0  # references stored, none resolved yet
    conn = connect(load_project(root).db_path)
    try:
        assert pending(conn, load_project(root)).resolve
    finally:
        conn.close()

    monkeypatch.setattr(batches, "yield_to_waiting_writers", lambda conn: None)
    sync(load_project(root), now=NOW, embed=False)  # reads the remaining files, then resolves all
    assert _graph(root) == _graph(clean)

    # Stopped again, then the files it had not reached deleted: the next sync has no file to
    # read, and still resolves the references.
    again = _project(tmp_path / "again")
    committed.clear()
    monkeypatch.setattr(batches, "yield_to_waiting_writers", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        sync(load_project(again), now=NOW, embed=False)
    conn = sqlite3.connect(load_project(again).db_path)
    done = {r[0] for r in conn.execute("SELECT path FROM manifest")}
    conn.close()
    for path in [*again.glob("pkg/*.py"), *again.glob("tests/*.py"), again / "README.md"]:
        if path.relative_to(again).as_posix() not in done:
            path.unlink()
    assert _ref_edges(again) == 0
    monkeypatch.setattr(batches, "yield_to_waiting_writers", lambda conn: None)
    report = sync(load_project(again), now=NOW, embed=False)
    assert (report.files_new, report.batches) == (0, 1)
    assert _ref_edges(again) > 0
    reduced = tmp_path / "reduced"
    reduced.mkdir()
    for path in done:
        (reduced / path).parent.mkdir(parents=True, exist_ok=True)
        (reduced / path).write_bytes((again / path).read_bytes())
    init_project(reduced, "reduced")
    (reduced / ".kenning" / "config.toml").write_text(CONFIG.format(name="reduced"), encoding="utf-8")
    sync(load_project(reduced), now=NOW, embed=False)
    assert _graph(again) == _graph(reduced)


def test_a_cold_sync_stopped_while_it_resolves_leaves_the_edges_indexes_and_the_next_sync_resolves(
    tmp_path, monkeypatch, small_batches
):
    """The last batch writes the resolved edges with the indexes of ``graph_edges`` dropped and
    builds them after (``graph_write.edge_indexes_built_after``): stopped in between, its
    transaction rolls back to the indexes of the schema; a completed sync has them too."""
    clean = _project(tmp_path / "clean")
    sync(load_project(clean), now=NOW, embed=False)
    indexes = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'graph_edges' ORDER BY name"
    schema = sqlite3.connect(load_project(clean).db_path).execute(indexes).fetchall()
    assert len(schema) == 3

    root = _project(tmp_path / "stopped")
    real_resolve_one = resolve.Resolver._resolve_one
    seen: list[int] = []

    def stop_midway(self, row, candidates):
        seen.append(row.id)
        if len(seen) == 60:
            self.writer.flush()  # some edges written, the indexes not yet built again
            raise KeyboardInterrupt
        return real_resolve_one(self, row, candidates)

    monkeypatch.setattr(resolve.Resolver, "_resolve_one", stop_midway)
    with pytest.raises(KeyboardInterrupt):
        sync(load_project(root), now=NOW, embed=False)
    conn = sqlite3.connect(load_project(root).db_path)
    assert conn.execute(indexes).fetchall() == schema
    # The resolution has a transaction of its own: every file, the last batch's too, is written,
    # no reference is resolved, and the next sync is told to resolve them.
    manifest = {row[0] for row in conn.execute("SELECT path FROM manifest")}
    assert manifest == {
        p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and ".kenning" not in p.parts
    }
    assert conn.execute("SELECT count(*) FROM graph_edges WHERE ref_id IS NOT NULL").fetchone()[0] == 0
    assert dangling(conn) == []
    conn.close()
    store = connect(load_project(root).db_path)
    try:
        assert pending(store, load_project(root)).resolve
    finally:
        store.close()
    monkeypatch.setattr(resolve.Resolver, "_resolve_one", real_resolve_one)
    sync(load_project(root), now=NOW, embed=False)
    assert _graph(root) == _graph(clean)
    conn = sqlite3.connect(load_project(root).db_path)
    assert conn.execute(indexes).fetchall() == schema
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_cold_sync_resolves_the_references_it_wrote_without_reading_them_back(tmp_path, monkeypatch, small_batches):
    """The last batch resolves the files' references from the rows the sync kept as it wrote
    them (``graph_build.Unresolved``), reading back only the ledger's, written by that batch;
    the graph, edge ids included, is the one a one-batch sync builds. A sync that finds the
    deferral begun by a stopped sync reads every reference back (it did not see them written)."""
    from kenning import ledger
    from kenning.store import graph_refs

    def with_ledger(root: Path) -> Path:
        _project(root)
        state = root / ".kenning" / ledger.LEDGER_NAME
        ledger.append(state, {"kind": "task", "id": "T-1", "title": "Tidy", "touches": ["pkg/mod003.py"]})
        ledger.append(
            state, {"kind": "evidence", "id": "E-1", "task": "T-1", "path": "tests/test_mod.py", "result": "ok"}
        )
        return root

    def raw(root: Path) -> tuple[list[tuple], ...]:
        conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
        try:
            return tuple(
                conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
                for table in ("graph_nodes", "graph_refs", "graph_edges_sourced")  # the edges as served
            )
        finally:
            conn.close()

    one = with_ledger(tmp_path / "one")
    monkeypatch.setattr(batches, "BATCH_FIRST", 1000)
    assert sync(load_project(one), now=NOW, embed=False).batches == 1
    monkeypatch.setattr(batches, "BATCH_FIRST", 8)

    read_back: list[int] = []
    real_ref_rows = graph_refs.ref_rows

    def counting(conn, ids, *, sources=True):
        read_back.extend(ids)
        return real_ref_rows(conn, ids, sources=sources)

    monkeypatch.setattr(graph_refs, "ref_rows", counting)
    many = with_ledger(tmp_path / "many")
    report = sync(load_project(many), now=NOW, embed=False)
    assert report.batches >= 5
    nodes, refs, edges = raw(many)
    ledger_refs = [row[0] for row in refs if row[1] == "ledger"]
    assert len(ledger_refs) == 3 and sorted(read_back) == ledger_refs  # only the ledger's, read back
    assert (nodes, refs, edges) == raw(one)  # every row, ids included
    conn = sqlite3.connect(load_project(many).db_path)
    assert dangling(conn) == []  # every id written names a row that is there
    conn.close()
    assert {row[3] for row in edges} >= {"imports", "calls", "defines", "tested_by", "links_to", "touches"}

    # A sync stopped between two batches: the next one did not see the first references written.
    stopped = with_ledger(tmp_path / "stopped")
    committed: list[int] = []

    def stop_after_two(conn):
        committed.append(1)
        if len(committed) == 2:
            raise KeyboardInterrupt
        return None

    monkeypatch.setattr(batches, "yield_to_waiting_writers", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        sync(load_project(stopped), now=NOW, embed=False)
    monkeypatch.setattr(batches, "yield_to_waiting_writers", lambda conn: None)
    read_back.clear()
    sync(load_project(stopped), now=NOW, embed=False)
    assert len(read_back) == len(refs)  # every reference read back
    assert _graph(stopped) == _graph(one)
