"""``kenning sync`` in a terminal: its progress bar shows, and the parsing pool forks its workers
from a process with one thread. rich's bar refreshes from a thread of its own; started before
the pool, it ran while the workers were forked (Python 3.12+ warns: a lock it held stays held in
the child). The bar is now redrawn by the sync's own steps, without that thread."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from kenning.ingest import read

KENNING = str(Path(sys.executable).with_name("kenning"))
# Every os.fork of the process records how many threads were running (a module run at startup).
COUNT_FORKS = (
    "import os, threading\n"
    "_fork = os.fork\n"
    "def _counted():\n"
    "    with open(os.environ['FORK_LOG'], 'a') as log:\n"
    "        log.write(f'{threading.active_count()}\\n')\n"
    "    return _fork()\n"
    "os.fork = _counted\n"
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool forks on Linux")


def test_a_sync_in_a_terminal_shows_its_bar_and_forks_with_one_thread(make_project, tmp_path: Path) -> None:
    files = {
        f"docs/n{i:03d}.md": f"# Note {i}\n\nText {i}.\n\n## Part\n\nMore.\n" for i in range(read.PARALLEL_FROM + 20)
    }
    project = make_project(files)
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(COUNT_FORKS, encoding="utf-8")
    log = tmp_path / "forks.log"
    env = {**os.environ, "PYTHONPATH": str(shim), "FORK_LOG": str(log), "COLUMNS": "100"}
    leader, follower = pty.openpty()  # stderr a terminal: the bar is drawn
    try:
        out = subprocess.run(
            [KENNING, "sync", "--no-embed", "--project", str(project.root)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            timeout=300,
            check=True,
        )
        os.close(follower)
        drawn = b""
        while chunk := _read(leader):
            drawn += chunk
    finally:
        os.close(leader)
    assert f"files: {len(files)} new" in out.stdout
    assert b"reading" in drawn or b"writing" in drawn  # the bar was shown
    counts = log.read_text(encoding="utf-8").split()
    assert len(counts) >= 2  # the pool's workers (two or more)
    assert set(counts) == {"1"}, counts


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the terminal closed: all read
        return b""
