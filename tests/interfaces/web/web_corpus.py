"""The cockpit tests' fixture corpus: two registered, synced projects (``alpha`` served,
``beta`` reached with scope "all projects"), code with calls, a decision, a heuristic-free
link, saved observations and a session summary, and retrieved content holding markup."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from starlette.applications import Starlette

from kenning import registry
from kenning.config import Project, init_project
from kenning.interfaces.web.app import create_app
from kenning.memory.observations import Observation
from kenning.memory.observations import save as save_observation
from kenning.memory.sessions import save_summary
from kenning.store.db import connect
from kenning.sync.run import sync

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
HOSTILE = '<script>document.title="pwned"</script><img src=x onerror=alert(1)>'

ALPHA = {
    "README.md": "# Alpha\n\nAlpha is the served project. See [freshness](docs/freshness.md).\n",
    "docs/freshness.md": (
        "# Freshness\n\nFreshness is computed at read time: each excerpt is compared with the "
        "fingerprint of its file.\n\n## Stale facts\n\nA fact is stale when its source changed since indexing. "
        f"Beware of markup in sources: {HOSTILE}\n"
    ),
    "docs/adr/0001-fts5.md": (
        "# ADR-0001: Use FTS5 for lexical search\n\nStatus: accepted\n\n## Decision\n\n"
        "We use SQLite FTS5 with BM25 instead of tantivy, because it ships with Python.\n"
    ),
    "src/fusion.py": (
        '"""Rank fusion."""\n\n\ndef rrf_fuse(first, second):\n'
        '    """Fuse two rankings with reciprocal rank fusion."""\n'
        "    return normalise(first) + normalise(second)\n\n\ndef normalise(ranking):\n"
        '    """Scores between 0 and 1."""\n    return list(ranking)\n'
    ),
    "tests/test_fusion.py": (
        "from src.fusion import rrf_fuse\n\n\ndef test_rrf_fuse():\n    assert rrf_fuse([], []) == []\n"
    ),
}
BETA = {
    "notes/freshness.md": "# Freshness in beta\n\nBeta computes freshness at read time too, from its own files.\n",
}


@dataclass
class Corpus:
    home: Path
    alpha: Project
    beta: Project
    observation_ids: tuple[int, ...]
    summary_id: int

    def app(self) -> Starlette:
        return create_app(self.alpha, home=self.home, clock=lambda: NOW)


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, (NOW.timestamp() - 86_400, NOW.timestamp() - 86_400))  # written the day before the sync


def build_corpus(base: Path) -> Corpus:
    home = base / "home"
    projects = []
    for name, files in (("alpha", ALPHA), ("beta", BETA)):
        root = base / name
        write(root, files)
        project, _ = init_project(root, name)
        registry.register(home, project.name, project.root)
        sync(project, now=NOW)
        projects.append(project)
    alpha = projects[0]
    conn = connect(alpha.db_path)
    try:
        ids = tuple(
            save_observation(
                conn, alpha.name, Observation(text=text, title=title, producer="human", origin="cli"), now=NOW
            ).fact_id
            for title, text in (
                ("Prefer FTS5 over tantivy", "FTS5 ships with Python; tantivy needs Rust."),
                ("Hostile note", f"A note holding markup {HOSTILE}"),
                ("Old convention", "Tests live under tests/."),
            )
        )
        summary = save_summary(
            conn,
            alpha.name,
            "s-1",
            {"request": "add the cockpit", "learned": "Starlette is there"},
            now=NOW,
            producer="agent",
        )
    finally:
        conn.close()
    return Corpus(home, alpha, projects[1], ids, summary)
