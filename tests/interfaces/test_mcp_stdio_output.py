"""`kenning mcp` writes its replies to standard output from the event loop (``stdio.Output``):
no round trip to a worker thread for each write and flush, a reply larger than the pipe
written whole as the client reads it, and output that cannot be waited on (a file) written
in a worker thread as the SDK writes it."""

from __future__ import annotations

import os
import threading

import anyio
import anyio.to_thread
import pytest

from kenning.interfaces.mcp import stdio


def read_all(fd: int, out: list[bytes]) -> None:
    while chunk := os.read(fd, 7000):
        out.append(chunk)


def test_a_reply_larger_than_the_pipe_is_written_whole_without_a_worker_thread(monkeypatch):
    async def no_thread(*args, **kwargs):
        raise AssertionError("a worker thread was used")

    monkeypatch.setattr(anyio.to_thread, "run_sync", no_thread)
    read_end, write_end = os.pipe()
    text = "".join(f'{{"id": {n}, "text": "réponse {n}"}}' for n in range(20_000)) + "\n"  # ~600 KB, not ASCII
    received: list[bytes] = []
    reader = threading.Thread(target=read_all, args=(read_end, received))
    reader.start()

    async def main() -> None:
        output = stdio.Output(write_end)
        await output.write(text)
        await output.write("second\n")
        await output.flush()

    try:
        anyio.run(main)
    finally:
        os.close(write_end)
        reader.join(10)
        os.close(read_end)
    assert b"".join(received) == (text + "second\n").encode("utf-8")


def test_output_that_cannot_be_waited_on_is_written_in_a_worker_thread(tmp_path):
    path = tmp_path / "out.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        output = stdio.Output(fd)

        async def main() -> None:
            await output.write("één\n")
            await output.flush()

        anyio.run(main)
    finally:
        os.close(fd)
    assert path.read_bytes() == "één\n".encode()


@pytest.mark.parametrize("broken", [ValueError, OSError])
def test_standard_output_without_a_descriptor_leaves_the_sdk_its_own(monkeypatch, broken):
    class Captured:
        def flush(self) -> None:
            pass

        def fileno(self) -> int:
            raise broken("no descriptor")

    monkeypatch.setattr(stdio.sys, "stdout", Captured())
    assert stdio._output() is None


def test_a_reply_the_pipe_has_room_for_is_one_write_and_the_pipe_stays_blocking(monkeypatch):
    writes: list[int] = []
    real_write = os.write

    def counted(fd: int, data) -> int:
        writes.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr(stdio.os, "write", counted)
    read_end, write_end = os.pipe()
    text = '{"excerpts": [' + ",".join(f'{{"id": {n}}}' for n in range(2_000)) + "]}\n"  # ~24 KB: the pipe holds 64
    try:

        async def main() -> None:
            await stdio.Output(write_end).write(text)

        anyio.run(main)
        assert writes == [len(text)]
        assert os.get_blocking(write_end)  # other writers sharing the descriptor see it as it was
        assert os.read(read_end, 65536) == text.encode()
    finally:
        os.close(write_end)
        os.close(read_end)
