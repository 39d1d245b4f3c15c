"""The failed-attempt limit counts per client address, and a client cannot choose its address
with `X-Forwarded-For`: uvicorn believed that header from 127.0.0.1 by default, so a local
process sending a fresh address with each bad token was never limited. The servers believe it
only from the proxies `--forwarded-allow-ips` names. The real command in a subprocess, real
HTTP requests."""

from __future__ import annotations

import httpx
import pytest

from conftest import on_free_port, wait_until_served

COMMANDS = {"mcp --http": ("mcp", "--http"), "serve --mcp": ("serve", "--mcp")}
LIMIT = 10  # FailureLimiter's default: 10 failed attempts within 60 s


def bad_token(port: int, forwarded_for: str) -> httpx.Response:
    return httpx.post(
        f"http://127.0.0.1:{port}/mcp",
        headers={"Authorization": "Bearer not-a-token", "X-Forwarded-For": forwarded_for},
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        timeout=10,
    )


@pytest.mark.parametrize("command", list(COMMANDS))
def test_bad_tokens_with_a_fresh_forwarded_address_each_are_still_limited_as_one_client(
    make_project, isolated_home, command
):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        statuses = [bad_token(port, f"203.0.113.{n}").status_code for n in range(1, LIMIT + 1)]
        refused = bad_token(port, "198.51.100.7")
    assert statuses == [401] * LIMIT
    assert refused.status_code == 429
    assert "too many failed attempts from 127.0.0.1" in refused.json()["error"]["message"]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_behind_a_proxy_named_by_forwarded_allow_ips_each_forwarded_client_has_its_own_count(
    make_project, isolated_home, command
):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    args = (*COMMANDS[command], "--forwarded-allow-ips", "127.0.0.1", "--project", str(project.root))
    with on_free_port(*args, home=isolated_home) as (server, port):
        wait_until_served(server, port)
        statuses = [bad_token(port, "203.0.113.1").status_code for _ in range(LIMIT)]
        same = bad_token(port, "203.0.113.1")
        other = bad_token(port, "203.0.113.2")
    assert statuses == [401] * LIMIT
    assert same.status_code == 429
    assert "too many failed attempts from 203.0.113.1" in same.json()["error"]["message"]
    assert other.status_code == 401


def test_a_forwarded_allow_ips_that_is_no_address_is_a_usage_error_before_anything_starts(cli, make_project):
    project = make_project({"docs/a.md": "# Alpha\n"}, name="alpha")
    result = cli("mcp", "--http", "--forwarded-allow-ips", "proxy.local", "--project", str(project.root))
    assert result.code == 2
    assert "'proxy.local' is not an IP address or network" in result.err
