"""``bench/same_store.py`` says "same store" for two trees that build the same store, and names
the tables that differ (exit status 1) when one tree builds another one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
SRC = BENCH.parent / "src"

FILES = {
    "docs/guide.md": "# Guide\n\nHow the `load_config` helper reads settings.\n\n## More\n\nDetails here.\n",
    "pkg/__init__.py": "",
    "pkg/config.py": 'def load_config(path: str) -> dict:\n    """Read the settings."""\n    return {}\n',
    "pkg/app.py": "from pkg.config import load_config\n\n\ndef main():\n    return load_config('a')\n",
}


def same_store(tmp_path: Path, against: Path) -> subprocess.CompletedProcess[str]:
    corpus = tmp_path / "corpus"
    for name, text in FILES.items():
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(BENCH / "same_store.py"), "--against", str(against), "--dir", str(corpus)],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KENNING_DATABASE_URL")},
            "KENNING_HOME": str(tmp_path / "home"),
        },
    )


def test_the_same_tree_builds_the_same_store(tmp_path):
    done = same_store(tmp_path, SRC)
    assert done.returncode == 0, done.stderr
    assert "same store" in done.stdout
    assert "graph_refs" in done.stdout and "DIFFERS" not in done.stdout


def test_a_tree_that_builds_other_keywords_is_told_apart(tmp_path):
    other = tmp_path / "other-src"
    shutil.copytree(SRC, other, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    identifiers = other / "kenning" / "ingest" / "identifiers.py"
    text = identifiers.read_text(encoding="utf-8")
    marker = "def keywords_for(*texts: str) -> str:\n"
    assert marker in text
    identifiers.write_text(text.replace(marker, marker + '    return "other"\n', 1), encoding="utf-8")
    done = same_store(tmp_path, other)
    assert done.returncode == 1, done.stdout + done.stderr
    differing = {line.split("DIFFERS")[0].strip() for line in done.stdout.splitlines() if "DIFFERS" in line}
    assert {"facts", "facts_fts instances"} <= differing  # the keywords are in the rows and in the word index
    assert "graph_refs" not in differing
