"""``kenning status`` says what sums a question's long impact lists: numpy, or pure Python where
numpy cannot be imported (a module of the same name, first on ``PYTHONPATH``, hides it from the
child processes); dense then reports the degradation instead of failing on its import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import env_without

KENNING = str(Path(sys.executable).with_name("kenning"))


def _status(project, env: dict[str, str], *extra: str) -> str:
    args = [KENNING, "status", "--project", str(project.root), *extra]
    return subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout


def test_status_names_what_sums_the_lists_and_says_when_it_is_pure_python(make_project, tmp_path: Path) -> None:
    project = make_project({"README.md": "# Hi\n"})
    hidden = env_without(tmp_path / "no-numpy", "numpy")

    data = json.loads(_status(project, hidden, "--json"))
    assert data["ranking_sums"] == "python"
    # found on the path but not importable: dense is a degradation, not a crash (a broken build)
    assert data["engines"]["dense"]["reason"].startswith("dense not installed: numpy cannot be imported")
    assert "ranking: long impact lists summed in pure Python (numpy cannot be imported" in _status(project, hidden)
    assert json.loads(_status(project, dict(os.environ), "--json"))["ranking_sums"] == "numpy"
    assert "ranking:" not in _status(project, dict(os.environ))
