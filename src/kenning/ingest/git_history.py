"""Commits of a git repository: sha, author date, author, message, files touched.

Reading the current HEAD costs two small file reads (no process), so a no-op sync can tell
in microseconds that no commit is new. Commits are read with one ``git log`` from the last
commit read (or, the first time, the newest ``MAX_COMMITS``).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

MAX_COMMITS = 5000
_TASK_ID = re.compile(r"(?<![\w#])(#\d+|[A-Z][A-Z0-9]{0,9}-\d+)\b")


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str  # author date, ISO 8601
    author: str
    message: str
    files: tuple[str, ...]

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()


def head(root: Path) -> str | None:
    """HEAD's commit sha, or None when ``root`` is not the top of a git work tree (or has no commit)."""
    git = root / ".git"
    if git.is_dir():
        try:
            text = (git / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            return None
        if not text.startswith("ref:"):
            return text or None
        ref = text[4:].strip()
        try:
            return (git / ref).read_text(encoding="utf-8").strip() or None
        except OSError:
            pass
        try:
            for line in (git / "packed-refs").read_text(encoding="utf-8").splitlines():
                if line.endswith(" " + ref):
                    return line.split(" ", 1)[0]
        except OSError:
            pass
        return None
    if git.exists():  # a linked worktree or submodule: `.git` is a file
        proc = _git(root, "rev-parse", "--verify", "-q", "HEAD")
        return proc.strip() or None if proc is not None else None
    return None


def commits(root: Path, since: str | None, *, limit: int = MAX_COMMITS) -> list[Commit]:
    """Commits after ``since`` up to HEAD, oldest first (all, up to ``limit``, when ``since`` is
    None or no longer an ancestor of HEAD)."""
    span = ["HEAD"]
    if since and _git(root, "merge-base", "--is-ancestor", since, "HEAD") is not None:
        span = [f"{since}..HEAD"]
    out = _git(root, "-c", "core.quotePath=false", "log", "--reverse", f"--max-count={limit}", "--name-only",
               "--format=%x1e%H%x1f%aI%x1f%an%x1f%B%x1f", *span, "--")
    if not out:
        return []
    found = []
    for record in out.split("\x1e")[1:]:
        parts = record.split("\x1f")
        if len(parts) < 5:
            continue
        sha, date, author, message, tail = parts[0].strip(), parts[1], parts[2], parts[3].strip(), parts[4]
        files = tuple(line for line in (x.strip() for x in tail.splitlines()) if line)
        found.append(Commit(sha, date, author, message, files))
    return found


def exists(root: Path, sha: str) -> bool:
    return _git(root, "cat-file", "-e", f"{sha}^{{commit}}") is not None


def task_ids(message: str) -> list[str]:
    """Task ids mentioned in a message (``#12``, ``KEN-4``): a heuristic, never a declaration."""
    return sorted(set(_TASK_ID.findall(message)))


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "replace")
