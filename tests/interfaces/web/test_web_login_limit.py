"""The cockpit's failed-attempt limit behind tokens (`kenning serve --host ADDR`), with and
without a reverse proxy: the login form and a bearer token count together, per client address;
`X-Forwarded-For` is ignored unless the peer is named by `--forwarded-allow-ips`, so a local
process sending a fresh address with each bad secret is still one client, and two clients
behind one named proxy are limited separately. The real command in a subprocess on 0.0.0.0
(a non-loopback address: the gate is on), reached over loopback, real tokens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from conftest import NOW, on_free_port, resync, wait_until_served
from kenning import registry
from kenning.auth import tokens

LIMIT = 10  # FailureLimiter's default: 10 failed attempts within 60 s
FORM_TOKEN = re.compile(r'name="token" value="([^"]+)"')
BAD = "kn_deadbeef_" + "z" * 43


@contextmanager
def gated_cockpit(make_project, home: Path, *options: str) -> Iterator[tuple[str, str]]:
    """`kenning serve --host 0.0.0.0 OPTIONS` on a free port: its loopback URL and a valid secret."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    resync(project)
    registry.register(home, project.name, project.root)
    _, secret = tokens.create(
        home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    serve = ("serve", "--host", "0.0.0.0", *options, "--project", str(project.root))
    with on_free_port(*serve, home=home) as (server, port):
        wait_until_served(server, port)
        base = f"http://127.0.0.1:{port}"
        yield base, secret


def login(base: str, secret: str, forwarded_for: str) -> httpx.Response:
    """The login form, as a browser posts it, from ``forwarded_for`` (as a proxy says)."""
    with httpx.Client(base_url=base, headers={"X-Forwarded-For": forwarded_for}, timeout=10) as browser:
        page = browser.get("/login")
        match = FORM_TOKEN.search(page.text)
        assert page.status_code in (200, 429) and match, page.text[:200]
        return browser.post("/login", data={"token": match[1], "secret": secret, "next": "/"})


def api(base: str, secret: str, forwarded_for: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {secret}", "X-Forwarded-For": forwarded_for}
    return httpx.get(f"{base}/api/ask", params={"q": "citations"}, headers=headers, timeout=10)


def test_without_a_named_proxy_a_fresh_forwarded_address_each_time_is_still_one_client(make_project, isolated_home):
    with gated_cockpit(make_project, isolated_home) as (base, secret):
        half = LIMIT // 2
        failed = [login(base, "wrong", f"203.0.113.{n}").status_code for n in range(half)]
        failed += [api(base, BAD, f"198.51.100.{n}").status_code for n in range(LIMIT - half)]
        form = login(base, secret, "192.0.2.1")  # a valid secret, yet another address
        bearer = api(base, secret, "192.0.2.2")
    assert failed == [401] * LIMIT
    assert form.status_code == 429 and "too many failed attempts from 127.0.0.1" in form.text
    assert bearer.status_code == 429
    assert "too many failed attempts from 127.0.0.1" in bearer.json()["error"]["message"]


def test_behind_a_named_proxy_two_clients_are_limited_separately(make_project, isolated_home):
    with gated_cockpit(make_project, isolated_home, "--forwarded-allow-ips", "127.0.0.1") as (base, secret):
        half = LIMIT // 2
        failed = [login(base, "wrong", "203.0.113.1").status_code for _ in range(half)]
        failed += [api(base, BAD, "203.0.113.1").status_code for _ in range(LIMIT - half)]
        limited = api(base, secret, "203.0.113.1")
        # a proxy that appends: the client's own header first, the address the proxy saw last
        dodging = api(base, secret, "198.51.100.7, 203.0.113.1")
        other = api(base, secret, "203.0.113.2")
        other_failed = login(base, "wrong", "203.0.113.2")
        other_form = login(base, secret, "203.0.113.2")
    assert failed == [401] * LIMIT
    assert limited.status_code == 429
    assert "too many failed attempts from 203.0.113.1" in limited.json()["error"]["message"]
    assert dodging.status_code == 429
    assert other.status_code == 200 and "docs/a.md" in other.text
    assert other_failed.status_code == 401
    assert other_form.status_code == 303 and other_form.headers["location"] == "/"


@pytest.mark.parametrize("proxies", ["127.0.0.1", "127.0.0.0/8"])
def test_a_named_proxy_is_matched_as_an_address_or_a_network(make_project, isolated_home, proxies):
    with gated_cockpit(make_project, isolated_home, "--forwarded-allow-ips", proxies) as (base, secret):
        failed = [api(base, BAD, "203.0.113.9").status_code for _ in range(LIMIT)]
        other = api(base, secret, "203.0.113.10")
    assert failed == [401] * LIMIT
    assert other.status_code == 200
