"""`kenning mcp` over stdio stops cleanly on SIGTERM or SIGINT, as the HTTP servers do
(test_server_stop.py): exit 0, no traceback, its store connections closed (SQLite removes the
write-ahead log when the last connection closes), a save in flight committed whole or not at
all. Before, SIGTERM killed it (exit 143, the log left behind) and SIGINT waited for the next
input line. The real command in a subprocess, driven by the SDK's stdio client."""

from __future__ import annotations

import json
import os
import pty
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import anyio
import mcp.client.stdio as sdk_stdio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from terminal import read_to_end

from conftest import resync

KENNING = str(Path(sys.executable).with_name("kenning"))
IN_FLIGHT = "The release train leaves every second Tuesday."


@pytest.fixture
def spawned(monkeypatch):
    """The server processes the SDK's stdio client starts (it does not expose them: its
    process factory is wrapped), for their pid and exit code."""
    processes = []
    factory = sdk_stdio._create_platform_compatible_process

    async def spawn(*args, **kwargs):
        process = await factory(*args, **kwargs)
        processes.append(process)
        return process

    monkeypatch.setattr(sdk_stdio, "_create_platform_compatible_process", spawn)
    return processes


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])  # SIGHUP: exit 129 before
def test_a_stdio_server_stopped_by_a_signal_exits_0_with_its_store_closed(
    make_project, isolated_home, tmp_path, spawned, cli, sig
):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    resync(project)
    params = StdioServerParameters(
        command=KENNING,
        args=["mcp", "--project", str(project.root), "--tools", "all"],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
    )
    wal = project.db_path.with_name(project.db_path.name + "-wal")
    in_flight: list[object] = []

    async def main(stderr):
        async with stdio_client(params, errlog=stderr) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            saved = await session.call_tool("save_memory", {"text": "Tokens rotate every hour."})
            assert not saved.isError and wal.exists()  # the server holds its store open

            async def save_while_stopping():
                try:
                    in_flight.append(await session.call_tool("save_memory", {"text": IN_FLIGHT}))
                except Exception as exc:  # the server went away before answering
                    in_flight.append(exc)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(save_while_stopping)
                await anyio.sleep(0.001)  # sent, maybe not yet read or finished: both outcomes allowed
                os.kill(spawned[0].pid, sig)
                with anyio.fail_after(30):
                    await spawned[0].wait()
                with anyio.move_on_after(10):  # the client sees the stream close: the call fails
                    while not in_flight:
                        await anyio.sleep(0.05)
                tasks.cancel_scope.cancel()

    with open(tmp_path / "stderr.txt", "w+") as stderr:
        anyio.run(main, stderr)
        stderr.seek(0)
        logged = stderr.read()
    assert spawned[0].returncode == 0, logged
    assert "Traceback" not in logged and "stopped on" not in logged  # stderr is no terminal: nothing said
    assert not wal.exists()  # every connection closed: the log checkpointed and removed
    with sqlite3.connect(project.db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = [r[0] for r in conn.execute("SELECT id FROM facts WHERE body = ?", (IN_FLIGHT,))]
    conn.close()
    searched = cli("search", "second Tuesday release train", "--project", str(project.root), "--json")
    hits = [e["id"] for e in searched.json()["excerpts"] if e["id"] in rows]
    answered = bool(in_flight) and not isinstance(in_flight[0], Exception) and not in_flight[0].isError
    assert hits == rows and len(rows) <= 1  # the save in flight: whole (its row and its index entry) or absent
    assert rows or not answered  # an answered save landed


INITIALIZE = (
    '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", '
    '"capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}'
)


def kenning_mcp(project, home: Path, **streams) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", "mcp", "--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(home)},
        **streams,
    )


def test_a_stdio_server_reading_a_file_or_dev_null_answers_and_exits_0_at_its_end(
    make_project, isolated_home, tmp_path
):
    """Input that cannot be waited on (a file, /dev/null) is read as the SDK read it; a last
    line without its newline is still a request."""
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    requests = tmp_path / "requests.jsonl"
    requests.write_text(INITIALIZE, encoding="utf-8")  # no final newline
    with open(requests, "rb") as stdin:
        done = kenning_mcp(project, isolated_home, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = done.communicate(timeout=60)
    assert done.returncode == 0, err.decode()
    assert json.loads(out.decode().splitlines()[0])["id"] == 1
    empty = kenning_mcp(
        project, isolated_home, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = empty.communicate(timeout=60)
    assert (empty.returncode, out, b"Traceback" in err) == (0, b"", False)


def test_a_signal_stop_says_so_in_one_line_when_stderr_is_a_terminal(make_project, isolated_home):
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    main, tty = pty.openpty()
    server = kenning_mcp(project, isolated_home, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=tty)
    os.close(tty)
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(INITIALIZE.encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1  # serving
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        said = read_to_end(main)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        os.close(main)
    assert code == 0
    assert said.decode().splitlines() == ["kenning mcp: stopped on SIGTERM, shut down cleanly"]


@pytest.mark.parametrize(("second", "expected"), [(signal.SIGINT, 130), (signal.SIGTERM, 0), (signal.SIGHUP, 0)])
def test_a_second_signal_during_the_shutdown_a_ctrl_c_forces_the_stop_with_the_store_closed(
    make_project, isolated_home, second, expected
):
    """A save held in flight by a lock the test takes keeps the shutdown going; a second Ctrl-C
    then ends the session at once and exits 130, as the HTTP servers' forced stop; another
    SIGTERM or SIGHUP changes nothing (exit 0). Either way the store is closed, no traceback.
    Before, any second signal took its default action: 143 for SIGTERM, a `KeyboardInterrupt`."""
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    resync(project)
    server = subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", "mcp", "--project", str(project.root), "--tools", "all"],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    lock = sqlite3.connect(project.db_path, isolation_level=None)
    try:
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        server.stdin.write(INITIALIZE.encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1  # serving
        lock.execute("BEGIN IMMEDIATE")  # the save waits for this lock (busy timeout)
        save = {"name": "save_memory", "arguments": {"text": IN_FLIGHT}}
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": save}).encode())
        server.stdin.write(b"\n")
        server.stdin.flush()
        time.sleep(1.5)  # the save reaches the store and waits there
        server.send_signal(signal.SIGINT)
        time.sleep(1)
        assert server.poll() is None  # the shutdown waits for the save
        server.send_signal(second)
        time.sleep(0.5)
        lock.rollback()
        code = server.wait(timeout=30)
        logged = server.stderr.read().decode()
    finally:
        lock.close()
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    assert code == expected, logged
    assert "Traceback" not in logged and "KeyboardInterrupt" not in logged, logged
    assert sorted(p.name for p in project.state_dir.glob("kenning.db-*") if p.suffix != ".db-wait") == []
    with sqlite3.connect(project.db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
