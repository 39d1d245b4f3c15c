"""memory_ask takes a limit, and its text says what raises it as the tool names it (lobsters, walked:
"hidden: 5 past --limit", but the tool had no such argument and refused one)."""

from __future__ import annotations

import anyio
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.interfaces.mcp.server import build_server

FILES = {
    "app/store.py": "def save_record(x):\n    return x\n",
    **{
        f"app/job{i}.py": f"from app.store import save_record\n\n\ndef run_{i}():\n    return save_record({i})\n"
        for i in range(6)
    },
}


def test_memory_ask_takes_a_limit_and_names_it_as_its_argument(make_project):
    project = make_project(FILES, name="asklimit")
    resync(project)
    server = build_server(project, tools="all", clock=lambda: NOW)

    async def main() -> tuple:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            small = await client.call_tool("memory_ask", {"question": "who calls save_record", "limit": 2})
            wide = await client.call_tool("memory_ask", {"question": "who calls save_record", "limit": 8})
            refused = await client.call_tool("memory_ask", {"question": "who calls save_record", "limit": 0})
            return small, wide, refused

    small, wide, refused = anyio.run(main)
    assert not small.isError and len(small.structuredContent["excerpts"]) == 2
    text = small.content[0].text
    assert "hidden: 4 past limit" in text and "--limit" not in text, text
    assert len(wide.structuredContent["excerpts"]) == 6
    assert refused.isError  # a limit below 1: a typed refusal, not an empty answer
