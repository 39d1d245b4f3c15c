"""`kenning serve`: loopback by default; any other address only explicitly, and behind tokens (test_web_tokens.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from web_corpus import NOW

from conftest import on_free_port
from kenning.errors import TokenRequired
from kenning.interfaces.web.binding import check_bind, is_loopback
from kenning.sync.run import sync


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses_are_served(host: str):
    assert is_loopback(host)
    check_bind(host, explicit=True)
    check_bind(host, explicit=False)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.com"])
def test_other_addresses_require_a_token(host: str):
    assert not is_loopback(host)
    with pytest.raises(TokenRequired, match="requires an access token"):
        check_bind(host, explicit=True)
    with pytest.raises(TokenRequired, match="only loopback"):
        check_bind(host, explicit=False)


def test_serve_refuses_a_non_loopback_host_before_opening_anything(cli, make_project):
    project = make_project({"a.md": "# A\n"})
    result = cli("serve", "--host", "0.0.0.0", "--project", str(project.root))
    assert result.code == 1
    assert "requires an access token" in result.err and "hint:" in result.err
    assert result.out == ""


def test_serve_help_names_the_default_host(cli):
    result = cli("serve", "--help")
    assert result.code == 0 and "127.0.0.1" in result.out and "--port" in result.out


def test_kenning_serve_answers_on_loopback(make_project, isolated_home: Path):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"})
    sync(project, now=NOW)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "KENNING_HOME": str(isolated_home)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kenning.interfaces.cli.main",
            "serve",
            "--port",
            str(port),
            "--project",
            str(project.root),
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ask?q=how+are+citations+computed") as reply:
                    body = reply.read().decode()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                assert time.monotonic() < deadline, "kenning serve did not answer"
                time.sleep(0.1)
        assert '"schema": "kenning.answer/v1"' in body and "docs/a.md" in body
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert f"http://127.0.0.1:{port}/" in server.stderr.read()


def test_port_0_prints_the_port_actually_chosen(make_project, isolated_home: Path):
    """`--port 0 picks a free one` (docs/web.md): the printed address is the one to open."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"})
    sync(project, now=NOW)
    with on_free_port("serve", "--project", str(project.root), home=isolated_home) as (server, port):
        assert port != 0
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ask?q=how+are+citations+computed") as reply:
                    assert "docs/a.md" in reply.read().decode()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "kenning serve did not answer"
                time.sleep(0.1)
    assert server.returncode in (0, -15)


def test_a_port_in_use_is_a_typed_error_before_any_banner(cli, make_project):
    project = make_project({"a.md": "# A\n"})
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli("serve", "--port", str(port), "--project", str(project.root))
    assert result.code == 2, result.err
    assert f"cannot listen on 127.0.0.1:{port}" in result.err and "hint:" in result.err
    assert "kenning cockpit" not in result.err  # no address announced that is not served
