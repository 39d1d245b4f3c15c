"""What a cold sync leaves for after the pool's last file (issue 19, the serial tail): each
slice's graph is applied as soon as the slice is written, not the batch's at its end. The
stored graph is the one a sync in a single batch builds, row for row, ids included."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kenning.config import init_project, load_project
from kenning.graph import build as graph_build
from kenning.graph import resolve
from kenning.ingest import read
from kenning.sync import batches, run
from kenning.sync.run import sync

NOW = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
CONFIG = 'name = "{name}"\n\n[dense]\nenabled = false\n'
FILES = 30


def _project(root: Path) -> Path:
    """A chain of classes, each deriving from the previous module's and calling on ``self`` a
    method two classes up (found through the bases its file and the base's file name), plus
    calls, a test, Markdown linking a module, an ADR, and JavaScript importing a module by its
    stem."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "mod000.py").write_text(
        '"""Module 0."""\n\n\ndef helper_0(x):\n    return x\n\n\nclass Base0:\n    def own_0(self):\n'
        "        return helper_0(0)\n",
        encoding="utf-8",
    )
    for i in range(1, FILES):
        up = max(i - 2, 0)
        (pkg / f"mod{i:03d}.py").write_text(
            f'"""Module {i}."""\n\nfrom pkg.mod{i - 1:03d} import Base{i - 1}, helper_{i - 1}\n\n\n'
            f"def helper_{i}(x):\n    return helper_{i - 1}(x) + {i}\n\n\n"
            f"class Base{i}(Base{i - 1}):\n    def own_{i}(self, other):\n"
            f"        other.run()\n        return self.own_{up}()\n",
            encoding="utf-8",
        )
    (root / "tests").mkdir()
    (root / "tests" / "test_mod.py").write_text(
        "from pkg.mod001 import helper_1\n\n\ndef test_helper():\n    assert helper_1(2)\n", encoding="utf-8"
    )
    (root / "README.md").write_text("# Chain\n\nSee [one](pkg/mod000.py) and [two](pkg/mod002).\n", encoding="utf-8")
    (root / "docs" / "decisions").mkdir(parents=True)
    (root / "docs" / "decisions" / "0001-chain.md").write_text(
        "# 1. A chain of classes\n\n## Status\n\nAccepted\n\n## Decision\n\nSee [it](../../pkg/mod003.py).\n",
        encoding="utf-8",
    )
    (root / "web").mkdir()
    (root / "web" / "util.js").write_text("export function pad(s) {\n  return s;\n}\n", encoding="utf-8")
    (root / "web" / "app.js").write_text('import { pad } from "./util";\n\npad("x");\n', encoding="utf-8")
    init_project(root, root.name)
    (root / ".kenning" / "config.toml").write_text(CONFIG.format(name=root.name), encoding="utf-8")
    return root


def _raw(root: Path) -> tuple[list[tuple], ...]:
    conn = sqlite3.connect(f"file:{load_project(root).db_path}?mode=ro", uri=True)
    try:
        graph = tuple(
            conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
            for table in ("graph_nodes", "graph_refs", "graph_edges")
        )  # the excerpts but their dates (the files' times: two trees)
        facts = conn.execute("SELECT id, type, title, path, source_uri, content_hash, lifecycle FROM facts ORDER BY id")
        return (*graph, facts.fetchall())
    finally:
        conn.close()


def _one_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    one = _project(tmp_path / "one")
    with monkeypatch.context() as m:
        m.setattr(batches, "BATCH_FIRST", 1000)
        assert sync(load_project(one), now=NOW, embed=False).batches == 1
    return one


def _one_file_a_slice(monkeypatch: pytest.MonkeyPatch, events: list[tuple[str, list[str]]]) -> None:
    """A pool never ahead of the writer (a file is ready once the writer took the one before):
    one file a slice; ``events`` records each slice written and each graph pass, with its files."""
    real_read_all, real_slice, real_apply = run.read_all, batches._write_slice, graph_build.apply

    def never_ahead(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        items = list(real_read_all(*args, **kwargs))
        taken: list[object] = []

        def counted():  # noqa: ANN202
            for item in items:
                taken.append(item)
                yield item

        return read.Reading(counted(), lambda: len(taken) == len(items))

    def write_slice(conn, report, manifest, batch, taken, *rest):  # noqa: ANN001, ANN002, ANN202
        events.append(("slice", [item.candidate.path for item in taken if not isinstance(item, str)]))
        return real_slice(conn, report, manifest, batch, taken, *rest)

    def apply(conn, project, files, removed, todo, **kwargs):  # noqa: ANN001, ANN003, ANN202
        events.append(("graph", [path for path, _, _ in files]))
        return real_apply(conn, project, files, removed, todo, **kwargs)

    monkeypatch.setattr(run, "read_all", never_ahead)
    monkeypatch.setattr(batches, "_write_slice", write_slice)
    monkeypatch.setattr(graph_build, "apply", apply)


def test_a_cold_sync_applies_each_slices_graph_as_it_is_written(tmp_path, monkeypatch):
    """Once the deferral began (after the first batch), each slice's files go to the graph right
    after the slice, inside the batch's transaction: the last graph pass holds the pool's last
    slice alone. Every file is applied once, in order, and the graph is a one-batch sync's."""
    one = _one_batch(tmp_path, monkeypatch)
    monkeypatch.setattr(batches, "BATCH_FIRST", 8)
    monkeypatch.setattr(batches, "BATCH_MIN", 8)
    monkeypatch.setattr(batches, "BATCH_MAX", 8)
    events: list[tuple[str, list[str]]] = []
    _one_file_a_slice(monkeypatch, events)
    many = _project(tmp_path / "many")
    report = sync(load_project(many), now=NOW, embed=False)

    assert report.batches >= 4
    written = [path for kind, paths in events if kind == "slice" for path in paths]
    applied = [path for kind, paths in events if kind == "graph" for path in paths]
    assert applied == written and len(written) == len(set(written)) == FILES + 5
    first_graph = next(n for n, (kind, _) in enumerate(events) if kind == "graph")
    assert first_graph == 8  # the first batch's eight slices, then its graph: the deferral begins
    after = events[first_graph + 1 :]
    assert [kind for kind, _ in after] == ["slice", "graph"] * (len(after) // 2)
    assert all(paths == after[n - 1][1] and len(paths) == 1 for n, (kind, paths) in enumerate(after) if kind == "graph")
    assert _raw(many) == _raw(one)  # every row, ids included
    nodes, _, edges, _ = _raw(many)
    key = {row[0]: row[2] for row in nodes}
    calls = {(key[e[1]], key[e[2]]) for e in edges if e[3] == "calls"}
    # ``self.own_1()`` in Base3: Base2 (imported) names Base1 in its own file
    assert ("symbol:pkg/mod003.py:Base3.own_3", "symbol:pkg/mod001.py:Base1.own_1") in calls


def test_a_cold_sync_stopped_while_it_resolves_is_resolved_by_the_next(tmp_path, monkeypatch):
    """Stopped while it resolves its references (Ctrl-C after the last batch committed its
    slices' graph): nothing is resolved, and the next sync resolves every reference into the
    same graph as a one-batch sync."""
    one = _one_batch(tmp_path, monkeypatch)
    for name in ("BATCH_FIRST", "BATCH_MIN", "BATCH_MAX"):
        monkeypatch.setattr(batches, name, 8)
    real_resolve_one = resolve.Resolver._resolve_one
    seen: list[int] = []

    def stop_midway(self, row, candidates):  # noqa: ANN001, ANN202
        seen.append(row.id)
        if len(seen) == 30:
            raise KeyboardInterrupt
        return real_resolve_one(self, row, candidates)

    monkeypatch.setattr(resolve.Resolver, "_resolve_one", stop_midway)
    many = _project(tmp_path / "many")
    with pytest.raises(KeyboardInterrupt):
        sync(load_project(many), now=NOW, embed=False)
    _, _, edges, _ = _raw(many)
    assert [e for e in edges if e[-1] is not None] == []  # no resolved edge (ref_id) committed
    monkeypatch.setattr(resolve.Resolver, "_resolve_one", real_resolve_one)
    sync(load_project(many), now=NOW, embed=False)
    assert _raw(many)[:3] == _raw(one)[:3]
