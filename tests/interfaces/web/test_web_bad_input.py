"""What the cockpit does with input no page of its own sends: a body over the bound (413,
refused before it is read when its length is declared; Starlette's form parser bounded each
field and the number of fields, not the body, so `/login`, open to anyone who reaches the port,
read and held several megabytes and answered 403), a body that is no form (a typed 400, not a
plain-text one), a malformed Authorization header (a typed 401, never a 500), a foreign Host
(a typed 400 naming the names served). A real uvicorn server in a thread (the Host check in
process); the gate on where the test says so."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from starlette.testclient import TestClient
from web_corpus import NOW, Corpus, build_corpus

from interfaces.mcp_http_helpers import running  # tests/interfaces: uvicorn in a thread
from kenning.auth import tokens
from kenning.auth.policy import AUDIT_FILE, FailureLimiter
from kenning.interfaces.serve import MAX_BODY
from kenning.interfaces.web.app import create_app

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
FORM_TOKEN = re.compile(r'name="token" value="([^"]+)"')


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("cockpit-bad-input"))


@pytest.fixture(params=[False, True], ids=["loopback", "gated"])
def served(request, corpus) -> Iterator[tuple[str, dict[str, str]]]:
    """The cockpit's base URL, and the headers a request needs to pass its gate."""
    gated = request.param
    _, secret = tokens.create(
        corpus.home, scopes=[tokens.READ, tokens.WRITE], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    app = create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW, gated=gated, limiter=FailureLimiter(1000))
    with running(app) as url:
        yield url.removesuffix("/mcp"), ({"Authorization": f"Bearer {secret}"} if gated else {})


def fields(count: int, size: int) -> bytes:
    """A form of ``count`` fields of ``size`` bytes each: each under Starlette's 1 MB per field."""
    return b"&".join(b"f%d=" % n + b"x" * size for n in range(count))


def chunks(body: bytes, size: int = 65536) -> Iterator[bytes]:
    """``body`` sent chunked: no Content-Length says how long it is."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_a_form_over_the_bound_is_refused_with_413_before_it_is_read(served):
    base, headers = served
    body = fields(4, 900_000)  # 3.6 MB, four fields each under Starlette's own bound
    assert len(body) > MAX_BODY
    for path in ("/login", "/memory/confirm"):
        reply = httpx.post(base + path, content=body, headers={**headers, **FORM}, timeout=30)
        assert reply.status_code == 413, (path, reply.status_code)
        assert "ValidationError" in reply.text and f"request body over {MAX_BODY} bytes" in reply.text


def test_a_chunked_form_is_refused_with_413_once_it_passes_the_bound(served):
    base, headers = served
    reply = httpx.post(base + "/memory/confirm", content=chunks(fields(4, 900_000)), headers={**headers, **FORM})
    assert reply.status_code == 413
    assert "ValidationError" in reply.text and f"request body over {MAX_BODY} bytes" in reply.text


def test_a_form_under_the_bound_still_reaches_its_page(served, corpus):
    base, headers = served
    with httpx.Client(base_url=base, headers=headers, timeout=30) as browser:
        token = FORM_TOKEN.search(browser.get("/memory").text)
        assert token
        first = corpus.observation_ids[0]
        padding = "x" * 200_000  # a long reason: the form is well under the bound
        reply = browser.post("/memory/confirm", data={"token": token[1], "id": str(first), "reason": padding})
    assert reply.status_code == 200 and "confirm" in reply.text.lower()


def test_a_body_that_is_no_form_is_a_typed_400(served):
    base, headers = served
    multipart = {**headers, "Content-Type": "multipart/form-data; boundary=x"}
    reply = httpx.post(base + "/memory/confirm", content=b"junk", headers=multipart, timeout=10)
    assert reply.status_code == 400
    assert "ValidationError" in reply.text and "POST /memory/confirm" in reply.text
    assert "<html" in reply.text  # the cockpit's error page, not Starlette's plain text


MALFORMED = [
    ("Basic", b"Basic Zm9vOmJhcg=="),
    ("bearer alone", b"Bearer"),
    ("bearer, no space", b"Bearerkn_deadbeef"),
    ("latin-1 bytes", b"Bearer kn_\xff\xfe\x80"),
    ("8 KB", b"Bearer " + b"A" * 8000),
]


@pytest.mark.parametrize("header", [h for _, h in MALFORMED], ids=[n for n, _ in MALFORMED])
def test_a_malformed_authorization_header_is_a_typed_401_and_the_cockpit_goes_on(corpus, header):
    _, secret = tokens.create(
        corpus.home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    app = create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW, gated=True)
    with running(app) as url:
        base = url.removesuffix("/mcp")
        refused = httpx.get(base + "/api/ask?q=freshness", headers={"Authorization": header}, timeout=10)
        served = httpx.get(base + "/api/ask?q=freshness", headers={"Authorization": f"Bearer {secret}"}, timeout=10)
    assert refused.status_code == 401
    assert refused.json()["error"]["type"] == "Unauthorized"
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert served.status_code == 200


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("multipart/form-data; boundary=x", b"junk"),
        ("application/x-www-form-urlencoded", b"id=1&" + b"&".join(b"f%d=1" % n for n in range(1500))),
    ],
    ids=["malformed multipart", "over 1,000 fields"],
)
def test_a_write_refused_to_a_read_only_token_with_a_body_that_is_no_form_is_403_and_audited(corpus, kind, body):
    """The gate reads a refused write's form for its audit line: an unreadable one was a 500."""
    record, secret = tokens.create(
        corpus.home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires="30d", now=NOW
    )
    app = create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW, gated=True)
    with running(app) as url:
        reply = httpx.post(
            url.removesuffix("/mcp") + "/memory/confirm",
            content=body,
            headers={"Authorization": f"Bearer {secret}", "Content-Type": kind},
            timeout=10,
        )
    assert reply.status_code == 403 and "ScopeDenied" in reply.text and "read-only" in reply.text
    lines = [json.loads(line) for line in (corpus.home / AUDIT_FILE).read_text(encoding="utf-8").splitlines()]
    mine = [line for line in lines if line["token"] == record.id]
    assert len(mine) == 1 and mine[0]["ok"] is False and mine[0]["tool"] == "cockpit:confirm"
    assert mine[0]["arguments"]["form"].startswith("unreadable: ")


def test_a_foreign_host_is_a_typed_400_that_says_which_names_are_served(corpus):
    """Starlette's host check answered a bare "Invalid host header" in plain text."""
    client = TestClient(create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW), base_url="http://kenning.lan")
    api = client.get("/api/ask?q=freshness")
    page = client.get("/")
    assert api.status_code == 400 and page.status_code == 400
    error = api.json()["error"]
    assert error["type"] == "UsageError"
    assert error["message"].startswith("this cockpit does not answer to host 'kenning.lan': it answers to 127.0.0.1")
    assert "proxy_set_header Host 127.0.0.1" in error["hint"]
    assert "<html" in page.text and "UsageError" in page.text and "kenning.lan" in page.text
    assert page.headers["x-frame-options"] == "DENY"  # the security headers on the refusal too


@pytest.mark.parametrize("base", ["http://LOCALHOST:8765", "http://[::1]", "http://127.0.0.1:1"])
def test_loopback_names_in_any_case_and_with_any_port_are_served(corpus, base):
    client = TestClient(create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW), base_url=base)
    assert client.get("/api/ask?q=freshness").status_code == 200
