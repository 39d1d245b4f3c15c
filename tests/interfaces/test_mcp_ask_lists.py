"""memory_ask through the SDK's client on a server that keeps impact lists, reads the common
words' lists in the background from its start and answers on its own pooled connection: the
answers are those of a one-shot `ask_project` (no list, a fresh connection), asked while the
warm-up runs and after it, and after a note saved through the same server."""

from __future__ import annotations

import random
import threading
import time

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.interfaces.mcp.server import build_server
from kenning.store import postings

WORDS = ["cache", "index", "query", "token", "graph", "node", "edge", "stale", "merge", "fusion", "rank", "vector"]
WORDS += ["sparse", "dense", "list"]
QUESTIONS = [
    "how does the cache merge stale index pages",
    "query token rank fusion",
    "where do graph nodes and edges get ranked",
    "sparse vector lists",
    "dense fusion of ranked lists for a query",
]


def _files(seed: int, count: int) -> dict[str, str | bytes]:
    rng = random.Random(seed)
    files: dict[str, str | bytes] = {}
    for i in range(count):
        sections = [
            f"## {' '.join(rng.choices(WORDS, k=2))}\n\n{' '.join(rng.choices(WORDS, k=30))}.\n" for _ in range(4)
        ]
        files[f"docs/page{i:03d}.md"] = f"# Page {i} {rng.choice(WORDS)}\n\n" + "\n".join(sections)
    return files


def _warming() -> bool:
    return any(t.name == "kenning-warm-lists" for t in threading.enumerate())


def _expected(project, question: str) -> dict:
    postings.enable(False)  # a one-shot process: no list, FTS5 ranks
    try:
        return ask_project(project, question, now=NOW).to_json()
    finally:
        postings.enable()


def test_memory_ask_answers_as_a_one_shot_ask_during_and_after_the_warm_up_and_after_a_save(make_project, monkeypatch):
    project = make_project(_files(7, 120))
    resync(project)
    expected = {q: _expected(project, q) for q in QUESTIONS}
    assert all(answer["excerpts"] for answer in expected.values())
    monkeypatch.setattr(postings, "WARM_FROM", 20)  # a small store: read the lists of words in 20 rows or more
    server = build_server(project, tools="all", clock=lambda: NOW)  # starts the warm-up thread

    async def main() -> None:
        async with create_connected_server_and_client_session(server._mcp_server) as client:

            async def ask(question: str) -> dict:
                result = await client.call_tool("memory_ask", {"question": question})
                assert not result.isError, result.content
                return result.structuredContent

            for question in QUESTIONS:  # the first ones, most likely while the lists are read
                assert await ask(question) == expected[question]
            deadline = time.monotonic() + 30
            while _warming() and time.monotonic() < deadline:
                await anyio.sleep(0.01)
            assert not _warming()
            assert postings.cached_postings() > 0
            for question in QUESTIONS:
                assert await ask(question) == expected[question]
            note = "Sparse vector lists: one sparse vector list per stale token."
            saved_note = await client.call_tool("save_memory", {"text": note, "title": "sparse vector lists"})
            assert not saved_note.isError, saved_note.content
            after = await ask("sparse vector lists")
            assert after == _expected(project, "sparse vector lists") != expected["sparse vector lists"]
            assert after["excerpts"][0]["title"] == "sparse vector lists"  # the note leads: no stale list

    try:
        anyio.run(main)
    finally:
        postings.enable(False)
