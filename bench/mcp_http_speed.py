"""MCP tool-call latency over streamable HTTP on loopback, with the stdio figure beside it
(issue 17: target ≤ 30 ms p95 over HTTP). A script, not a test: it prints figures.

Both servers are real subprocesses (`kenning mcp --http` behind a bearer token, and
`kenning mcp` over stdio) on the same store of --facts observations (the token-economy
latency store); the clients are the SDK's, both open at once, their calls alternating.
Each call is timed at the client, after start-up and one warm-up call: `memory_index` with
three mid-frequency words (a search), and `memory_get` of one id (the transport with almost
no work).

Usage: .venv/bin/python bench/mcp_http_speed.py [--facts 50000] [--calls 200] [--store DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

import _common  # noqa: F401  (puts src/ on the path)
from kenning.auth import tokens
from kenning.bench.speed import quantile
from kenning.clock import utc_now
from kenning.config import init_project, load_project
from token_economy import bulk, vocabulary

KENNING = str(Path(sys.executable).with_name("kenning"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def interleaved(url: str, secret: str, root: Path, calls: int) -> dict[str, list[float]]:
    """Both transports open at once, calls alternating between them (the order flips every
    call), so that a load change on the machine hits both alike."""
    rng = random.Random(7)
    words = vocabulary()[200:5000]  # mid-frequency terms, as people type
    params = StdioServerParameters(command=KENNING, args=["mcp", "--project", str(root)], env=dict(os.environ))
    timings: dict[str, list[float]] = {
        k: [] for k in ("http_search", "stdio_search", "http_get", "stdio_get", "raw_search")
    }
    async with (
        httpx.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write, http_session_id),
        ClientSession(read, write) as remote,
        stdio_client(params) as (s_read, s_write),
        ClientSession(s_read, s_write) as local,
    ):
        sessions = {"http": remote, "stdio": local}
        for session in sessions.values():
            await session.initialize()
            await session.call_tool("memory_index", {"query": "warm up"})
        for n in range(calls):
            question = " ".join(rng.sample(words, 3))
            order = ("http", "stdio") if n % 2 else ("stdio", "http")
            for name in order:
                start = time.perf_counter()
                result = await sessions[name].call_tool("memory_index", {"query": question, "limit": 10})
                timings[f"{name}_search"].append((time.perf_counter() - start) * 1000)
                assert not result.isError, result.content
            for name in order:
                start = time.perf_counter()
                await sessions[name].call_tool("memory_get", {"ids": [1 + n % 1000]})
                timings[f"{name}_get"].append((time.perf_counter() - start) * 1000)
        # The same endpoint with one plain POST per call (no SDK client machinery): what a
        # lean client pays.
        headers = {
            "Accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
            "mcp-session-id": http_session_id(),
        }
        for n in range(calls):
            question = " ".join(rng.sample(words, 3))
            body = {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "memory_index", "arguments": {"query": question, "limit": 10}},
            }
            start = time.perf_counter()
            response = await http.post(url, json=body, headers=headers)
            timings["raw_search"].append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200 and '"isError":false' in response.text, response.text[:300]
    return timings


def extras() -> str:
    found = [name for name in ("httptools", "uvloop") if importlib.util.find_spec(name)]
    return ", ".join(found) or "none (pip install 'kenning[http]')"


def row(label: str, values: list[float]) -> str:
    return f"| {label} | {quantile(values, 0.5):.1f} | {quantile(values, 0.95):.1f} | {max(values):.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=50_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--store", type=Path, default=None, help="reuse (or create once) the project at this directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        os.environ["KENNING_HOME"] = str(home)
        root = args.store or Path(tmp) / "latency"
        if (root / ".kenning" / "kenning.db").exists():
            project = load_project(root)
        else:
            root.mkdir(parents=True, exist_ok=True)
            project, _ = init_project(root, "latency")
            print(f"building a store of {args.facts:,} observations: {bulk(project, args.facts):.1f} s")
        _, secret = tokens.create(
            home, scopes=[tokens.READ], projects=[project.name], paths=[], name="bench", expires="1d", now=utc_now()
        )
        port = free_port()
        server = subprocess.Popen(
            [KENNING, "mcp", "--http", "--port", str(port), "--project", str(root)],
            env=dict(os.environ),
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            figures = anyio.run(interleaved, f"http://127.0.0.1:{port}/mcp", secret, root, args.calls)
        finally:
            server.terminate()
            server.wait(10)
    load = os.getloadavg()[0]
    print(f"kenning MCP call latency · {args.facts:,} facts · {args.calls} calls each · ms at the client")
    print(
        f"machine: {platform.platform()} · Python {platform.python_version()} · {os.cpu_count()} CPU(s) · "
        f"load average at the end {load:.1f} · uvicorn extras: {extras()}"
    )
    print()
    print("| call | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    print(row("HTTP memory_index (search)", figures["http_search"]))
    print(row("stdio memory_index (search)", figures["stdio_search"]))
    print(row("HTTP memory_index, one plain POST (httpx, no SDK client)", figures["raw_search"]))
    print(row("HTTP memory_get (one id)", figures["http_get"]))
    print(row("stdio memory_get (one id)", figures["stdio_get"]))


if __name__ == "__main__":
    main()
