"""The cockpit beyond loopback: a real uvicorn server on 0.0.0.0, reached through a
non-loopback address of this machine when it has one, driven by httpx, with real tokens in
KENNING_HOME. No token, a bad, expired or revoked one → 401; a read-only token writing, a
token of another project or bound to paths → 403; the "all projects" scope cut to the token's
projects; a browser logs in through a form that sets an HttpOnly, SameSite=Strict cookie."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from web_corpus import NOW, Corpus, build_corpus

from kenning import registry
from kenning.auth import tokens
from kenning.auth.policy import AUDIT_FILE, FailureLimiter
from kenning.errors import TokenRequired
from kenning.interfaces.web.app import create_app
from kenning.interfaces.web.binding import check_bind
from kenning.records import Lifecycle
from kenning.store import facts as fact_store
from kenning.store.db import connect
from kenning.sync.run import sync

FORM_TOKEN = re.compile(r'name="token" value="([^"]+)"')


def machine_address() -> str:
    """A non-loopback IPv4 address of this machine (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address if not address.startswith("127.") else "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        return sock.getsockname()[1]


@contextmanager
def running(app: Starlette) -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="0.0.0.0", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://{machine_address()}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def make_token(home: Path, **options) -> str:
    defaults = {"scopes": [tokens.READ], "projects": ["alpha"], "paths": [], "name": None, "expires": "30d"}
    return tokens.create(home, **{**defaults, **options}, now=NOW - timedelta(hours=2))[1]


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Corpus, dict[str, str]]]:
    corpus = build_corpus(tmp_path_factory.mktemp("cockpit-tokens"))
    home = corpus.home
    secrets = {
        "read": make_token(home, name="reader"),
        "write": make_token(home, name="writer", scopes=[tokens.READ, tokens.WRITE]),
        "both": make_token(home, name="both", projects=["alpha", "beta"]),
        "beta": make_token(home, name="beta-only", projects=["beta"]),
        "paths": make_token(home, name="docs-only", paths=["docs/"]),
        "expired": make_token(home, name="short", expires="1h"),
        "revoked": make_token(home, name="gone"),
    }
    tokens.revoke(home, "gone", now=NOW - timedelta(hours=1))
    app = create_app(corpus.alpha, home=home, clock=lambda: NOW, gated=True, limiter=FailureLimiter(limit=1000))
    with running(app) as base:
        yield base, corpus, secrets


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@pytest.mark.parametrize("path", ["/", "/ask?q=freshness", "/stale", "/graph", "/memory", "/bench", "/status"])
def test_every_page_needs_a_token(gated, path):
    base, _, secrets = gated
    bare = httpx.get(base + path)
    assert bare.status_code == 401 and bare.headers["www-authenticate"].startswith("Bearer")
    assert 'action="/login"' in bare.text and "a bearer token is required" in bare.text
    assert httpx.get(base + path, headers=bearer(secrets["read"])).status_code == 200


def test_api_no_bad_expired_or_revoked_token_is_401_json(gated):
    base, _, secrets = gated
    url = base + "/api/ask?q=how+is+freshness+computed"
    cases = {
        None: "a bearer token is required",
        "kn_deadbeef_" + "x" * 43: "unknown token",
        "not-a-token": "unknown token",
        secrets["expired"]: "token 'short' is expired",
        secrets["revoked"]: "token 'gone' is revoked",
    }
    for secret, message in cases.items():
        reply = httpx.get(url, headers=bearer(secret) if secret else {})
        assert reply.status_code == 401, secret
        error = reply.json()["error"]
        assert error["type"] == "Unauthorized" and message in error["message"] and error["hint"]
    ok = httpx.get(url, headers=bearer(secrets["read"]))
    assert ok.status_code == 200 and ok.json()["schema"] == "kenning.answer/v1"


def test_a_token_in_the_query_string_is_not_accepted(gated):
    base, _, secrets = gated
    assert httpx.get(base + "/api/ask", params={"q": "freshness", "token": secrets["read"]}).status_code == 401


def test_static_assets_and_the_login_page_are_open(gated):
    base, _, _ = gated
    assert httpx.get(base + "/static/cockpit.css").status_code == 200
    login = httpx.get(base + "/login")
    assert login.status_code == 200 and 'type="password"' in login.text


def test_a_read_only_token_cannot_confirm_forget_or_supersede(gated):
    base, corpus, secrets = gated
    fact_id = corpus.observation_ids[1]
    page = httpx.get(base + "/memory", headers=bearer(secrets["read"]))
    assert page.status_code == 200 and "read-only" in page.text and "action-forget" not in page.text
    form_token = FORM_TOKEN.search(httpx.get(base + "/login").text)[1]
    for action in ("confirm", "forget", "supersede"):
        form = {"token": form_token, "id": str(fact_id), "new": str(corpus.observation_ids[0]), "confirmed": "yes"}
        reply = httpx.post(f"{base}/memory/{action}", data=form, headers=bearer(secrets["read"]))
        assert reply.status_code == 403 and "read-only" in reply.text and "memory:write" in reply.text
    conn = connect(corpus.alpha.db_path)
    try:
        fact = fact_store.get(conn, "alpha", fact_id)
    finally:
        conn.close()
    assert fact.lifecycle == Lifecycle.ACTIVE and fact.superseded_by is None  # still there, unchanged


def test_a_gesture_refused_to_a_read_only_token_is_audited_as_failed(gated):
    base, corpus, secrets = gated
    form_token = FORM_TOKEN.search(httpx.get(base + "/login").text)[1]
    form = {"token": form_token, "id": str(corpus.observation_ids[1]), "confirmed": "yes"}
    reply = httpx.post(base + "/memory/forget", data=form, headers=bearer(secrets["read"]))
    assert reply.status_code == 403
    lines = [json.loads(line) for line in (corpus.home / AUDIT_FILE).read_text().splitlines()]
    assert (lines[-1]["name"], lines[-1]["tool"], lines[-1]["ok"]) == ("reader", "cockpit:forget", False)
    assert lines[-1]["arguments"] == {"id": str(corpus.observation_ids[1]), "confirmed": "yes"}


def test_a_write_token_confirms_and_the_write_is_audited(gated):
    base, corpus, secrets = gated
    fact_id = corpus.observation_ids[0]
    form_token = FORM_TOKEN.search(httpx.get(base + "/login").text)[1]
    reply = httpx.post(
        base + "/memory/confirm",
        data={"token": form_token, "id": str(fact_id), "confirmed": "yes"},
        headers=bearer(secrets["write"]),
    )
    assert reply.status_code == 303 and reply.headers["location"].startswith("/memory?done=")
    lines = [json.loads(line) for line in (corpus.home / AUDIT_FILE).read_text().splitlines()]
    assert lines[-1]["name"] == "writer" and lines[-1]["tool"] == "cockpit:confirm"
    assert lines[-1]["arguments"] == {"id": str(fact_id), "confirmed": "yes"}


def test_a_gesture_that_fails_is_audited_as_failed_like_an_mcp_write(gated):
    base, corpus, secrets = gated
    form_token = FORM_TOKEN.search(httpx.get(base + "/login").text)[1]
    reply = httpx.post(
        base + "/memory/forget",
        data={"token": form_token, "id": "987654", "confirmed": "yes"},
        headers=bearer(secrets["write"]),
    )
    assert reply.status_code == 404 and "NotFound" in reply.text
    lines = [json.loads(line) for line in (corpus.home / AUDIT_FILE).read_text().splitlines()]
    assert lines[-1]["name"] == "writer" and lines[-1]["tool"] == "cockpit:forget"
    assert lines[-1]["arguments"] == {"id": "987654", "confirmed": "yes"} and lines[-1]["ok"] is False


def test_the_all_projects_scope_is_cut_to_the_tokens_projects(gated):
    base, corpus, secrets = gated
    url = base + "/api/ask?q=how+is+freshness+computed&scope=all"
    alpha_only = httpx.get(url, headers=bearer(secrets["read"])).json()
    assert {e["project"] for e in alpha_only["excerpts"]} == {"alpha"}
    assert "beta" not in json.dumps(alpha_only["scope"])
    both = httpx.get(url, headers=bearer(secrets["both"])).json()
    assert {e["project"] for e in both["excerpts"]} == {"alpha", "beta"}
    beta_id = next(e["id"] for e in both["excerpts"] if e["project"] == "beta")
    assert httpx.get(f"{base}/source/beta/{beta_id}", headers=bearer(secrets["both"])).status_code == 200
    denied = httpx.get(f"{base}/source/beta/{beta_id}", headers=bearer(secrets["read"]))
    assert denied.status_code == 403 and "scope divergence" in denied.text
    status = httpx.get(base + "/status", headers=bearer(secrets["read"])).text
    assert str(corpus.beta.root) not in status and str(corpus.alpha.root) in status
    stale = httpx.get(base + "/stale?scope=all", headers=bearer(secrets["read"])).text
    assert ">beta<" not in stale
    assert ">beta<" in httpx.get(base + "/stale?scope=all", headers=bearer(secrets["both"])).text


def test_a_token_of_another_project_or_bound_to_paths_is_403(gated):
    base, _, secrets = gated
    other = httpx.get(base + "/api/ask?q=freshness", headers=bearer(secrets["beta"]))
    assert other.status_code == 403 and other.json()["error"]["type"] == "ScopeDenied"
    assert "scope divergence" in other.json()["error"]["message"] and "beta" in other.json()["error"]["message"]
    paths = httpx.get(base + "/", headers=bearer(secrets["paths"]))
    assert paths.status_code == 403 and "docs/" in paths.text


def test_login_sets_an_httponly_strict_cookie_and_logout_clears_it(gated):
    base, _, secrets = gated
    with httpx.Client(base_url=base) as browser:
        form_token = FORM_TOKEN.search(browser.get("/login").text)[1]
        bad = browser.post("/login", data={"token": form_token, "secret": "kn_deadbeef_" + "y" * 43, "next": "/"})
        assert bad.status_code == 401 and "unknown token" in bad.text and "kenning_token" not in browser.cookies
        good = browser.post("/login", data={"token": form_token, "secret": secrets["read"], "next": "/stale?scope=all"})
        assert good.status_code == 303 and good.headers["location"] == "/stale?scope=all"
        cookie = good.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
        assert secrets["read"] not in good.headers["location"]
        assert browser.get("/stale").status_code == 200
        assert browser.post("/logout").status_code == 303
        assert browser.get("/stale").status_code == 401


def test_login_never_redirects_to_another_site(gated):
    base, _, secrets = gated
    with httpx.Client(base_url=base) as browser:
        form_token = FORM_TOKEN.search(browser.get("/login").text)[1]
        for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
            reply = browser.post("/login", data={"token": form_token, "secret": secrets["read"], "next": target})
            assert reply.status_code == 303 and reply.headers["location"] == "/"


def test_repeated_failures_are_limited(tmp_path):
    corpus = build_corpus(tmp_path)
    limiter = FailureLimiter(limit=3, window=5)
    app = create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW, gated=True, limiter=limiter)
    make_token(corpus.home)
    with running(app) as base:
        replies = [httpx.get(base + "/api/ask?q=x", headers=bearer("kn_deadbeef_" + "z" * 43))]
        replies += [httpx.get(base + "/api/ask?q=x", headers=bearer("wrong")) for _ in range(3)]
    assert [r.status_code for r in replies] == [401, 401, 401, 429]
    assert 1 <= int(replies[-1].headers["retry-after"]) <= 5  # the wait left, as the message says, not 60


def test_binding_decision(tmp_path):
    home = tmp_path / "home"
    assert check_bind("127.0.0.1", explicit=True, home=home, project="alpha", now=NOW) is False
    assert check_bind("::1", explicit=False) is False
    with pytest.raises(TokenRequired, match="only loopback is served by default"):
        check_bind("0.0.0.0", explicit=False, home=home, project="alpha", now=NOW)
    with pytest.raises(TokenRequired, match="kenning token create") as none:
        check_bind("0.0.0.0", explicit=True, home=home, project="alpha", now=NOW)
    assert "--project alpha" in (none.value.hint or "")
    for name in ("alpha", "beta"):  # a token binds registered projects only
        registry.register(home, name, tmp_path / name)
    make_token(home, projects=["beta"])
    make_token(home, expires="1h")  # created two hours before NOW: expired
    make_token(home, name="revoked")
    tokens.revoke(home, "revoked", now=NOW)
    with pytest.raises(TokenRequired, match="no active token is bound to project 'alpha'"):
        check_bind("192.168.1.10", explicit=True, home=home, project="alpha", now=NOW)
    make_token(home)
    assert check_bind("192.168.1.10", explicit=True, home=home, project="alpha", now=NOW) is True


def test_serve_beyond_loopback_without_a_token_names_the_command(cli, make_project, isolated_home, monkeypatch):
    """The hint's command runs as printed: `--project` with the project's directory, the form
    docs/cli.md leads with (`.` from inside the project), never a NAME placeholder."""
    project = make_project({"a.md": "# A\n"}, name="my-project")
    result = cli("serve", "--host", "0.0.0.0", "--project", str(project.root))
    assert result.code == 1 and "kenning token create" in result.err and result.out == ""
    assert f"`kenning token create --scope memory:read --project {project.root}`" in result.err
    monkeypatch.chdir(project.root / ".kenning")
    result = cli("serve", "--host", "0.0.0.0")
    assert "`kenning token create --scope memory:read --project .`" in result.err, result.err


def test_kenning_serve_mcp_on_0000_keeps_both_gates(make_project, isolated_home):
    """The real command, as a subprocess on every address: the cockpit and /mcp both need a token."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    sync(project, now=NOW)
    registry.register(isolated_home, project.name, project.root)
    secret = tokens.create(
        isolated_home, scopes=[tokens.READ], projects=["alpha"], paths=[], name="ci", expires="30d", now=NOW
    )[1]
    port = free_port()
    kenning = str(Path(sys.executable).with_name("kenning"))
    server = subprocess.Popen(
        [kenning, "serve", "--mcp", "--host", "0.0.0.0", "--port", str(port), "--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://{machine_address()}:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection((machine_address(), port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "kenning serve did not start"
                time.sleep(0.1)
        assert httpx.get(base + "/api/ask?q=citations").status_code == 401
        answer = httpx.get(base + "/api/ask?q=how+are+citations+computed", headers=bearer(secret))
        assert answer.status_code == 200 and "docs/a.md" in answer.text
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        assert httpx.post(base + "/mcp", json=ping).status_code == 401
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
        headers = {**bearer(secret), "Accept": "application/json, text/event-stream"}
        assert httpx.post(base + "/mcp", json=init, headers=headers).status_code == 200
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert "needs a token" in err
