"""Level 2 under load (issue 18, "must show" 2): two `kenning sync` processes on two projects
and four readers against one PostgreSQL at the same time — no error, no cross-project row in
any answer; and two checkouts of one project syncing at once (two machines) are serialised by
the project's advisory lock: the second finds the work done, nothing is written twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from pg_engine import server_url

from kenning.config import load_project
from kenning.project import Project, ProjectConfig
from kenning.store.db import open_store
from kenning.store.status import graph_size, index_size

pytestmark = pytest.mark.postgres
FILES = 450  # three transactions of 200 files each
MODULES = 10  # Python modules importing and calling each other: graph rows, same names in both projects
EXCERPTS = FILES + 2 * MODULES  # a module gives two: the module's and its function's
KENNING = str(Path(sys.executable).parent / "kenning")

READER = """
import json, os, subprocess, sys, time
projects = sys.argv[1:]
deadline = time.monotonic() + float(os.environ["READ_FOR"])
answers = rows = 0
while time.monotonic() < deadline:
    for root in projects:
        name = os.path.basename(root)
        out = subprocess.run([os.environ["KENNING"], "search", "shared words", "--project", root, "--json",
                              "--limit", "50"], capture_output=True, text=True)
        if out.returncode == 1 and '"empty_reason": "index_missing"' in out.stdout:
            continue  # before the sync's first commit: the answer says no index, and exits 1
        if out.returncode != 0:
            sys.exit(f"search failed: {out.stderr}")
        excerpts = json.loads(out.stdout)["excerpts"]
        rows += len(excerpts)
        for e in excerpts:
            if not e["citation"].startswith(f"kn://{name}/") or name not in e["title"] + e["snippet"]:
                sys.exit(f"cross-project row in {name}: {e['citation']} {e['title']}")
        answers += 1
        out = subprocess.run([os.environ["KENNING"], "graph", "impact", "src/m00.py", "--project", root, "--json"],
                             capture_output=True, text=True)  # the graph both syncs write, same names in both
        if out.returncode != 0 and "no index for" in out.stderr:
            continue  # before the sync's first commit, as on SQLite before its file exists
        if out.returncode != 0:
            sys.exit(f"graph failed: {out.stderr}")
        for e in json.loads(out.stdout)["excerpts"]:
            if not e["citation"].startswith(f"kn://{name}/") or name not in e["snippet"] + e["title"]:
                sys.exit(f"cross-project graph row in {name}: {e['citation']} {e['title']}")
            rows += 1
print(answers, rows)
"""


def write_project(root: Path, name: str) -> Path:
    (root / ".kenning").mkdir(parents=True)
    (root / ".kenning" / "config.toml").write_text(f'name = "{name}"\n', encoding="utf-8")
    for i in range(FILES):
        page = root / "docs" / f"page{i:03d}.md"
        page.parent.mkdir(exist_ok=True)
        page.write_text(f"# Page {i} of {name}\n\nShared words, and the owner {name} of page {i}.\n", encoding="utf-8")
    for i in range(MODULES):
        module = root / "src" / f"m{i:02d}.py"
        module.parent.mkdir(exist_ok=True)
        calls = f"from src.m{i - 1:02d} import f{i - 1:02d}\n\n\n" if i else ""
        body = f"f{i - 1:02d}()" if i else "0"
        module.write_text(
            f'"""Module {i} of {name}."""\n\n{calls}def f{i:02d}():\n    """Part of {name}."""\n    return {body}\n',
            encoding="utf-8",
        )
    return root


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "KENNING_DATABASE_URL": server_url(), "KENNING": KENNING, **extra}


def test_two_syncs_and_four_readers_at_once_stay_in_their_projects(tmp_path):
    tag = uuid.uuid4().hex[:8]
    roots = [write_project(tmp_path / f"conc{tag}{p}", f"conc{tag}{p}") for p in ("a", "b")]
    start = time.monotonic()
    syncs = [
        subprocess.Popen([KENNING, "sync", "--project", str(r), "--json"], env=env(), stdout=subprocess.PIPE, text=True)
        for r in roots
    ]
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, *map(str, roots)],
            env=env(READ_FOR="20"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for proc in syncs:
        assert proc.wait(timeout=300) == 0
    for proc in readers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        answers, rows = map(int, out.split())
        assert answers > 0 and rows > 0  # the readers read while the syncs wrote, and after
    assert time.monotonic() - start < 300
    for root in roots:
        conn = open_store(Project(root, _config(root)))
        try:
            size = index_size(conn)
        finally:
            conn.close()
        assert size.files == FILES + MODULES and size.by_lifecycle == {"active": EXCERPTS}


def test_two_checkouts_of_one_project_syncing_at_once_write_it_once(tmp_path):
    name = f"twin{uuid.uuid4().hex[:8]}"
    roots = [write_project(tmp_path / side / name, name) for side in ("one", "two")]
    syncs = [
        subprocess.Popen([KENNING, "sync", "--project", str(r), "--json"], env=env(), stdout=subprocess.PIPE, text=True)
        for r in roots
    ]
    reports = []
    for proc in syncs:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        reports.append(out)
    added = sorted(json.loads(r)["excerpts"]["added"] for r in reports)
    assert added == [0, EXCERPTS]  # the one that waited found every excerpt already written
    conn = open_store(Project(roots[0], _config(roots[0])))
    try:
        assert index_size(conn).facts == EXCERPTS
        on_server = graph_size(conn)
    finally:
        conn.close()
    local = {k: v for k, v in env().items() if k != "KENNING_DATABASE_URL"}
    subprocess.run([KENNING, "sync", "--project", str(roots[1])], env=local, check=True, capture_output=True)
    conn = open_store(Project(roots[1], load_project(roots[1], {}).config))
    try:
        assert on_server == graph_size(conn) and on_server[1] > 0  # the graph written once too, as one sync writes it
    finally:
        conn.close()


def _config(root: Path) -> ProjectConfig:
    return load_project(root, {"KENNING_DATABASE_URL": server_url()}).config


def test_the_dense_pass_runs_under_the_projects_sync_lock(make_project, monkeypatch):
    """Two checkouts syncing one project at once each embedded the same excerpts after the
    lock was released (the walk of level 2: 1,440 and 1,400 embedded, 40 new between them): the
    embedding now runs under the advisory lock, as the whole sync runs under SQLite's lock
    file; the second sync embeds what the first left. Asked of the server from another session
    while the dense pass runs."""
    import psycopg

    from conftest import resync
    from kenning import dense
    from kenning.store.postgres.connection import SYNC_LOCKS

    name = f"densely-{uuid.uuid4().hex[:10]}"
    project = make_project(
        {"README.md": "# Demo\n\nText.\n"}, name="densely", config=(f'name = "{name}"\nstore = "{server_url()}"\n')
    )
    seen: list[bool] = []

    def update(conn, project, progress, lexical_seconds, budget_seconds=None):
        with psycopg.connect(server_url(), autocommit=True) as other:
            taken = other.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (SYNC_LOCKS, name)).fetchone()[0]
            if taken:
                other.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (SYNC_LOCKS, name))
        seen.append(bool(taken))
        return {"available": False, "reason": "not embedded in this test"}

    monkeypatch.setattr(dense, "update", update)
    resync(project)
    assert seen == [False]
