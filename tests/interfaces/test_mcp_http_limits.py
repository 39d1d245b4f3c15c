"""`/mcp` refuses what no MCP client sends with a typed error before any session: a body over
``serve.MAX_BODY`` (413, whether its length is declared or it comes chunked), a malformed
Authorization header (401, never a 500; the server goes on), a foreign Host on loopback (the
cockpit's typed 400, not the SDK's plain-text 421 and its WARNING). A real uvicorn server in a
thread, the gate in front of the SDK's transport, real tokens."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from mcp_http_helpers import running

from conftest import NOW, resync
from kenning import registry
from kenning.auth import tokens
from kenning.interfaces.mcp.http import create_app
from kenning.interfaces.serve import MAX_BODY

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


@pytest.fixture()
def served(make_project, isolated_home) -> Iterator[tuple[str, str]]:
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    _, secret = tokens.create(
        isolated_home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    with running(create_app(project, home=isolated_home, clock=lambda: NOW)) as url:
        yield url, secret


def big_body() -> bytes:
    """A JSON-RPC ping padded past the bound (valid JSON: only its size is wrong)."""
    return b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + b"x" * (MAX_BODY + 1) + b'"}'


def chunked(body: bytes, size: int = 65536) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


@pytest.mark.parametrize("how", ["declared", "chunked"])
def test_a_body_over_the_bound_is_a_typed_413(served, how):
    url, secret = served
    body = big_body() if how == "declared" else chunked(big_body())
    reply = httpx.post(url, content=body, headers={**ACCEPT, "Authorization": f"Bearer {secret}"}, timeout=30)
    assert reply.status_code == 413
    assert reply.json()["error"] == {
        "type": "ValidationError",
        "message": f"request body over {MAX_BODY} bytes",
        "hint": "send a smaller request",
    }


def test_a_body_over_the_bound_without_a_token_is_401_unread(served):
    url, _ = served
    reply = httpx.post(url, content=big_body(), headers=ACCEPT, timeout=30)
    assert reply.status_code == 401 and reply.json()["error"]["type"] == "Unauthorized"


@pytest.mark.parametrize(
    "header",
    [b"Basic Zm9vOmJhcg==", b"Bearer", b"Bearerkn_deadbeef", b"Bearer kn_\xff\xfe\x80", b"Bearer " + b"A" * 8000],
    ids=["Basic", "bearer alone", "bearer, no space", "latin-1 bytes", "8 KB"],
)
def test_a_malformed_authorization_header_is_a_typed_401_and_the_server_goes_on(served, header):
    url, secret = served
    refused = httpx.post(url, json=PING, headers={**ACCEPT, "Authorization": header}, timeout=10)
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    admitted = httpx.post(url, json=init, headers={**ACCEPT, "Authorization": f"Bearer {secret}"}, timeout=10)
    assert refused.status_code == 401
    assert refused.json()["error"]["type"] == "Unauthorized"
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert admitted.status_code == 200


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def test_a_foreign_host_on_loopback_is_the_cockpits_typed_400_and_no_warning(served, caplog):
    """The SDK answered 421 "Invalid Host header" in plain text and logged a WARNING."""
    url, secret = served
    bearer = {**ACCEPT, "Authorization": f"Bearer {secret}"}
    with caplog.at_level(logging.WARNING):
        refused = httpx.post(url, json=INIT, headers={**bearer, "Host": "kenning.lan:8766"}, timeout=10)
        anonymous = httpx.post(url, json=INIT, headers={**ACCEPT, "Host": "evil.example"}, timeout=10)
    assert refused.status_code == 400 and anonymous.status_code == 400  # before the token: as the cockpit
    error = refused.json()["error"]
    assert error["type"] == "UsageError"
    assert error["message"].startswith(
        "this MCP server (alpha) does not answer to host 'kenning.lan': it answers to 127.0.0.1, localhost, [::1]"
    )
    assert "proxy_set_header Host 127.0.0.1" in error["hint"] and "/mcp" in error["hint"]
    assert not [r for r in caplog.records if "Invalid Host" in r.getMessage()]


@pytest.mark.parametrize("host", ["localhost:8766", "127.0.0.1:1", "[::1]:8766"])
def test_loopback_names_are_served_and_the_sdks_origin_check_stays(served, host):
    """Kept exactly as strict: a loopback name passes, a foreign Origin is still refused by the SDK."""
    url, secret = served
    bearer = {**ACCEPT, "Authorization": f"Bearer {secret}", "Host": host}
    admitted = httpx.post(url, json=INIT, headers=bearer, timeout=10)
    foreign = httpx.post(url, json=INIT, headers={**bearer, "Origin": "http://evil.example"}, timeout=10)
    assert admitted.status_code == 200
    assert foreign.status_code == 403  # the SDK's "Invalid Origin header"
