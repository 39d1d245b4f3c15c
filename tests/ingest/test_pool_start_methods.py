"""The parsing pool works under every multiprocessing start method: ``fork`` (Linux up to
Python 3.13), ``spawn`` (macOS, Windows) and ``forkserver`` (Linux from Python 3.14), each
sync storing the same excerpts. Under ``forkserver`` a worker's parent is the fork server, not
the sync: a worker that took that for its sync's death ended at once, and the pool broke
(``BrokenProcessPool``)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kenning.ingest import read
from kenning.sync.run import sync

SYNC = (
    "import multiprocessing, sys\n"
    "multiprocessing.set_start_method(sys.argv[1])\n"
    "from kenning.interfaces.cli.entry import run\n"
    "sys.argv = ['kenning', 'sync', '--no-embed', '--project', sys.argv[2]]\n"
    "run()\n"
)


def stored(root: Path) -> list[tuple]:
    with sqlite3.connect(root / ".kenning" / "kenning.db") as conn:
        return conn.execute("SELECT title, body, path, source_uri, content_hash FROM facts ORDER BY id").fetchall()


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_pool_sync_stores_the_same_excerpts_under_each_start_method(make_project, method: str) -> None:
    if method == "fork" and sys.platform != "linux":
        pytest.skip("fork is Linux's")
    files = {
        f"pkg/m{i:03d}.py": f'"""Module {i}."""\n\n\ndef f{i}(x):\n    """Add {i}."""\n    return g{i}(x) + {i}\n\n\n'
        f"def g{i}(x):\n    return x\n"
        for i in range(read.PARALLEL_FROM)
    }
    files |= {f"docs/d{i:02d}.md": f"# Doc {i}\n\nText {i}.\n\n## Part {i}\n\nMore {i}.\n" for i in range(20)}
    project = make_project(files, name=method)
    out = subprocess.run([sys.executable, "-c", SYNC, method, str(project.root)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"files: {len(files)} new" in out.stdout, out.stdout

    reference = make_project(files, name=f"{method}-reference")
    sync(reference, now=datetime.now(UTC), embed=False)  # this process: the platform's default start method
    assert stored(project.root) == stored(reference.root)
    assert len(stored(project.root)) > len(files)
