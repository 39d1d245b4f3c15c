"""A streamable-HTTP client that ends its session left a 45-line ERROR traceback ("Error in
standalone SSE writer … ClosedResourceError", logged by the MCP SDK) on the server's stderr,
every time. The real command, the SDK's own client; the filter drops that record only."""

from __future__ import annotations

import logging
import signal
import time

import anyio
import httpx
import pytest
from mcp_http_helpers import with_session

from conftest import NOW, on_free_port
from kenning import registry
from kenning.auth import tokens
from kenning.interfaces.mcp.disconnects import LOGGER, MESSAGE
from kenning.interfaces.mcp.http import mcp_endpoint


def test_a_client_that_disconnects_leaves_no_traceback_on_the_servers_stderr(make_project, isolated_home):
    project = make_project({"docs/a.md": "# Alpha\n\nThe signing keys rotate nightly.\n"}, name="alpha")
    registry.register(isolated_home, project.name, project.root)
    _, secret = tokens.create(
        isolated_home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    with on_free_port("mcp", "--http", "--project", str(project.root), home=isolated_home) as (server, port):
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "kenning mcp --http did not start"
                time.sleep(0.1)
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
