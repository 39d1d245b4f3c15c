"""While a sync holds the project's lock, every answer says it comes from the last committed
state (SYNC_RUNNING_NOTE): lexical, hybrid (the real MiniLM engine), graph, the freshness
report, and each project across projects. The lock is the real one (``sync.run`` takes the
same ``ExclusiveLock``); when it is released, the note goes."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

import kenning.dense
from conftest import NOW, resync
from kenning import registry
from kenning.answer.ask import ask_project
from kenning.files import SYNC_LOCK_NAME, ExclusiveLock
from kenning.interfaces.mcp.server import build_server
from kenning.project import Project
from kenning.search.serve import SYNC_RUNNING_NOTE

FILES = {
    "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "docs/cancel.md": "# Cancelling slow calls\n\nWrap the fetch in an AbortController and call abort() after a "
    "delay: the pending fetch rejects with an AbortError.\n",
    "docs/logging.md": "# Logging\n\nConfigure handlers and levels in logging.toml; messages go to stderr.\n",
}
QUESTIONS = {
    "lexical": "AbortController",
    "graph": "what calls helper",
    "freshness": "what is stale",
}


def sync_lock(project: Project) -> ExclusiveLock:
    return ExclusiveLock(str(project.state_dir / SYNC_LOCK_NAME))


@pytest.fixture
def project(make_project, isolated_home) -> Project:
    synced = make_project(FILES, name="demo")
    resync(synced)
    registry.register(isolated_home, synced.name, synced.root)
    return synced


@pytest.mark.parametrize("mode", list(QUESTIONS))
def test_every_routed_answer_says_a_sync_is_running(mode, project):
    with sync_lock(project):
        held = ask_project(project, QUESTIONS[mode], now=NOW, dense_available=False)
    free = ask_project(project, QUESTIONS[mode], now=NOW, dense_available=False)
    assert held.mode == free.mode == mode
    assert held.notes.count(SYNC_RUNNING_NOTE) == 1, held.notes
    assert SYNC_RUNNING_NOTE not in free.notes
    assert held.notes == (*free.notes, SYNC_RUNNING_NOTE)


def test_search_and_ask_across_projects_say_which_project_is_syncing(project, make_project, isolated_home, cli):
    other = make_project({"docs/a.md": "# A\n\nThe AbortController of the other project.\n"}, name="other")
    resync(other)
    registry.register(isolated_home, other.name, other.root)
    with sync_lock(project):
        answers = {
            "search": cli("search", "AbortController", "--all-projects", "--json").json(),
            "ask": cli("ask", "AbortController", "--all-projects", "--json").json(),
            "ask dated": cli("ask", "what did I note since 2020-01-01", "--all-projects", "--json").json(),
        }
    for name, answer in answers.items():
        assert f"demo: {SYNC_RUNNING_NOTE}" in answer["notes"], (name, answer["notes"])
        assert f"other: {SYNC_RUNNING_NOTE}" not in answer["notes"], name
    after = cli("ask", "AbortController", "--all-projects", "--json").json()
    assert not any(SYNC_RUNNING_NOTE in n for n in after["notes"])


def test_a_hybrid_answer_says_a_sync_is_running(make_project, monkeypatch):
    pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")
    monkeypatch.setattr(kenning.dense, "ENABLED", True)
    dense = make_project(FILES, name="dense", config='name = "dense"\n[dense]\nenabled = true\nmultilingual = false\n')
    resync(dense)
    question = "stop a request that takes too long"  # no word of docs/cancel.md: the default rule
    with sync_lock(dense):
        held = ask_project(dense, question, now=NOW)
    free = ask_project(dense, question, now=NOW)
    assert held.mode == free.mode == "hybrid", held.degradations
    assert held.notes == (*free.notes, SYNC_RUNNING_NOTE)


def test_the_cli_json_of_a_held_sync_carries_the_note(project, cli):
    root = ("--project", str(Path(project.root)))
    with sync_lock(project):
        searched = json.loads(cli("search", "AbortController", "--json", *root).out)
        asked = json.loads(cli("ask", "what calls helper", "--json", *root).out)
    assert SYNC_RUNNING_NOTE in searched["notes"] and SYNC_RUNNING_NOTE in asked["notes"]


MCP_READS = {
    "memory_ask": {"question": "AbortController"},
    "memory_search": {"query": "AbortController"},
    "memory_index": {"query": "AbortController"},
    "search_memory": {"query": "AbortController"},
    "recall": {"query": "AbortController"},
    "recall_context": {"query": "AbortController"},
    "mem_search": {"query": "AbortController"},
    "graph_neighbours": {"node": "helper"},
    "graph_impact": {"node": "helper"},
}


def test_every_mcp_read_tool_answering_in_the_contract_says_a_sync_is_running(project):
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main() -> dict:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return {name: await client.call_tool(name, args) for name, args in MCP_READS.items()}

    with sync_lock(project):
        held = anyio.run(main)
    free = anyio.run(main)
    for name in MCP_READS:
        assert not held[name].isError, (name, held[name].content)
        assert held[name].structuredContent["notes"][-1] == SYNC_RUNNING_NOTE, name
        assert SYNC_RUNNING_NOTE not in free[name].structuredContent["notes"], name
    said = held["recall_context"].content[0].text  # the packed text says it too, inside its budget
    assert f"note: {SYNC_RUNNING_NOTE}" in said
    assert SYNC_RUNNING_NOTE not in free["recall_context"].content[0].text
    used = held["recall_context"].structuredContent["budget"]["used_tokens"]
    assert used <= held["recall_context"].structuredContent["budget"]["max_tokens"]
