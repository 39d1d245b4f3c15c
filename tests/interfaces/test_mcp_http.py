"""The auth matrix over HTTP: a uvicorn server on a free loopback port, the SDK's streamable
HTTP client, real tokens in KENNING_HOME. Each refusal has its documented status and message."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from mcp_http_helpers import Refused, free_port, running, with_session

from conftest import NOW, on_free_port, resync
from kenning import registry
from kenning.auth import tokens
from kenning.auth.policy import FailureLimiter
from kenning.interfaces.mcp.http import create_app
from kenning.interfaces.mcp.profiles import PROFILES

FILES = {
    "README.md": "# Alpha\n\nThe signing keys rotate nightly.\n",
    "docs/keys.md": "# Keys\n\nKeys live in the vault.\n",
    "src/app.py": "def rotate():\n    '''Rotate the signing keys.'''\n    return 1\n",
}


@pytest.fixture()
def served(make_project, isolated_home):
    project = make_project(FILES, name="alpha")
    beta = make_project({"README.md": "# Beta\n\nBeta keys are kept elsewhere.\n"}, name="beta")
    for each in (project, beta):
        resync(each)
        registry.register(isolated_home, each.name, each.root)
    clock = {"now": NOW}
    app = create_app(
        project, home=isolated_home, tools="all", clock=lambda: clock["now"], limiter=FailureLimiter(limit=5, window=60)
    )
    with running(app) as url:
        yield url, isolated_home, clock


def make_token(home, **options):
    defaults = {"scopes": [tokens.READ], "projects": ["alpha"], "paths": [], "name": None, "expires": "30d"}
    return tokens.create(home, **{**defaults, **options}, now=NOW)


def refusal(url, secret, body=lambda s: s.list_tools()) -> Refused:
    with pytest.raises(Refused) as caught:
        with_session(url, secret, body)
    return caught.value


def test_no_bad_expired_or_revoked_token_is_401(served):
    url, home, clock = served
    missing = refusal(url, None)
    assert missing.status == 401 and "bearer token is required" in missing.body["error"]["message"]
    assert missing.body["error"]["type"] == "Unauthorized" and missing.body["error"]["hint"]
    _, secret = make_token(home)
    bad = refusal(url, secret[:-4] + "AAAA")
    assert bad.status == 401 and bad.body["error"]["message"] == "unknown token"
    assert refusal(url, "not-a-kenning-token").status == 401
    record, short = make_token(home, expires="1h", name="short")
    clock["now"] = NOW + timedelta(hours=2)
    expired = refusal(url, short)
    assert expired.status == 401 and "token 'short' is expired" in expired.body["error"]["message"]
    clock["now"] = NOW
    record, revoked = make_token(home, name="gone")
    tokens.revoke(home, "gone", now=NOW)
    gone = refusal(url, revoked)
    assert gone.status == 401 and "token 'gone' is revoked" in gone.body["error"]["message"]


def denied(result) -> str:
    """The message of a call refused as a typed ScopeDenied tool error (the session goes on)."""
    assert result.isError and result.structuredContent["error"]["type"] == "ScopeDenied", result.content[0].text
    assert result.structuredContent["error"]["hint"]
    return result.structuredContent["error"]["message"]


def test_read_only_token_writing_is_403_insufficient_scope(served):
    url, home, _ = served
    _, secret = make_token(home)
    denied_write = refusal(url, secret, lambda s: s.call_tool("save_memory", {"text": "a note"}))
    assert denied_write.status == 403 and denied_write.body["error"]["type"] == "ScopeDenied"
    assert "lacks scope memory:write needed by save_memory" in denied_write.body["error"]["message"]
    raw = httpx.post(
        url,
        headers={"Authorization": f"Bearer {secret}", "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "save_memory", "arguments": {}}},
    )
    assert raw.status_code == 403
    assert 'error="insufficient_scope", scope="memory:write"' in raw.headers["www-authenticate"]


def test_a_call_outside_the_tokens_binding_is_a_scope_denied_tool_error_and_the_session_goes_on(served):
    """It was an HTTP 403, which ends the SDK client's session: now a typed tool error, and the
    next call of the same session is answered."""
    url, home, _ = served
    _, secret = make_token(home)

    async def outside_then_inside(session):
        refused = await session.call_tool("memory_index", {"query": "keys", "project": "beta"})
        after = await session.call_tool("memory_index", {"query": "keys"})
        return refused, after

    refused, after = with_session(url, secret, outside_then_inside)
    assert "this request reads 'beta'" in denied(refused) and "Beta keys" not in refused.content[0].text
    assert not after.isError and after.structuredContent["excerpts"]


def test_a_read_only_token_is_not_listed_the_write_tools(served):
    url, home, _ = served
    _, reader = make_token(home)
    _, writer = make_token(home, scopes=[tokens.READ, tokens.WRITE])
    read_only = {t.name for t in with_session(url, reader, lambda s: s.list_tools()).tools}
    both = {t.name for t in with_session(url, writer, lambda s: s.list_tools()).tools}
    writes = {"save_memory", "supersede", "confirm", "forget"}
    assert writes <= both and not writes & read_only
    assert read_only == both - writes


def test_a_write_refused_at_the_gate_is_audited_as_failed_and_a_refused_read_is_not(served):
    url, home, _ = served
    record, secret = make_token(home, name="reader")
    assert refusal(url, secret, lambda s: s.call_tool("save_memory", {"text": "a note"})).status == 403
    refused_read = with_session(url, secret, lambda s: s.call_tool("memory_index", {"query": "k", "project": "beta"}))
    assert denied(refused_read).startswith("scope divergence")
    lines = [json.loads(line) for line in (home / "audit.log").read_text().splitlines()]
    assert [(x["token"], x["name"], x["tool"], x["arguments"], x["ok"]) for x in lines] == [
        (record.id, "reader", "save_memory", {"text": "a note"}, False)
    ]


def test_token_for_project_a_reading_b_is_403_for_the_server_and_scope_denied_for_a_call(served, make_project):
    url, home, _ = served
    _, beta_only = make_token(home, projects=["beta"])
    whole = refusal(url, beta_only)
    assert whole.status == 403 and whole.body["error"]["message"].startswith("scope divergence")
    assert whole.body["error"]["type"] == "ScopeDenied"
    assert "bound to project(s) beta; this request reads 'alpha'" in whole.body["error"]["message"]
    _, alpha = make_token(home)
    other = with_session(url, alpha, lambda s: s.call_tool("memory_index", {"query": "keys", "project": "beta"}))
    assert "this request reads 'beta'" in denied(other)


def test_path_token_with_a_path_filter_outside_it_is_scope_denied(served):
    url, home, _ = served
    _, docs = make_token(home, paths=["docs/"])

    def call(tool, arguments):
        return with_session(url, docs, lambda s: s.call_tool(tool, arguments))

    outside = call("recall", {"query": "keys", "path_filter": "src/"})
    assert denied(outside) == "scope divergence: path_filter 'src/' is outside the token's path(s) docs/"
    assert "scope divergence" in denied(call("recall", {"query": "keys", "path_filter": "doc"}))
    assert "cannot be limited to a path" in denied(call("memory_index", {"query": "keys"}))
    inside = call("recall", {"query": "keys", "path_filter": "docs/"})
    assert not inside.isError
    assert {e["source"]["uri"].split("#")[0] for e in inside.structuredContent["excerpts"]} == {"docs/keys.md"}


def test_failed_attempts_are_limited_per_client(served):
    url, home, _ = served
    for _ in range(5):
        assert refusal(url, "kn_00000000_" + "x" * 43).status == 401
    _, good = make_token(home)
    blocked = refusal(url, good)
    assert blocked.status == 429 and "too many failed attempts" in blocked.body["error"]["message"]


def read_calls(fid: int) -> dict[str, dict]:
    """One valid call of every read-only tool."""
    return {
        "memory_ask": {"question": "where do keys live?"},
        "core_pack": {},
        "memory_index": {"query": "keys"},
        "memory_search": {"query": "keys"},
        "memory_get": {"ids": [fid]},
        "memory_timeline": {"anchor": fid},
        "get_tool_uses": {"ids": [1]},
        "search_memory": {"query": "signing keys"},
        "recall": {"query": "keys"},
        "recall_context": {"query": "keys"},
        "mem_search": {"query": "keys", "mode": "auto"},
        "graph_neighbours": {"node": "src/app.py"},
        "graph_path": {"node": "src/app.py", "other": "rotate"},
        "graph_impact": {"node": "rotate"},
        "graph_touches": {"node": "src/app.py"},
    }


def test_a_read_only_token_works_for_every_read_tool(served):
    url, home, _ = served
    _, secret = make_token(home)

    async def body(session):
        listed = (await session.list_tools()).tools
        readers = {t.name for t in listed if t.annotations.readOnlyHint}
        fid = (await session.call_tool("memory_index", {"query": "keys"})).structuredContent["excerpts"][0]["id"]
        calls = read_calls(fid)
        assert set(calls) == readers
        return {name: await session.call_tool(name, args) for name, args in calls.items()}

    results = with_session(url, secret, body)
    assert {n: r.content[0].text for n, r in results.items() if r.isError} == {}


def test_a_valid_token_works_for_every_tool_it_allows_and_writes_are_audited(served):
    url, home, _ = served
    _, secret = make_token(home, scopes=[tokens.READ, tokens.WRITE], name="agent")

    async def body(session):
        names = sorted(t.name for t in (await session.list_tools()).tools)
        saved = await session.call_tool("save_memory", {"text": "Deploys happen on Tuesdays.", "title": "Deploy day"})
        fid = saved.structuredContent["id"]
        other = await session.call_tool("save_memory", {"text": "Deploys happened on Mondays."})
        calls = {
            **read_calls(fid),
            "confirm": {"id": fid},
            "supersede": {"old": other.structuredContent["id"], "new": fid, "reason": "corrected"},
            "forget": {"target": other.structuredContent["id"], "reason": "wrong"},
        }
        results = {name: await session.call_tool(name, args) for name, args in calls.items()}
        return names, {"save_memory": saved, **results}

    names, results = with_session(url, secret, body)
    assert len(names) == 19 and set(results) == set(names)
    failed = {n: r.content[0].text for n, r in results.items() if r.isError}
    assert failed == {}
    lines = [json.loads(line) for line in (home / "audit.log").read_text().splitlines()]
    assert [(a["tool"], a["name"], a["ok"]) for a in lines] == [
        ("save_memory", "agent", True),
        ("save_memory", "agent", True),
        ("confirm", "agent", True),
        ("supersede", "agent", True),
        ("forget", "agent", True),
    ]
    assert lines[0]["client"] == "127.0.0.1" and lines[0]["project"] == "alpha" and lines[0]["at"]


def test_an_undeclared_argument_over_http_is_a_usage_error_and_writes_nothing(served):
    url, home, _ = served
    _, secret = make_token(home, scopes=[tokens.READ, tokens.WRITE], name="agent")

    async def body(session):
        refused = await session.call_tool("save_memory", {"text": "Deploys happen on Fridays.", "titel": "Deploy"})
        found = await session.call_tool("memory_search", {"query": "Fridays"})
        return refused, found

    refused, found = with_session(url, secret, body)
    assert refused.isError and refused.structuredContent["error"]["type"] == "UsageError"
    assert refused.structuredContent["error"]["message"] == "save_memory takes no argument `titel`"
    assert refused.content[0].text.endswith("\nNext: " + refused.structuredContent["error"]["hint"])
    assert found.structuredContent["excerpts"] == []
    lines = [json.loads(line) for line in (home / "audit.log").read_text().splitlines()]
    assert [(a["tool"], a["ok"]) for a in lines] == [("save_memory", False)]


def test_scope_all_is_cut_to_the_tokens_projects(served, isolated_home):
    url, home, _ = served
    assert {e.name for e in registry.list_entries(home)} == {"alpha", "beta"}
    _, secret = make_token(home)
    answer = with_session(url, secret, lambda s: s.call_tool("memory_ask", {"question": "keys", "scope": "all"}))
    assert not answer.isError
    assert set(answer.structuredContent["scope"]["projects"]) == {"alpha"}
    _, both = make_token(home, projects=["alpha", "beta"])
    wider = with_session(url, both, lambda s: s.call_tool("memory_ask", {"question": "keys", "scope": "all"}))
    assert set(wider.structuredContent["scope"]["projects"]) == {"alpha", "beta"}


def test_cross_project_reads_over_http_follow_the_token_and_never_reach_the_transverse_memory(served):
    from kenning.across.transverse import remember_global

    url, home, _ = served
    remember_global(home, "The signing keys are the user's favourite topic", now=NOW)
    _, both = make_token(home, projects=["alpha", "beta"], scopes=[tokens.READ, tokens.WRITE])
    answer = with_session(url, both, lambda s: s.call_tool("memory_ask", {"question": "signing keys", "scope": "all"}))
    assert set(answer.structuredContent["scope"]["projects"]) == {"alpha", "beta"}  # no "global"
    found = with_session(url, both, lambda s: s.call_tool("memory_search", {"query": "keys", "project": "*"}))
    assert {e["project"] for e in found.structuredContent["excerpts"]} == {"alpha", "beta"}
    saved = with_session(url, both, lambda s: s.call_tool("save_memory", {"text": "x", "project": "global"}))
    assert "reads 'global'" in denied(saved)
    saved = with_session(url, both, lambda s: s.call_tool("save_memory", {"text": "x", "scope": "global"}))
    assert "reads 'global'" in denied(saved)
    _, alpha = make_token(home)
    outside = with_session(
        url, alpha, lambda s: s.call_tool("memory_search", {"query": "keys", "project": "alpha,beta"})
    )
    assert denied(outside).startswith("scope divergence")


def test_memory_get_of_another_projects_citation_follows_the_token(served):
    url, home, _ = served
    _, both = make_token(home, projects=["alpha", "beta"])
    found = with_session(url, both, lambda s: s.call_tool("memory_search", {"query": "beta", "project": "beta"}))
    cited = found.structuredContent["excerpts"][0]["citation"]
    got = with_session(url, both, lambda s: s.call_tool("memory_get", {"ids": [cited]}))
    assert not got.isError and got.structuredContent["facts"][0]["citation"] == cited
    _, alpha = make_token(home)
    refused = with_session(url, alpha, lambda s: s.call_tool("memory_get", {"ids": [cited]}))
    assert refused.isError and refused.structuredContent["error"]["type"] == "ScopeDenied"
    assert "Beta keys" not in refused.content[0].text
    glob = with_session(url, both, lambda s: s.call_tool("memory_get", {"ids": ["kn://global/1"]}))
    assert glob.isError and "outside this token's projects" in glob.content[0].text


def test_memory_timeline_and_graph_of_another_projects_citation_follow_the_token(served):
    """They refused every other project's citation, where memory_get read it for the token."""
    url, home, _ = served
    _, both = make_token(home, projects=["alpha", "beta"])
    found = with_session(url, both, lambda s: s.call_tool("memory_search", {"query": "beta", "project": "beta"}))
    cited = found.structuredContent["excerpts"][0]["citation"]
    timeline = with_session(url, both, lambda s: s.call_tool("memory_timeline", {"anchor": cited}))
    assert not timeline.isError, timeline.content[0].text
    assert timeline.structuredContent["project"] == "beta"
    assert cited in [row["citation"] for row in timeline.structuredContent["timeline"]]
    graph = with_session(url, both, lambda s: s.call_tool("graph_neighbours", {"node": cited}))
    assert not graph.isError and graph.structuredContent["scope"]["projects"] == ["beta"]
    _, alpha = make_token(home)
    for tool, arguments in (("memory_timeline", {"anchor": cited}), ("graph_neighbours", {"node": cited})):
        refused = with_session(url, alpha, lambda s, t=tool, a=arguments: s.call_tool(t, a))
        assert refused.isError and refused.structuredContent["error"]["type"] == "ScopeDenied", tool
        assert "outside this token's projects" in refused.content[0].text and "Beta keys" not in refused.content[0].text


def test_profiles_apply_over_http(make_project, isolated_home):
    project = make_project(FILES, name="alpha")
    registry.register(isolated_home, project.name, project.root)  # a token binds registered projects
    _, secret = make_token(isolated_home, scopes=[tokens.READ, tokens.WRITE])  # a reader is not listed writes
    with running(create_app(project, home=isolated_home, tools="default")) as url:
        names = with_session(url, secret, lambda s: s.list_tools())
    assert sorted(t.name for t in names.tools) == sorted(PROFILES["default"])


def test_kenning_mcp_http_command_serves_behind_tokens(make_project, isolated_home):
    """The real command, as a subprocess: 401 without a token, tools with one."""
    project = make_project(FILES, name="alpha")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    _, secret = make_token(isolated_home)
    port = free_port()
    kenning = str(Path(sys.executable).with_name("kenning"))
    server = subprocess.Popen(
        [kenning, "mcp", "--http", "--port", str(port), "--project", str(project.root), "--tools", "graph"],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "kenning mcp --http did not start"
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/mcp"
        bare = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert bare.status_code == 401 and bare.headers["www-authenticate"].startswith("Bearer")
        listed = with_session(url, secret, lambda s: s.list_tools())
        assert sorted(t.name for t in listed.tools) == sorted(PROFILES["graph"])
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/mcp" in err and "bearer token" in err


def test_kenning_serve_mcp_puts_the_endpoint_beside_the_cockpit(make_project, isolated_home):
    project = make_project(FILES, name="alpha")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    _, secret = make_token(isolated_home)
    port = free_port()
    kenning = str(Path(sys.executable).with_name("kenning"))
    server = subprocess.Popen(
        [kenning, "serve", "--mcp", "--port", str(port), "--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "kenning serve --mcp did not start"
                time.sleep(0.1)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/").status_code == 200
        assert httpx.post(base + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 401
        listed = with_session(base + "/mcp", secret, lambda s: s.list_tools())  # a read-only token: no writes
        assert sorted(t.name for t in listed.tools) == sorted(set(PROFILES["default"]) - {"save_memory"})
        answer = with_session(base + "/mcp", secret, lambda s: s.call_tool("memory_index", {"query": "keys"}))
        assert not answer.isError and answer.structuredContent["excerpts"]
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert f"{base}/mcp" in err


def test_kenning_mcp_http_on_a_port_in_use_is_a_typed_error_before_any_banner(cli, make_project):
    project = make_project(FILES, name="alpha")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli("mcp", "--http", "--port", str(port), "--project", str(project.root))
    assert result.code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.err
    assert "kenning MCP for" not in result.err


def test_mcp_http_port_0_serves_on_the_port_its_banner_names(make_project, isolated_home):
    """`kenning serve --port 0` picks a free port; `kenning mcp --http --port 0` was refused (the
    port had to be at least 1). Now both bind first and print the port chosen."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"})
    with on_free_port("mcp", "--http", "--project", str(project.root), home=isolated_home) as (server, port):
        assert port != 0
        deadline = time.monotonic() + 20
        while True:
            try:
                bare = httpx.post(f"http://127.0.0.1:{port}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                break
            except httpx.ConnectError:  # bound before the banner, listening once the app is up
                assert time.monotonic() < deadline and server.poll() is None, "kenning mcp --http did not start"
                time.sleep(0.1)
        assert bare.status_code == 401  # served there, behind its token


def test_a_path_bound_token_on_a_default_profile_server_is_told_how_to_get_a_path_filter_tool(
    make_project, isolated_home
):
    """The default profile lists no tool that takes a path_filter, so every read of a path-bound
    token is refused: the hint says to restart the server with xmemo, not to call tools it
    does not list. A server that lists them points at the path_filter."""
    project = make_project(FILES, name="alpha")
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    _, docs = make_token(isolated_home, paths=["docs/"])
    hints = {}
    for tools in ("default", "default,xmemo"):
        app = create_app(project, home=isolated_home, tools=tools, clock=lambda: NOW)
        with running(app) as url:
            listed = {t.name for t in with_session(url, docs, lambda s: s.list_tools()).tools}
            refused = with_session(url, docs, lambda s: s.call_tool("memory_ask", {"question": "keys"}))
        assert "cannot be limited to a path" in denied(refused)
        hints[tools] = (listed, refused.structuredContent["error"]["hint"])
    listed, hint = hints["default"]
    assert not listed & {"search_memory", "recall", "recall_context"}
    assert "--tools default,xmemo" in hint and "lists no tool that takes a path_filter" in hint
    listed, hint = hints["default,xmemo"]
    assert "recall" in listed and "--tools" not in hint and "path_filter" in hint
