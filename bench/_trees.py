"""The trees ``bench/real_projects.py`` questions: an sdist put under git with back-dated commits, a
clone at a pinned commit, or the tree and store an earlier run left (``--reuse``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

COMMIT_DATES = ("2023-03-14T10:00:00+00:00", "2023-11-02T15:30:00+00:00", "2024-06-20T09:15:00+00:00")


def under_git(source: Path, work: Path) -> Path:
    """A copy of ``source`` as a git repository whose files arrive in three back-dated commits."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(source, work)
    files = sorted(str(p.relative_to(work)) for p in work.rglob("*") if p.is_file())
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
    }
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    third = len(files) // 3 + 1
    for i, date in enumerate(COMMIT_DATES):
        chunk = files[i * third : (i + 1) * third]
        if not chunk:
            continue
        for start in range(0, len(chunk), 500):
            subprocess.run(["git", "-C", str(work), "add", "-f", "--", *chunk[start : start + 500]], check=True)
        subprocess.run(
            ["git", "-C", str(work), "commit", "-q", "-m", f"import part {i + 1}"],
            check=True,
            env={**env, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date},
        )
    return work


def cloned(repository: str, work: Path, commit: str | None = None) -> Path:
    """A fresh clone of ``repository`` (a path or URL git reads) at ``work``: its real history;
    ``commit`` checked out when given."""
    if work.exists():
        shutil.rmtree(work)
    subprocess.run(["git", "clone", "-q", repository, str(work)], check=True)
    if commit:
        subprocess.run(["git", "-C", str(work), "checkout", "-q", commit], check=True)
    return work


def tree_bytes(root: Path) -> int:
    total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in {".git", ".kenning"}]
        total += sum((Path(dirpath) / f).stat().st_size for f in filenames)
    return total


def kept_tree(root: Path, level: int, commit: str | None) -> bool:
    """Whether ``--reuse`` may keep ``root`` and its store: synced by an earlier run at this
    ``level`` (level 0 writes ``[dense] enabled = false``) and, for a clone, at ``commit``. A store
    of the other level, or a clone at another commit, is an error, not replaced silently."""
    config = root / ".kenning" / "config.toml"
    if not (root / ".kenning" / "kenning.db").exists() or not config.exists():
        return False
    lexical_only = "[dense]\nenabled = false" in config.read_text()
    if lexical_only != (level == 0):
        raise SystemExit(f"{root}: its store was synced at level {1 - level}; run without --reuse (or another --work)")
    if commit:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
        if head.strip() != commit:
            raise SystemExit(f"{root}: checked out at {head.strip()[:12]}, not {commit[:12]}; run without --reuse")
    return True
