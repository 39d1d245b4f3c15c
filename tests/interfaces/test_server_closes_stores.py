"""The HTTP servers (`kenning serve`, `kenning mcp --http`) close the store connections they
keep between requests when they stop: no `-wal`/`-shm` is left beside a SQLite store, no idle
session on a PostgreSQL server. The cockpit left its read-only connections of a scope "all"
question open, and with them the WAL; neither app closed anything at the end of its lifespan.

A real server process first (start, ask, SIGTERM, exit 0, nothing left), then the same apps in
this process, where the end of the lifespan must close what the process exit would otherwise
hide. PostgreSQL sessions are told apart by their application name (libpq's ``PGAPPNAME``)."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest
from mcp_http_helpers import running, with_session
from starlette.testclient import TestClient

from conftest import NOW, on_free_port, resync, wait_until_served
from kenning import registry
from kenning.auth import tokens
from kenning.config import Project
from kenning.interfaces.mcp.http import create_app as mcp_app
from kenning.interfaces.web.app import create_app as cockpit_app
from kenning.store.postgres.connection import connect as pg_connect
from store.pg_engine import engine_config, server_url  # tests/store: the PostgreSQL test server

ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
COMMANDS = {"serve": ("serve",), "mcp --http": ("mcp", "--http"), "serve --mcp": ("serve", "--mcp")}
QUESTION = "how are citations computed"


def served(make_project, home: Path, engine: str) -> tuple[Project, str]:
    """A synced, registered project on ``engine`` and the secret of a token bound to it."""
    project = make_project(
        {"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"},
        name="alpha",
        config=engine_config(engine, "alpha"),
    )
    resync(project)
    registry.register(home, project.name, project.root)
    _, secret = tokens.create(
        home, scopes=[tokens.READ], projects=[project.name], paths=[], name=None, expires="30d", now=NOW
    )
    return project, secret


def left_files(project: Project) -> list[str]:
    return sorted(p.name for p in project.state_dir.glob("kenning.db-*"))


def sessions(application: str) -> int:
    """Sessions open on the test server under ``application``, the store's own probe aside."""
    probe = pg_connect(server_url(), "probe", migrate_schema=False)
    try:
        row = probe.raw.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND pid <> pg_backend_pid()",
            (application,),
        ).fetchone()
    finally:
        probe.close()
    return int(row[0]) if row else 0


def sessions_gone(application: str) -> int:
    """The sessions still open after up to 5 s (a backend notices a closed socket at once,
    but ends asynchronously)."""
    deadline = time.monotonic() + 5
    while (left := sessions(application)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def ask_everything(command: str, port: int, secret: str) -> None:
    """One question on the project's store and one over every registered store (the kept
    read-only connections of scope "all"), to the cockpit and to `/mcp` as the command serves."""
    if command.startswith("serve"):
        for scope in ("project", "all"):
            reply = httpx.get(f"http://127.0.0.1:{port}/api/ask", params={"q": QUESTION, "scope": scope}, timeout=30)
            assert reply.status_code == 200 and "docs/a.md" in reply.text
    if "mcp" not in command:
        return

    async def body(session):
        return [await session.call_tool("memory_ask", {"question": QUESTION, "scope": s}) for s in ("project", "all")]

    results = with_session(f"http://127.0.0.1:{port}/mcp", secret, body)
    assert [r.isError for r in results] == [False, False]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_server_stopped_by_sigterm_leaves_no_wal_and_no_server_session(
    make_project, isolated_home, monkeypatch, command, engine
):
    project, secret = served(make_project, isolated_home, engine)
    application = f"kenning-test-{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("PGAPPNAME", application)  # the server process's sessions, by name
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        ask_everything(command, port, secret)
        if engine == "sqlite":
            assert left_files(project) == ["kenning.db-shm", "kenning.db-wal"]  # kept open while serving
        else:
            assert sessions(application) >= 1
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=20)
        assert server.stderr is not None
        rest = server.stderr.read()
    assert code == 0, rest
    assert "Traceback" not in rest
    assert left_files(project) == []
    if engine == "postgresql":
        assert sessions_gone(application) == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_the_cockpits_lifespan_end_closes_every_store_connection_it_kept(
    make_project, isolated_home, monkeypatch, engine
):
    project, _ = served(make_project, isolated_home, engine)
    application = f"kenning-test-{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("PGAPPNAME", application)
    app = cockpit_app(project, home=isolated_home, clock=lambda: NOW)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for scope in ("project", "all"):
            reply = client.get("/api/ask", params={"q": QUESTION, "scope": scope})
            assert reply.status_code == 200 and "docs/a.md" in reply.text
        if engine == "postgresql":
            assert sessions(application) >= 1
    assert left_files(project) == []
    if engine == "postgresql":
        assert sessions_gone(application) == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_the_mcp_apps_lifespan_end_closes_every_store_connection_its_tools_kept(
    make_project, isolated_home, monkeypatch, engine
):
    project, secret = served(make_project, isolated_home, engine)
    application = f"kenning-test-{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("PGAPPNAME", application)

    async def body(session):
        asked = [await session.call_tool("memory_ask", {"question": QUESTION, "scope": s}) for s in ("project", "all")]
        searched = await session.call_tool("search_memory", {"query": "citations"})
        return [r.isError for r in (*asked, searched)]

    with running(mcp_app(project, home=isolated_home, tools="all", clock=lambda: NOW)) as url:
        assert with_session(url, secret, body) == [False, False, False]
        if engine == "postgresql":
            assert sessions(application) >= 1
    assert left_files(project) == []
    if engine == "postgresql":
        assert sessions_gone(application) == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_server_stopped_before_any_question_leaves_no_wal(make_project, isolated_home, command, sig):
    """The word lists warmed in the background are read on read-only connections, which leave
    the `-wal`/`-shm` behind them; with no question asked no other connection removed them.
    SIGHUP (the terminal closed) killed the server, exit 129, both files left."""
    project, _ = served(make_project, isolated_home, "sqlite")
    with on_free_port(*COMMANDS[command], "--project", str(project.root), home=isolated_home) as (server, port):
        wait_until_served(server, port)
        deadline = time.monotonic() + 10
        while not left_files(project) and time.monotonic() < deadline:  # the warming has opened the store
            time.sleep(0.05)
        assert left_files(project) == ["kenning.db-shm", "kenning.db-wal"]
        server.send_signal(sig)
        code = server.wait(timeout=20)
    assert code == 0
    assert left_files(project) == []


@pytest.mark.parametrize("app_of", ["cockpit", "mcp"])
def test_a_server_stopped_while_its_word_lists_warm_waits_for_them_then_leaves_no_wal(
    make_project, isolated_home, monkeypatch, app_of
):
    """The warming reads on a read-only connection in a background thread (store/postings.py);
    one still open when the server closes its stores left the `-wal`/`-shm` behind once it
    closed. A slow pass is simulated: it holds its connection for 0.5 s."""
    from kenning.store import postings

    project, _ = served(make_project, isolated_home, "sqlite")
    opened = threading.Event()

    def slow_pass(key, task, lock):
        conn = postings._read_only(key[0])
        try:
            conn.execute("SELECT count(*) FROM facts").fetchone()
            opened.set()
            time.sleep(0.5)
        finally:
            conn.close()
        return 0, 0

    monkeypatch.setattr(postings, "_warm_pass", slow_pass)
    if app_of == "cockpit":
        with TestClient(cockpit_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1"):
            assert opened.wait(10)
    else:
        with running(mcp_app(project, home=isolated_home, clock=lambda: NOW)):
            assert opened.wait(10)
    assert left_files(project) == []
