"""What the MCP tool list costs an agent (issue 17). A script, not a test: it prints figures.

1. Tokens (characters ÷ 4) of the `tools/list` result per profile, as sent on the wire
   (output schemas and annotations included), and of the part a client typically puts in the
   model's prompt (name, description, input schema).
2. A scripted agent task — find, read and cite three facts — on a throwaway project of
   --observations synthetic memories plus three facts about the vault key rotation. The agent
   calls tools through the real server (the SDK's in-memory client session); every model
   turn re-reads the tool list and the conversation so far, so the input tokens of a task
   are Σ over turns of (tool list + task + replies so far). Output tokens are the same for
   every profile and left out.

Usage: .venv/bin/python bench/mcp_tokens.py [--observations 300]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path

import anyio
from mcp.shared.memory import create_connected_server_and_client_session
from mcp.types import ListToolsResult

import _common  # noqa: F401  (puts src/ on the path)
from kenning.interfaces.mcp.profiles import PROFILES
from kenning.interfaces.mcp.server import build_server
from kenning.memory.observations import Observation, save
from kenning.store.db import connect
from token_economy import NOW, build

TASK = "Find, read and cite three facts about how the vault signing keys are rotated."
TARGETS = [
    Observation(
        text="The vault signing keys rotate every night at 02:00 UTC through the rotate-keys job.",
        title="Vault signing keys rotate nightly",
        tags=("vault",),
        importance=8,
    ),
    Observation(
        text="A vault key rotation must never overlap the backup window; the job waits for the lock.",
        title="Vault key rotation waits for the backup lock",
        tags=("vault",),
        importance=7,
    ),
    Observation(
        text="After a vault signing key rotation, clients refresh their cached public keys within 5 min.",
        title="Clients refresh vault public keys after rotation",
        tags=("vault",),
        importance=6,
    ),
]
QUERY = "vault signing keys rotation"


def tokens(text: str) -> int:
    return round(len(text) / 4)


def reply_text(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def list_cost(server) -> tuple[int, int, int]:
    async with create_connected_server_and_client_session(server._mcp_server) as client:
        listed = (await client.list_tools()).tools
    wire = ListToolsResult(tools=listed).model_dump_json(by_alias=True, exclude_none=True)
    prompt = json.dumps(
        [{"name": t.name, "description": t.description, "input_schema": t.inputSchema} for t in listed],
        separators=(",", ":"),
    )
    return len(listed), tokens(wire), tokens(prompt)


async def per_tool(server) -> dict[str, int]:
    async with create_connected_server_and_client_session(server._mcp_server) as client:
        listed = (await client.list_tools()).tools
    return {t.name: tokens(t.model_dump_json(by_alias=True, exclude_none=True)) for t in listed}


async def task(server, plan: str, wanted: set[int]) -> tuple[int, int, int, bool]:
    """(model turns, tokens of tool replies, input tokens of the task, all three cited)."""
    _, list_tokens, _ = await list_cost(server)
    replies: list[str] = []
    async with create_connected_server_and_client_session(server._mcp_server) as client:
        if plan == "layers":
            index = await client.call_tool("memory_index", {"query": QUERY, "limit": 10})
            replies.append(reply_text(index))
            top = [e["id"] for e in index.structuredContent["excerpts"][:3]]
            got = await client.call_tool("memory_get", {"ids": top})
            replies.append(reply_text(got))
            cited = {f["id"] for f in got.structuredContent["facts"]}
        else:  # mem_search auto: index → context → three records in one call
            auto = await client.call_tool("mem_search", {"query": QUERY, "mode": "auto", "maxDetails": 3})
            replies.append(reply_text(auto))
            cited = {f["id"] for f in auto.structuredContent["facts"]}
    turns = len(replies) + 1  # one turn per tool call, then the answer
    spent = sum(list_tokens + tokens(TASK) + sum(tokens(r) for r in replies[:turn]) for turn in range(turns))
    return turns, sum(tokens(r) for r in replies), spent, wanted <= cited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        project = build(Path(tmp) / "bench", args.observations)
        conn = connect(project.db_path)
        wanted = {save(conn, project.name, obs, now=NOW).fact_id for obs in TARGETS}
        conn.close()
        print(f"kenning MCP tool list and agent task · tokens = characters / 4 · {args.observations} observations")
        print(f"machine: {platform.platform()} · Python {platform.python_version()} · {os.cpu_count()} CPU(s)")
        print()
        print("| profile | tools | tokens, tools/list as sent | tokens, name + description + input schema |")
        print("|---|---|---|---|")
        for profile in PROFILES:
            count, wire, prompt = anyio.run(list_cost, build_server(project, tools=profile))
            print(f"| `{profile}` | {count} | {wire:,} | {prompt:,} |")
        graph = anyio.run(per_tool, build_server(project, tools="graph"))
        print()
        print(
            "Graph tools, one definition each (the default profile takes one): "
            + ", ".join(f"`{name}` {cost}" for name, cost in sorted(graph.items(), key=lambda kv: kv[1]))
        )
        print()
        print(f"Task: “{TASK}”")
        print()
        print("| profile | calls | model turns | tokens of tool replies | input tokens of the task | 3 facts cited |")
        print("|---|---|---|---|---|---|")
        for profile, plan, calls in (
            ("default", "layers", "memory_index → memory_get"),
            ("all", "layers", "memory_index → memory_get"),
            ("all", "auto", "mem_search(mode=auto)"),
        ):
            server = build_server(project, clock=lambda: NOW, tools=profile)
            turns, reply_tokens, spent, ok = anyio.run(task, server, plan, wanted)
            print(f"| `{profile}` | {calls} | {turns} | {reply_tokens:,} | {spent:,} | {'yes' if ok else 'no'} |")


if __name__ == "__main__":
    main()
