"""The session-start hook of a project served by PostgreSQL compares its pack with the server's
store counter, not with the local file's (which may not exist, or may be a stale level-0 copy)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from pg_engine import server_url

from kenning.interfaces.session_start import server_of
from kenning.pack.session import STALE_NOTE

pytestmark = pytest.mark.postgres
CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "core_corpus"


def corpus_files() -> dict[str, str]:
    return {str(p.relative_to(CORPUS)): p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*")) if p.is_file()}


def status(cli, root: str) -> str:
    result = cli("hook", "session-start", "--project", root)
    assert result.code == 0
    return json.loads(result.out)["hookSpecificOutput"]["additionalContext"].splitlines()[0]


def test_the_hook_reads_the_servers_counter(make_project, cli, monkeypatch):
    project = make_project(corpus_files(), name=f"hook-{uuid.uuid4().hex[:10]}")
    root = str(project.root)
    cli("sync", "--project", root)  # a local store too: its counter must not be the one read
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    assert cli("sync", "--project", root).code == 0
    assert cli("pack", "build", "--project", root).code == 0
    assert STALE_NOTE not in status(cli, root)
    assert cli("memory", "save", "The staging keys rotate every Monday", "--project", root).code == 0
    assert STALE_NOTE in status(cli, root)  # the server's counter moved; the local file's did not
    monkeypatch.delenv("KENNING_DATABASE_URL")
    assert server_of(str(project.state_dir)) is None  # a project without a server reads no server


def test_the_server_is_named_by_the_config_or_the_variable(make_project, monkeypatch):
    project = make_project({"a.md": "# A\n"}, name="named", config=f'name = "named"\nstore = "{server_url()}"\n')
    assert server_of(str(project.state_dir)) == (server_url(), "named")
    monkeypatch.setenv("KENNING_DATABASE_URL", "postgresql://elsewhere/db")
    assert server_of(str(project.state_dir)) == ("postgresql://elsewhere/db", "named")


def test_an_unreachable_server_never_fails_the_hook(make_project, cli, monkeypatch):
    project = make_project(corpus_files(), name=f"hook-{uuid.uuid4().hex[:10]}")
    root = str(project.root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    assert cli("pack", "build", "--project", root).code == 0
    monkeypatch.setenv("KENNING_DATABASE_URL", "postgresql://kenning@127.0.0.1:1/nothing")
    line = status(cli, root)
    assert line.startswith("project core:") and STALE_NOTE not in line
