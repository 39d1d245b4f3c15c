"""End to end: `kenning mcp --project DIR` as a subprocess, driven by the SDK's stdio client."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

KENNING = str(Path(sys.executable).with_name("kenning"))


def text(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def test_kenning_mcp_over_stdio_saves_finds_and_reads_a_memory(make_project, isolated_home):
    project = make_project({"README.md": "# Demo\n\nA demo project.\n"})
    params = StdioServerParameters(command=KENNING, args=["mcp", "--project", str(project.root)],
                                   env={**os.environ, "KENNING_HOME": str(isolated_home)})

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            saved = await session.call_tool("save_memory", {"text": "The nightly job rotates the signing keys.",
                                                            "title": "Nightly key rotation", "importance": 6})
            fact_id = saved.structuredContent["id"]
            index = await session.call_tool("memory_index", {"query": "signing keys rotation"})
            reads = [await session.call_tool("memory_get", {"ids": [ref]})
                     for ref in (fact_id, str(fact_id), f"kn://{project.name}/{fact_id}")]
            return tools, fact_id, index, reads

    tools, fact_id, index, reads = anyio.run(main)
    assert {"memory_index", "memory_get", "save_memory", "mem_search"} <= tools
    assert f"kn://{project.name}/{fact_id} obs i6" in text(index)
    for result in reads:
        assert not result.isError
        assert [f["id"] for f in result.structuredContent["facts"]] == [fact_id]
        assert "The nightly job rotates the signing keys." in text(result)
