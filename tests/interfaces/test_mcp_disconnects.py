"""A streamable-HTTP client that ends its session left a 45-line ERROR traceback ("Error in
standalone SSE writer … ClosedResourceError", logged by the MCP SDK) on the server's stderr,
every time. The real command, the SDK's own client; the filter drops that record only."""

from __future__ import annotations

import logging
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp_http_helpers import with_session

from conftest import NOW, on_free_port
from kenning import registry
from kenning.auth import tokens
from kenning.interfaces.mcp.disconnects import LOGGER, MESSAGE
from kenning.interfaces.mcp.http import mcp_endpoint


@contextmanager
def served_with_a_token(make_project, home: Path) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """`kenning mcp --http` on a free port, serving; (the process, the /mcp URL, a token)."""
    project = make_project({"docs/a.md": "# Alpha\n\nThe signing keys rotate nightly.\n"}, name="alpha")
    registry.register(home, project.name, project.root)
    _, secret = tokens.create(
        home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    with on_free_port("mcp", "--http", "--project", str(project.root), home=home) as (server, port):
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "kenning mcp --http did not start"
                time.sleep(0.1)
        yield server, url, secret


def test_a_client_that_disconnects_leaves_no_traceback_on_the_servers_stderr(make_project, isolated_home):
    with served_with_a_token(make_project, isolated_home) as (server, url, secret):
        for _ in range(2):  # two clients come and go, each ending its session
            listed = with_session(url, secret, lambda s: s.list_tools())
            assert listed.tools
        time.sleep(0.5)  # the server closes the session's streams after the client's DELETE
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=20)
        assert server.stderr is not None
        err = server.stderr.read()
    assert "Traceback" not in err and "ClosedResourceError" not in err and MESSAGE not in err, err
    assert code == 0


def test_a_server_stopped_while_a_client_is_connected_logs_no_error(make_project, isolated_home):
    """At shutdown the SDK's SSE stream of a connected client returned unfinished, and uvicorn
    logged "ASGI callable returned without completing response" at ERROR for each client."""
    connected, failures = threading.Event(), []

    def client(url: str, secret: str) -> None:
        async def hold(session: ClientSession) -> None:
            await session.list_tools()
            connected.set()
            await anyio.sleep(30)

        try:
            with_session(url, secret, hold)
        except BaseException as exc:  # the server went away under it: expected
            failures.append(exc)

    with served_with_a_token(make_project, isolated_home) as (server, url, secret):
        holder = threading.Thread(target=client, args=(url, secret), daemon=True)
        holder.start()
        assert connected.wait(20)
        time.sleep(0.3)  # the client's standalone GET stream is open by now
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=20)
        assert server.stderr is not None
        err = server.stderr.read()
        holder.join(20)
    assert "ERROR" not in err and "Traceback" not in err, err
    assert code == 0


def logged(caplog: pytest.LogCaptureFixture, message: str, error: Exception) -> bool:
    """Whether a record the SDK's transport logger writes with ``error`` reaches the handlers."""
    caplog.clear()
    try:
        raise error
    except type(error):
        logging.getLogger(LOGGER).exception(message)
    return any(r.getMessage() == message for r in caplog.records)


def test_only_the_closed_stream_of_the_standalone_writer_is_dropped(make_project, isolated_home, caplog):
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    mcp_endpoint(project, home=isolated_home)  # what `kenning mcp --http` and `serve --mcp` build
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    assert not logged(caplog, MESSAGE, anyio.ClosedResourceError())
    assert logged(caplog, MESSAGE, RuntimeError("a real failure in the writer"))
    assert logged(caplog, MESSAGE, anyio.BrokenResourceError())
    assert logged(caplog, "Error in SSE writer", anyio.ClosedResourceError())
    assert logged(caplog, "Error handling POST request", ValueError("bad"))
