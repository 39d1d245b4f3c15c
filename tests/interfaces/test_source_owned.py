"""Supersede and forget on excerpts of project files are refused (the file is the truth),
on the CLI and over MCP; notes keep both gestures; answers say how many superseded matches
they left out even when they serve excerpts."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.clock import iso
from kenning.interfaces.mcp.server import build_server
from kenning.records import Lifecycle
from kenning.store import facts as fact_store
from kenning.store.db import connect

CONFIG = '''"""Configuration."""


class Timeout:
    """How timeouts are configured: connect, read, write and pool timeouts."""

    def __init__(self, connect=5.0):
        self.connect = connect
'''


def _setup(make_project, cli):
    project = make_project({"src/config.py": CONFIG})
    resync(project)
    root = ("--project", str(project.root))
    code = cli("search", "timeouts configured", "--json", *root).json()["excerpts"][0]
    assert code["source"]["uri"].startswith("src/config.py")
    note = cli("remember", "Timeouts are configured in src/config.py.", "--json", *root).json()
    return project, root, code["id"], note["id"]


def test_the_cli_refuses_to_supersede_or_forget_a_file_excerpt_and_changes_nothing(make_project, cli):
    project, root, code_id, note_id = _setup(make_project, cli)
    for args in (("supersede", str(code_id), str(note_id)), ("forget", str(code_id))):
        refused = cli(*args, *root)
        assert refused.code == 2
        text = refused.out + refused.err
        assert "the file is the truth" in text and "src/config.py" in text and "ADR" in text
    served = cli("search", "timeouts configured", "--json", *root).json()
    assert code_id in [e["id"] for e in served["excerpts"]] and "superseded" not in served["filtered"]


def test_notes_keep_supersede_and_a_served_answer_counts_the_superseded_it_left_out(make_project, cli):
    project, root, code_id, note_id = _setup(make_project, cli)
    newer = cli("remember", "Timeouts are configured per client.", "--json", *root).json()
    assert cli("supersede", str(note_id), str(newer["id"]), *root).code == 0
    answer = cli("search", "timeouts configured", "--json", *root).json()
    assert note_id not in [e["id"] for e in answer["excerpts"]] and answer["excerpts"]
    assert answer["filtered"]["superseded"] == 1


def test_mcp_refuses_supersede_and_forget_of_a_file_excerpt_with_a_typed_error(make_project, cli):
    project, root, code_id, note_id = _setup(make_project, cli)
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return (
                await client.call_tool("supersede", {"old": code_id, "new": note_id, "reason": "moved"}),
                await client.call_tool("forget", {"target": code_id, "reason": "noise"}),
            )

    for result in anyio.run(main):
        error = result.structuredContent["error"]
        assert result.isError and error["type"] == "SourceOwned" and "ADR" in error["hint"]
        assert result.content[0].text.splitlines()[-1].startswith("Next: ")
    assert cli("get", str(code_id), "--json", *root).json()["facts"][0]["lifecycle"] == "active"


def test_a_file_excerpt_superseded_by_hand_before_the_refusal_is_served_again(make_project, cli):
    """The repair migration of the 'stays hidden after a resync' bug: a superseded file
    excerpt that still has a location (a sync supersedes only those that lost every one)."""
    project, root, code_id, note_id = _setup(make_project, cli)
    conn = connect(project.db_path)
    try:
        fact_store.set_lifecycle(
            conn, code_id, Lifecycle.SUPERSEDED, when=iso(NOW), reason="hand", superseded_by=note_id
        )
        conn.commit()
        migration = Path(__file__).resolve().parents[2] / "src/kenning/store/migrations"
        conn.executescript(next(migration.glob("*_file_excerpts_not_hidden_by_hand.sql")).read_text())
    finally:
        conn.close()
    resync(project)
    assert code_id in [e["id"] for e in cli("search", "timeouts configured", "--json", *root).json()["excerpts"]]
