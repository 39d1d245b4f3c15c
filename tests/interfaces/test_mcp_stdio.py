"""`kenning mcp` over stdio reads and writes its pipes on the event loop (interfaces/mcp/stdio.py):
long lines and large results through the official SDK client, and the adapters on real pipes."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage

from kenning.interfaces.mcp import stdio

KENNING = str(Path(sys.executable).with_name("kenning"))


def test_long_requests_and_results_larger_than_a_pipe_pass_whole(make_project, isolated_home):
    """A request of 300 kB (five chunks), memories of multi-byte text (chunks cut inside a
    character) and a 200 kB result (three pipe buffers) cross the pipes unchanged."""
    project = make_project({"README.md": "# Demo\n\nA demo project.\n"})
    params = StdioServerParameters(
        command=KENNING,
        args=["mcp", "--project", str(project.root), "--tools", "all"],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
    )
    bodies = [f"Note {n}: " + "é🙂ß" * 6_600 for n in range(5)]

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            refused = await session.call_tool("memory_ask", {"question": "demo", "pad": "x" * 300_000})
            ids = [(await session.call_tool("save_memory", {"text": body})).structuredContent["id"] for body in bodies]
            got = await session.call_tool("memory_get", {"ids": ids, "full": True})
            asked = await session.call_tool("memory_ask", {"question": "Note 3"})
            return refused, got, asked

    refused, got, asked = anyio.run(main)
    assert refused.isError
    assert refused.structuredContent["error"]["type"] == "UsageError"
    assert "`pad`" in refused.structuredContent["error"]["message"]
    assert not got.isError
    assert [f["body"] for f in got.structuredContent["facts"]] == bodies
    assert len(json.dumps(got.structuredContent, ensure_ascii=False).encode("utf-8")) > 3 * 65_536
    assert not asked.isError and asked.structuredContent["excerpts"]


async def _lines(chunks: list[bytes]) -> list[str]:
    """What ``PipeLines`` reads from a real pipe the chunks are written to, one by one."""
    loop = asyncio.get_running_loop()
    read_fd, write_fd = os.pipe()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", buffering=0)
    )

    def feed() -> None:
        with os.fdopen(write_fd, "wb", buffering=0) as pipe:
            for chunk in chunks:
                pipe.write(chunk)

    writing = loop.run_in_executor(None, feed)
    lines = [line async for line in stdio.PipeLines(reader)]
    await writing
    transport.close()
    return lines


def test_pipe_lines_are_the_lines_written_whatever_the_chunks():
    long = "ü" * 100_000  # 200 kB: more than three reads of CHUNK
    text = f'{{"a": 1}}\n{{"b": "{long}"}}\n\n{{"c": "€"}}\n{{"last": true}}'
    data = text.encode("utf-8")
    cuts = [0, 5, 11, 12, 70_001, 150_000, 200_015, len(data) - 3, len(data)]  # some inside a character
    lines = asyncio.run(_lines([data[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]))
    assert lines == ['{"a": 1}\n', f'{{"b": "{long}"}}\n', "\n", '{"c": "€"}\n', '{"last": true}']
    assert asyncio.run(_lines([])) == []
    assert asyncio.run(_lines([b"ok\n", b"\xff\xfe bad\n"])) == ["ok\n", "\ufffd\ufffd bad\n"]  # as the SDK decodes


def test_native_only_on_pipes_within_an_asyncio_loop(tmp_path):
    read_fd, write_fd = os.pipe()
    regular = os.open(tmp_path / "file", os.O_CREAT | os.O_RDWR)
    try:

        async def check() -> tuple[bool, bool, bool]:
            return (
                stdio.native_possible(read_fd, write_fd),
                stdio.native_possible(regular, write_fd),
                stdio.native_possible(read_fd, regular),
            )

        assert asyncio.run(check()) == (True, False, False)
        assert not stdio.native_possible(read_fd, write_fd)  # no running loop
    finally:
        for fd in (read_fd, write_fd, regular):
            os.close(fd)


def test_native_stdio_carries_messages_and_leaves_the_pipes_blocking():
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    ping = types.JSONRPCMessage(types.JSONRPCRequest(jsonrpc="2.0", id=7, method="ping"))
    pong = types.JSONRPCMessage(types.JSONRPCResponse(jsonrpc="2.0", id=7, result={}))

    async def main() -> SessionMessage | Exception:
        async with stdio.native_stdio(in_read, out_write) as (read_stream, write_stream):
            assert not os.get_blocking(in_read)  # read by the loop, not by a thread
            os.write(in_write, ping.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n")
            received = await read_stream.receive()
            await write_stream.send(SessionMessage(pong))
            await write_stream.aclose()
            os.close(in_write)  # the client hangs up: the reader ends
            async for _ in read_stream:
                pass
        return received

    try:
        received = asyncio.run(main())
        assert isinstance(received, SessionMessage) and received.message == ping
        assert os.read(out_read, 1 << 16) == pong.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n"
        assert os.get_blocking(in_read) and os.get_blocking(out_write)
    finally:
        for fd in (in_read, out_read, out_write):
            os.close(fd)
