"""A small repository with everything the graph reads: Python and TypeScript code, tests,
two ADRs (one superseding the other), a ledger, and a git history with fixed dates."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

FUSION = '''"""Rank fusion."""


def rrf_fuse(rankings, k=60):
    """Reciprocal rank fusion."""
    return _score(rankings, k)


def _score(rankings, k):
    return sorted(rankings)
'''

SEARCH = """from demo.fusion import rrf_fuse


def hybrid(a, b):
    return rrf_fuse([a, b])


class Engine:
    def run(self, q):
        return rrf_fuse([q])
"""

TEST = """from demo.fusion import rrf_fuse


def test_rrf_fuse_orders():
    assert rrf_fuse([[1]]) == [[1]]
"""

APP_TS = """import { hybrid } from "./api";

export interface Query {
  text: string;
}

export class Client {
  search(q: Query): string[] {
    return hybrid(q.text);
  }
}

export function main(): void {
  new Client();
}
"""

ADR_3 = """# 3. Use BM25 only

Date: 2026-01-10

## Status

Superseded by [ADR-0007](0007-fuse-rankings.md)

## Context

Lexical search first.
"""

ADR_7 = """---
status: accepted
date: 2026-03-02
---
# Fuse rankings with RRF

Supersedes ADR-0003. The fusion lives in [fusion](../../src/demo/fusion.py).
"""

LEDGER = [
    {
        "kind": "task",
        "id": "T-1",
        "title": "Fuse rankings",
        "status": "done",
        "touches": ["src/demo/fusion.py"],
        "date": "2026-03-01",
    },
    {
        "kind": "task",
        "id": "T-2",
        "title": "Hybrid search",
        "status": "open",
        "depends_on": ["T-1"],
        "touches": ["src/demo/search.py"],
        "date": "2026-03-03",
    },
    {
        "kind": "evidence",
        "id": "E-1",
        "task": "T-1",
        "path": "tests/test_demo_fusion.py",
        "result": "3 passed",
        "date": "2026-03-02",
    },
    {"kind": "verdict", "id": "V-1", "evidence": "E-1", "outcome": "accepted", "date": "2026-03-02"},
]

FILES = {
    "src/demo/__init__.py": "",
    "src/demo/fusion.py": FUSION,
    "src/demo/search.py": SEARCH,
    "tests/test_demo_fusion.py": TEST,
    "web/app.ts": APP_TS,
    "docs/adr/0003-use-bm25.md": ADR_3,
    "docs/adr/0007-fuse-rankings.md": ADR_7,
}


def git(root: Path, *args: str, date: str = "2026-03-01T10:00:00+00:00") -> str:
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


def commit(root: Path, message: str, date: str, *paths: str) -> str:
    git(root, "add", *(paths or ("-A",)))
    git(root, "commit", "-q", "-m", message, date=date)
    return git(root, "rev-parse", "HEAD").strip()


def build(make_project):
    """The project, with two commits: fusion (mentions T-1) then search."""
    files = {k: v for k, v in FILES.items() if k != "src/demo/search.py"}
    project = make_project(files, name="graphdemo")
    (project.state_dir / "ledger.jsonl").write_text("".join(json.dumps(r) + "\n" for r in LEDGER), encoding="utf-8")
    git(project.root, "init", "-q", "-b", "main")
    commit(project.root, "Add rank fusion for T-1", "2026-03-01T10:00:00+00:00")
    (project.root / "src/demo/search.py").write_text(SEARCH, encoding="utf-8")
    commit(project.root, "Wire hybrid search", "2026-03-03T10:00:00+00:00")
    return project
