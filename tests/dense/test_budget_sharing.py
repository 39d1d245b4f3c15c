"""The two models share each sync's embedding budget, the one whose index should be complete
soonest first: the multilingual index is no longer left without a second until MiniLM's whole
index is done (walkthrough of 2026-12-01: `dense (use): 0 of 4474` after two syncs)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from conftest import DENSE_DOCS, NOW, write_files  # noqa: E402
from kenning.config import Project, init_project, load_project  # noqa: E402
from kenning.dense import index as dense_index  # noqa: E402
from kenning.store import vectors  # noqa: E402
from kenning.store.db import connect  # noqa: E402
from kenning.sync.run import sync  # noqa: E402


def configure(project: Project, *, multilingual: bool = True, budget: float | None = None) -> Project:
    extra = "" if budget is None else f"budget_seconds = {budget:g}\n"
    (project.state_dir / "config.toml").write_text(
        f'name = "{project.name}"\n[dense]\nenabled = true\nmultilingual = {str(multilingual).lower()}\n{extra}'
    )
    return load_project(project.root)


def new_project(tmp_path: Path) -> Project:
    root = tmp_path / "share"
    root.mkdir()
    write_files(root, DENSE_DOCS)
    project, _ = init_project(root, "share")
    return project


def test_a_sync_embeds_with_the_multilingual_model_first_when_both_indexes_start_empty(tmp_path):
    project = configure(new_project(tmp_path))
    phases: list[str] = []
    report = sync(project, now=NOW, progress=lambda phase, done, total: phases.append(phase))
    embedding = list(dict.fromkeys(p.split(",")[0] for p in phases if p.startswith("embedding")))
    assert embedding == ["embedding (use", "embedding (minilm"]  # 4 excerpts each: USE's are 4 times cheaper
    assert list(report.dense["embedders"]) == ["minilm", "use"]  # the report keeps the configuration's order
    assert {name: e["embedded"] for name, e in report.dense["embedders"].items()} == {"minilm": 4, "use": 4}


def test_the_order_follows_the_work_left_not_a_fixed_model(tmp_path):
    project = configure(new_project(tmp_path), multilingual=False)
    sync(project, now=NOW)  # MiniLM's index complete, no multilingual index yet
    write_files(project.root, {"docs/cache.md": "# Cache\n\nEntries expire after an hour.\n"})
    project = configure(project, budget=0)
    report = sync(project, now=NOW)  # no time to embed: MiniLM lacks 1 excerpt, USE all 5
    assert {name: (e["embedded"], e["total"]) for name, e in report.dense["embedders"].items()} == {
        "minilm": (4, 5),
        "use": (0, 5),
    }
    conn = connect(project.db_path)
    try:
        chosen = dense_index.embedders(project)

        def covered() -> dict[str, tuple[int, int]]:
            return {name: vectors.coverage(conn, name) for name in chosen}

        assert dense_index.order(covered()) == [
            "minilm",
            "use",
        ]  # 1 × 1.0 before 5 × 0.25
        write_files(project.root, {"docs/more.md": "# More\n\nOne.\n\n## Two\n\nTwo.\n\n## Three\n\nThree.\n"})
        sync(project, now=NOW)
        assert dense_index.order(covered()) == [
            "use",
            "minilm",
        ]  # 4 × 1.0 after 8 × 0.25
    finally:
        conn.close()
