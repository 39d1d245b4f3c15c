"""The commits that touched a file come newest first (branch walk4), as ``git log`` lists them:
``kenning graph touches FILE`` and "what commits touched FILE" listed them by their ids'
spelling (httpx/_decoders.py: ``0006ed05`` of 2024-03 first, its last commit of 2024-11 fourth),
and a file of more commits than the walk read kept the first ids, not the last commits. On
both engines."""

from __future__ import annotations

import os
import subprocess

import pytest

from conftest import GIT_ENV, NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.graph import GraphOptions, run_query
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

DATES = [f"2024-0{month}-1{day}T10:00:00+00:00" for month, day in ((1, 1), (2, 3), (3, 5), (4, 2), (5, 8), (6, 4))]


def _commit(root, when: str, message: str) -> str:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    if not (root / ".git").exists():
        subprocess.run(["git", "-C", str(root), "init", "-q", "-b", "main"], env=env, check=True)
    # the source only: the PostgreSQL config names a fresh schema per run, and committing it would
    # make the ids (and so whether their spelling happens to be the dates' order) change per run
    subprocess.run(["git", "-C", str(root), "add", "-A", "pkg"], env=env, check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", message], env=env, check=True)
    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_the_commits_touching_a_file_come_newest_first(make_project, engine):
    files = {"pkg/codec.py": "def decode(data):\n    return data\n"}
    project = make_project(files, config=engine_config(engine, "hist"))
    shas = []
    for i, when in enumerate(DATES):
        (project.root / "pkg" / "codec.py").write_text(f"def decode(data):\n    return data  # {i}\n")
        shas.append(_commit(project.root, when, f"codec: change {i}"))
    newest = shas[::-1]
    # the ids' spelling is not the dates' order, either way: the test can tell them apart
    assert newest not in (sorted(shas), sorted(shas, reverse=True))
    resync(project)
    conn = open_store(project)
    try:
        answer = run_query(conn, project, "touches", "pkg/codec.py", GraphOptions(limit=4), now=NOW)
    finally:
        conn.close()
    assert [e.fact.source.uri for e in answer.excerpts] == newest[:4]
    asked = ask_project(project, "what commits touched pkg/codec.py", now=NOW, limit=4)
    assert asked.mode == "graph"
    assert [e.fact.source.uri for e in asked.excerpts] == newest[:4]
