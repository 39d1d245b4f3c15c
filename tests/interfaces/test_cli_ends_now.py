"""`kenning init` and `kenning sync`, as the installed console script, end the process as soon
as their output is flushed (no interpreter teardown): what they print, their exit code and
the store they wrote are whole."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import write_files


def _kenning(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("kenning", path=str(Path(sys.executable).parent))
    assert exe, "the kenning console script is installed with the package"
    env = {**os.environ, "KENNING_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env)


def test_init_and_sync_end_with_their_output_exit_code_and_store_whole(tmp_path):
    root = tmp_path / "docs"
    write_files(root, {f"notes/n{i:02d}.md": f"# Note {i}\n\nText about topic {i}.\n" for i in range(30)})
    home = tmp_path / "home"
    made = _kenning("init", "--project", str(root), "--name", "ends", "--json", home=home)
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["created"] is True
    synced = _kenning("sync", "--no-embed", "--json", "--project", str(root), home=home)
    assert synced.returncode == 0, synced.stderr
    report = json.loads(synced.stdout)
    assert report["excerpts"]["added"] == 30 and report["coverage"]["indexed"] == 30
    conn = sqlite3.connect(root / ".kenning" / "kenning.db")
    try:
        assert conn.execute("SELECT count(*) FROM facts").fetchone()[0] == 30
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    again = _kenning("sync", "--no-embed", "--project", str(root), home=home)
    assert again.returncode == 0 and "30 unchanged" in again.stdout


def test_a_failed_sync_still_ends_with_its_message_and_exit_code(tmp_path):
    missing = _kenning("sync", "--project", str(tmp_path / "nowhere"), home=tmp_path / "home")
    assert missing.returncode != 0 and missing.stderr.startswith("error: ")
    usage = _kenning("sync", "--no-such-option", home=tmp_path / "home")
    assert usage.returncode == 2 and "--no-such-option" in usage.stderr
