"""Three registered projects and one confidential one, for the cross-project tests.

alpha and beta are readable; secret is confidential; broken's store is not a database.
Every file of secret carries SECRET, a word no other project has: any cross-project output
that contains it leaked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conftest import resync
from kenning import registry
from kenning.config import Project, kenning_home

SECRET = "zanzibarium"


def adr(number: int, title: str, day: str, body: str) -> str:
    return f"# ADR-{number:04d}: {title}\n\n* Status: accepted\n* Date: {day}\n\n## Decision\n\n{body}\n"


ALPHA = {
    "docs/adr/0001-memory-store.md": adr(
        1, "Memory lives in SQLite", "2026-10-02", "We keep agent memory in one SQLite file per project."
    ),
    "docs/adr/0002-memory-cache.md": adr(
        2, "Memory cache in process", "2026-06-01", "The memory cache stays in process; no daemon."
    ),
    "docs/guide.md": "# Guide\n\nHow memory works: notes, sessions and summaries are facts.\n",
    "src/fusion.py": '"""Rank fusion."""\n\n\ndef rrf_fuse(rankings, k=60):\n    return rankings\n',
}
BETA = {
    "docs/decisions/0003-memory-retention.md": adr(
        3, "Memory retention of 270 days", "2026-09-15", "Unconfirmed memory becomes a hypothesis after 270 days."
    ),
    "docs/readme.md": "# Beta\n\nThe memory of beta is small. rrf_fuse is not here.\n",
}
SECRET_FILES = {
    "docs/adr/0001-memory.md": adr(
        1, f"Memory of {SECRET}", "2026-10-20", f"We decided the {SECRET} memory stays on premises."
    ),
    "docs/plan.md": f"# Plan\n\nThe {SECRET} memory plan. rrf_fuse {SECRET}.\n",
}


@dataclass
class Machine:
    alpha: Project
    beta: Project
    secret: Project
    broken: Project
    home: Path


def build(make_project) -> Machine:
    alpha = make_project(ALPHA, name="alpha")
    beta = make_project(BETA, name="beta")
    secret = make_project(SECRET_FILES, name="secret", config='name = "secret"\nconfidential = true\n')
    broken = make_project({"docs/x.md": "# X\n\nmemory\n"}, name="broken")
    home = kenning_home()
    for project in (alpha, beta, secret, broken):
        resync(project)
        registry.register(home, project.name, project.root)
    for suffix in ("-wal", "-shm"):
        Path(str(broken.db_path) + suffix).unlink(missing_ok=True)
    broken.db_path.write_bytes(b"this is not a database " * 200)
    for project, rel in ((alpha, "docs/guide.md"), (secret, "docs/plan.md")):  # one stale file each
        path = project.root / rel
        path.write_text(path.read_text(encoding="utf-8") + "\nEdited since the sync.\n", encoding="utf-8")
    return Machine(alpha, beta, secret, broken, home)
