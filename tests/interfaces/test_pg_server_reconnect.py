"""A long-lived `kenning mcp --http` on a project served by PostgreSQL, when the server drops its
sessions (a restart, a failover, an administrator's `pg_terminate_backend`): the memory tools
keep a session between calls, and before this every later call failed with
`InternalError: … OperationalError: the connection is closed` ("report it as a kenning bug")
until the MCP process itself was restarted. Now the next call opens a new session, and a call
that meets a session dying under it is a `StoreUnavailable`. The real SDK client over HTTP, the
real server; the sessions are ended as an administrator would end them."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from mcp_http_helpers import running, with_session

from conftest import NOW, resync
from kenning import registry
from kenning.answer.ask import ask_project
from kenning.auth import tokens
from kenning.interfaces import serve
from kenning.interfaces.mcp.http import create_app
from kenning.interfaces.serve import Connections, ask_kept
from kenning.store import handle
from store.pg_engine import gone, server_url  # tests/store: the PostgreSQL test server

pytestmark = pytest.mark.postgres

FILES = {
    "README.md": "# Alpha\n\nThe signing keys rotate nightly.\n",
    "docs/keys.md": "# Keys\n\nKeys live in the vault.\n",
}


def _end_sessions(url: str, application: str) -> int:
    """End every server session of the MCP server (named by ``application_name``): what a
    restart does to them. Returns once they are gone (``pg_terminate_backend`` only signals
    them; a restart is over when they are)."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (application,)
        ).fetchall()
        gone(admin, "application_name = %s", application)
    return len(rows)


@pytest.fixture
def served(make_project, isolated_home, monkeypatch):
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    application = f"kenning-reconnect-{uuid.uuid4().hex[:8]}"
    url = server_url()
    store = f"{url}{'&' if '?' in url else '?'}application_name={application}"
    name = f"alpha-{uuid.uuid4().hex[:10]}"
    project = make_project(FILES, name=name, config=f'name = "{name}"\nstore = "{store}"\n')
    resync(project)
    registry.register(isolated_home, project.name, project.root)
    _, secret = tokens.create(
        isolated_home, scopes=[tokens.READ], projects=[project.name], paths=[], name=None, expires="30d", now=NOW
    )
    app = create_app(project, home=isolated_home, clock=lambda: NOW)
    with running(app) as mcp_url:
        yield mcp_url, secret, url, application


def _index(session):
    return session.call_tool("memory_index", {"query": "keys"})


def test_memory_tools_answer_again_after_the_server_dropped_their_session(served):
    mcp_url, secret, url, application = served

    async def body(session):
        first = await _index(session)
        assert not first.isError, first.content[0].text
        assert _end_sessions(url, application) >= 1  # the session the tools keep
        return [await _index(session) for _ in range(2)]

    replies = with_session(mcp_url, secret, body)
    assert [r.isError for r in replies] == [False, False], [r.content[0].text for r in replies]
    assert "Keys" in replies[0].content[0].text


def test_a_session_dying_during_a_call_is_store_unavailable_not_a_bug(served, monkeypatch):
    """The kept session is ended between the check that hands it out and the call's query (a
    server going down mid-request, or a session lost without a word that the check could not
    see): a typed StoreUnavailable, the session dropped, and the next call is served."""
    mcp_url, secret, url, application = served

    checks = {"n": 0}
    real = serve.still_open

    def ended_after_the_check(conn, *, idle=None):
        usable = real(conn, idle=idle)
        if idle is not None and checks["n"] == 0:
            checks["n"] += 1
            _end_sessions(url, application)
        return usable

    async def body(session):
        assert not (await _index(session)).isError
        monkeypatch.setattr(serve, "still_open", ended_after_the_check)
        failed = await _index(session)
        monkeypatch.setattr(serve, "still_open", real)
        return failed, await _index(session)

    failed, after = with_session(mcp_url, secret, body)
    assert failed.isError
    assert failed.structuredContent["error"]["type"] == "StoreUnavailable", failed.content[0].text
    assert "kenning bug" not in failed.content[0].text
    assert not after.isError, after.content[0].text


def _session(conn) -> list[tuple[object, ...]]:
    """The server's view of the session of handle ``conn``: its last statement and when its
    state last changed (a statement run on it moves both)."""
    with psycopg.connect(server_url(), autocommit=True) as admin:
        return admin.execute(
            "SELECT query, state_change FROM pg_stat_activity WHERE pid = %s", (conn.raw.info.backend_pid,)
        ).fetchall()


@pytest.fixture
def kept(make_project, monkeypatch):
    """A project served by the test server, and the connections a long-lived server keeps for it."""
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    name = f"alpha-{uuid.uuid4().hex[:10]}"
    project = make_project(FILES, name=name, config=f'name = "{name}"\nstore = "{server_url()}"\n')
    resync(project)
    connections = Connections(project)
    yield connections
    connections.close()


def test_a_kept_session_serves_the_next_request_without_a_round_trip(kept):
    """Two close requests: the second reuses the session as it is, nothing sent to the server
    before it (the check used to be a `SELECT 1` on every request)."""
    with kept.conn() as conn:
        conn.execute("SELECT 'the first request'")
    before = _session(conn)
    assert [row[0] for row in before] == ["SELECT 'the first request'"]
    with kept.conn() as again:
        assert again is conn
        assert _session(conn) == before  # no statement ran on the session to hand it out


def test_a_session_ended_while_idle_is_replaced_before_the_next_request(kept):
    with kept.conn() as conn:
        conn.execute("SELECT 1")
    pid = conn.raw.info.backend_pid
    with psycopg.connect(server_url(), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
        gone(admin, "pid = %s", pid)  # a restart is over when its sessions are
    with kept.conn() as again:
        assert again is not conn  # the server's last word on the socket: a new session, no failed request
        assert again.execute("SELECT 'served'").fetchone()[0] == "served"


def test_a_session_idle_for_long_is_asked_before_it_serves(kept, monkeypatch):
    with kept.conn() as conn:
        conn.execute("SELECT 'the first request'")
    monkeypatch.setattr(handle, "ASK_AFTER_IDLE_SECONDS", 0.0)  # as if it sat idle past the limit
    with kept.conn() as again:
        assert again is conn
        assert [row[0] for row in _session(conn)] == ["SELECT 1"]


def test_questions_are_answered_on_the_kept_session(kept):
    """`memory_ask` and the cockpit's Ask opened a PostgreSQL session per question (about 6 ms
    on loopback, more round trips across a network): they now answer on the kept one, the same
    answer as a one-shot `kenning ask`."""
    first = ask_kept(kept, "signing keys", now=NOW)
    [conn] = [c for c, _ in kept._free]
    second = ask_kept(kept, "signing keys", now=NOW)
    assert [c for c, _ in kept._free] == [conn]
    one_shot = ask_project(kept.project, "signing keys", now=NOW).to_json()
    assert first.to_json() == second.to_json() == one_shot
    assert first.level == 2 and first.excerpts


def test_a_question_whose_kept_session_was_lost_without_a_word_is_asked_again(kept, monkeypatch):
    """A session lost with nothing on its socket (the check cannot see it) fails the question's
    first query: a question is a read, asked again on a new session instead of failing."""
    ask_kept(kept, "signing keys", now=NOW)
    [conn] = [c for c, _ in kept._free]
    pid = conn.raw.info.backend_pid
    with psycopg.connect(server_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        gone(admin, "pid = %s", pid)
    monkeypatch.setattr(serve, "still_open", lambda c, *, idle=None: not c.raw.closed)  # sees nothing
    answer = ask_kept(kept, "signing keys", now=NOW)
    assert answer.excerpts and answer.level == 2
    assert conn not in [c for c, _ in kept._free]
