"""The transverse memory at level 1. No sync reads files there: its notes are embedded as they
are saved (`kenning remember --global`, `kenning promote`, MCP `save_memory(scope="global")`),
so a cross-project answer serves them hybrid with no standing degradation. A note left
unembedded (`--no-embed`, a failure) is still said, with the command that embeds it:
`kenning sync --global`. Each command runs in a fresh interpreter with the real models."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from test_dense import kenning  # noqa: E402  (the console script in a fresh interpreter)

NOTE = "I prefer short timeouts on slow calls."
QUESTION = "stop a request that takes too long"  # shares no word with the note
MODELS = ["minilm", "use"]


def ask_all(cwd: Path) -> dict:
    done = kenning("ask", QUESTION, "--all-projects", "--json", "--explain", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def global_said(answer: dict) -> list[str]:
    return [d for d in answer["degradations"] if d.startswith("global: dense")]


def global_vectors(home: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(home / "global" / ".kenning" / "kenning.db") as conn:
        return list(conn.execute("SELECT fact_id, embedder FROM dense_vectors ORDER BY fact_id, embedder"))


def test_a_note_saved_globally_is_embedded_and_served_hybrid_with_no_degradation(isolated_home, tmp_path):
    saved = kenning("remember", NOTE, "--global", "--json", cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    payload = json.loads(saved.stdout)
    assert payload["dense"] == {"embedded": MODELS}
    assert global_vectors(isolated_home) == [(payload["id"], name) for name in MODELS]
    answer = ask_all(tmp_path)
    assert (answer["mode"], answer["level"], global_said(answer)) == ("hybrid", 1, [])
    [note] = answer["excerpts"]
    assert note["citation"] == payload["citation"] and "dense" in note["explain"]["lists"]


def test_a_global_note_left_unembedded_is_said_until_sync_global_embeds_it(isolated_home, tmp_path):
    saved = kenning("remember", NOTE, "--global", "--no-embed", "--json", cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    assert "dense" not in json.loads(saved.stdout) and global_vectors(isolated_home) == []
    answer = ask_all(tmp_path)
    said = global_said(answer)
    assert answer["mode"] == "lexical" and said, answer["degradations"]
    assert all("run `kenning sync --global`" in d for d in said), said
    synced = kenning("sync", "--global", cwd=tmp_path)
    assert synced.returncode == 0, synced.stderr
    assert "dense (minilm): 1 of 1 excerpts embedded, 1 now" in synced.stdout, synced.stdout
    answer = ask_all(tmp_path)
    assert (answer["mode"], global_said(answer)) == ("hybrid", [])


def test_save_memory_with_scope_global_and_promote_embed_the_note_too(isolated_home, make_project, monkeypatch):
    import anyio
    from mcp.shared.memory import create_connected_server_and_client_session

    from conftest import NOW
    from kenning import dense
    from kenning.interfaces.mcp.server import build_server

    monkeypatch.setattr(dense, "ENABLED", True)  # the transverse memory has no config of its own
    project = make_project({"README.md": "# Notes\n"}, name="origin")
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def save() -> dict:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            done = await client.call_tool("save_memory", {"text": NOTE, "scope": "global"})
            assert not done.isError, done.content
            return done.structuredContent

    saved = anyio.run(save)
    assert (saved["citation"], saved["dense"]) == ("kn://global/1", {"embedded": MODELS})
    root = str(project.root)
    assert kenning("remember", "Deploys happen on Tuesdays", "--project", root, "--no-embed").returncode == 0
    promoted = kenning("promote", "1", "--project", root, "--json")
    assert promoted.returncode == 0, promoted.stderr
    assert json.loads(promoted.stdout)["dense"] == {"embedded": MODELS}
    assert global_vectors(isolated_home) == [(fact, name) for fact in (1, 2) for name in MODELS]
