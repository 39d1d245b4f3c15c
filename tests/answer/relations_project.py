"""Builds tests/fixtures/relations_project into a synced project with a git history."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "relations_project"
COMMITS = (
    (
        "Add retry with exponential backoff for T-1",
        "2026-02-20T10:00:00+00:00",
        (
            "app/__init__.py",
            "app/config.py",
            "app/retry.py",
            "tests/retry_checks.py",
            "docs/adr/0003-retry-with-exponential-backoff.md",
        ),
    ),
    (
        "Move the store to SQLite (T-2)",
        "2026-02-21T10:00:00+00:00",
        ("app/store.py", "docs/adr/0001-store-records-in-json-files.md", "docs/adr/0002-use-sqlite-for-the-store.md"),
    ),
    ("Client, CLI, jobs and web date formatting, T-3", "2026-03-01T10:00:00+00:00", ()),
)


def git(root: Path, *args: str, date: str = "2026-02-20T10:00:00+00:00") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.org",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.org",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True, text=True).stdout


def commit(root: Path, message: str, date: str, *paths: str) -> None:
    git(root, "add", *(paths or ("-A",)))
    git(root, "commit", "-q", "-m", message, date=date)


def questions() -> list[dict]:
    lines = (FIXTURE / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def build(make_project, *, with_questions: bool = False):
    project = make_project({}, name="relations")
    shutil.copytree(FIXTURE / "tree", project.root, dirs_exist_ok=True)
    shutil.copy(FIXTURE / "ledger.jsonl", project.state_dir / "ledger.jsonl")
    if with_questions:
        shutil.copy(FIXTURE / "questions.jsonl", project.state_dir / "questions.jsonl")
    git(project.root, "init", "-q", "-b", "main")
    for message, date, paths in COMMITS:
        commit(project.root, message, date, *paths)
    return project
