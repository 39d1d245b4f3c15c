"""What a stopping HTTP server (`kenning serve`, `kenning mcp --http`) does with the requests it
holds when SIGTERM arrives: a memory write in flight is answered and lands before the server
stops; a client that stops sending in the middle of its body no longer keeps the server from
stopping (uvicorn waited for it without end: one SIGTERM never stopped `kenning serve`). Both
end with exit 0 and the store connections closed. The real commands in a subprocess; the
write is held in flight by a lock the test takes on the store."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import threading
import time
from typing import Any

import httpx
import pytest

from conftest import NOW, on_free_port, resync, wait_until_served
from kenning import registry
from kenning.auth import tokens
from kenning.memory.observations import Observation, save
from kenning.store import facts as fact_store
from kenning.store.db import connect

COMMANDS = {"serve": ("serve",), "mcp --http": ("mcp", "--http", "--tools", "all")}
FORM_TOKEN = re.compile(r'name="token" value="([^"]+)"')
SAVED = "The release checklist lives in docs/release.md."
FORM = "application/x-www-form-urlencoded"


@pytest.fixture()
def served(make_project, isolated_home):
    """A synced project holding one saved memory (its id), and a read-write token's secret."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    conn = connect(project.db_path)
    try:
        fact_id = save(conn, project.name, Observation(text="Tests live under tests/.", producer="human"), now=NOW)
    finally:
        conn.close()
    _, secret = tokens.create(
        isolated_home,
        scopes=[tokens.READ, tokens.WRITE],
        projects=[project.name],
        paths=[],
        name=None,
        expires="30d",
        now=NOW,
    )
    return project, fact_id.fact_id, secret


def write(command: str, port: int, secret: str, fact_id: int) -> Any:
    """The write: the cockpit's confirm gesture (its status), or MCP save_memory (the id saved)."""
    if command == "serve":
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as browser:
            token = FORM_TOKEN.search(browser.get("/memory").text)
            assert token
            form = {"token": token[1], "id": str(fact_id), "confirmed": "yes"}
            return browser.post("/memory/confirm", data=form).status_code

    # plain JSON-RPC on one connection: the SDK's client would end its session with a new
    # request after the answer, which a stopping server refuses, failing the whole call
    headers = {"Authorization": f"Bearer {secret}", "Accept": "application/json, text/event-stream"}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60) as client:
        init = client.post("/mcp", json=rpc(1, "initialize", INIT))
        client.headers["mcp-session-id"] = init.headers["mcp-session-id"]
        client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        called = client.post("/mcp", json=rpc(2, "tools/call", {"name": "save_memory", "arguments": {"text": SAVED}}))
    result = called.json()["result"]
    return None if result.get("isError") else result["structuredContent"]["id"]


INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}


def rpc(number: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": params}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_write_in_flight_at_sigterm_is_answered_and_lands_before_the_server_stops(served, isolated_home, command):
    project, fact_id, secret = served
    answered: list[Any] = []
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        lock = sqlite3.connect(project.db_path, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the write waits for this lock (busy timeout)
        writer = threading.Thread(target=lambda: answered.append(write(command, port, secret, fact_id)))
        writer.start()
        time.sleep(2)  # the request reaches the store and waits there
        server.send_signal(signal.SIGTERM)
        time.sleep(1)
        still_serving = server.poll() is None
        lock.rollback()
        lock.close()
        writer.join(30)
        code = server.wait(timeout=20)
        assert server.stderr is not None
        rest = server.stderr.read()
    assert still_serving  # it waited for the write
    assert code == 0, rest
    assert len(answered) == 1 and answered[0] is not None
    conn = connect(project.db_path)
    try:
        if command == "serve":
            assert answered == [303]
            assert fact_store.get(conn, project.name, fact_id).dates.confirmed is not None
        else:
            assert SAVED in fact_store.get(conn, project.name, answered[0]).body
    finally:
        conn.close()
    assert sorted(p.name for p in project.state_dir.glob("kenning.db-*") if p.suffix != ".db-wait") == []


def stall(command: str, port: int, secret: str) -> socket.socket:
    """A request that sends its head and 19 of its 1,000 bytes of body, then nothing more: a
    form to the cockpit, a JSON-RPC message to /mcp (with a token, so that the gate reads it)."""
    path, kind = ("/mcp", "application/json") if "mcp" in command else ("/memory/confirm", FORM)
    stalled = socket.create_connection(("127.0.0.1", port))
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {secret}\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Type: {kind}\r\nContent-Length: 1000\r\n\r\n"
    )
    stalled.sendall(head.encode() + b'{"jsonrpc": "2.0", ')
    return stalled


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_client_stalled_in_the_middle_of_its_body_does_not_keep_the_server_from_stopping(
    served, isolated_home, command
):
    project, _, secret = served
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        stalled = stall(command, port, secret)
        try:
            time.sleep(1)
            server.send_signal(signal.SIGTERM)
            code = server.wait(timeout=30)
        finally:
            stalled.close()
        assert server.stderr is not None
        rest = server.stderr.read()
    assert code == 0, rest
    assert "Traceback" not in rest
    assert sorted(p.name for p in project.state_dir.glob("kenning.db-*") if p.suffix != ".db-wait") == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_second_ctrl_c_during_the_shutdown_stops_at_once_without_a_traceback(served, isolated_home, command):
    """The forced stop cancels the request and the app's lifespan: uvicorn logged both as
    tracebacks (a request's, and Starlette's cancelled lifespan as a failed shutdown). It exits
    130, as `kenning mcp` over stdio (it exited 0, as a clean stop)."""
    project, _, secret = served
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        stalled = stall(command, port, secret)
        try:
            time.sleep(1)
            server.send_signal(signal.SIGINT)
            time.sleep(1)  # the shutdown waits for the stalled request
            server.send_signal(signal.SIGINT)
            code = server.wait(timeout=30)
        finally:
            stalled.close()
        assert server.stderr is not None
        rest = server.stderr.read()
    assert code == 130, rest
    assert "Traceback" not in rest and "CancelledError" not in rest, rest
    assert "timeout graceful shutdown exceeded" not in rest  # it did not wait for the grace
    assert sorted(p.name for p in project.state_dir.glob("kenning.db-*") if p.suffix != ".db-wait") == []
