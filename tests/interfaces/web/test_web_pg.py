"""The cockpit on a project served by PostgreSQL (level 2, issue 18): every page and /api route
over the real app and a real server, answers at level 2 with the excerpts `kenning ask --json`
prints; an unreachable server answers from the local level-0 store and says so, or is a typed
503 when there is none, and a memory gesture never lands in the local store instead."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_corpus import ALPHA, NOW, write

from kenning import registry
from kenning.config import Project, init_project, load_project
from kenning.errors import NotFound
from kenning.interfaces.web.app import create_app
from kenning.memory.observations import Observation
from kenning.memory.observations import save as save_observation
from kenning.store import facts as fact_store
from kenning.store.db import connect, open_store
from kenning.sync.run import sync
from store.pg_engine import server_url  # tests/store: the PostgreSQL test server

pytestmark = pytest.mark.postgres

QUESTION = "how is freshness computed"
DEAD = "postgresql://kenning@127.0.0.1:1/nothing"  # nothing listens on port 1: refused at once
NOTE = ("Prefer FTS5 over tantivy", "FTS5 ships with Python; tantivy needs Rust.")


def _project(base: Path, store: str, *, local: bool = False) -> tuple[Project, Path]:
    """The cockpit corpus's served project under a fresh name (tests share one database),
    its config naming ``store``, synced into it (and into its local file when ``local``)."""
    home, root = base / "home", base / "alpha"
    write(root, ALPHA)
    name = f"alpha-{uuid.uuid4().hex[:10]}"
    project, _ = init_project(root, name)
    if local:
        sync(project, now=NOW)
    config = project.state_dir / "config.toml"
    config.write_text(f'store = "{store}"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")
    project = load_project(root, {})
    assert project.config.store == store
    registry.register(home, project.name, project.root)
    return project, home


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Project, Path, int]:
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    project, home = _project(tmp_path, server_url())
    sync(project, now=NOW)
    conn = open_store(project, create=True)
    try:
        note = save_observation(
            conn, project.name, Observation(text=NOTE[1], title=NOTE[0], producer="human", origin="cli"), now=NOW
        ).fact_id
    finally:
        conn.close()
    return project, home, note


def _client(project: Project, home: Path) -> TestClient:
    return TestClient(create_app(project, home=home, clock=lambda: NOW), base_url="http://127.0.0.1")


def test_api_ask_on_postgresql_is_level_2_and_byte_identical_to_kenning_ask_json(served, cli, monkeypatch):
    project, home, _ = served
    monkeypatch.setenv("KENNING_NOW", NOW.isoformat())
    monkeypatch.setenv("KENNING_HOME", str(home))
    printed = cli("ask", QUESTION, "--json", "--project", str(project.root))
    assert printed.code == 0, printed.err
    reply = _client(project, home).get("/api/ask", params={"q": QUESTION})
    assert reply.status_code == 200
    data = reply.json()
    assert data["level"] == 2 and data["excerpts"]
    assert not any("not implemented" in d for d in data["degradations"])
    assert reply.text == printed.out
    both = _client(project, home).get("/api/ask", params={"q": QUESTION, "scope": "all"}).json()
    assert both["scope"]["projects"] == [project.name] and both["scope"]["excluded"] == []
    assert [e["citation"] for e in both["excerpts"]] == [e["citation"] for e in data["excerpts"]]
    assert [e["citation"] for e in data["excerpts"]][0].startswith(f"kn://{project.name}/")


def test_every_page_answers_from_postgresql(served):
    project, home, note = served
    client = _client(project, home)
    ask = client.get("/ask", params={"q": QUESTION})
    assert ask.status_code == 200 and '<dd class="level">2</dd>' in ask.text
    assert "Freshness is computed at read time" in ask.text
    links = re.findall(rf'href="(/source/{re.escape(project.name)}/\d+)', ask.text)
    assert links
    source = client.get(links[0])
    assert source.status_code == 200 and "Freshness" in source.text

    stale = client.get("/stale")
    assert stale.status_code == 200 and "degraded" not in stale.text
    (project.root / "docs/freshness.md").write_text("# Freshness\n\nRewritten.\n", encoding="utf-8")
    stale = client.get("/stale")
    assert stale.status_code == 200 and "docs/freshness.md" in stale.text

    graph = client.get("/graph", params={"node": "rrf_fuse"})
    assert graph.status_code == 200 and "<svg" in graph.text and "normalise" in graph.text
    assert "not implemented" not in graph.text

    memory = client.get("/memory")
    assert memory.status_code == 200 and NOTE[0] in memory.text

    status = client.get("/status")
    assert status.status_code == 200 and '<dd class="level">2</dd>' in status.text
    assert "postgresql" in status.text and "web cockpit" not in status.text

    bench = client.get("/bench")
    assert bench.status_code == 200 and "recall@5" in bench.text
    assert "not implemented" not in bench.text and "not implemented" not in status.text


def test_a_memory_gesture_writes_to_postgresql(served):
    project, home, note = served
    client = _client(project, home)
    token = re.search(r'name="token" value="([^"]+)"', client.get("/memory").text)
    assert token
    asked = client.post("/memory/forget", data={"id": str(note), "token": token.group(1)})
    assert asked.status_code == 200 and NOTE[0] in asked.text
    done = client.post(
        "/memory/forget", data={"id": str(note), "token": token.group(1), "confirmed": "yes"}, follow_redirects=False
    )
    assert done.status_code == 303
    assert NOTE[0] not in client.get("/memory").text
    conn = open_store(project)
    try:
        with pytest.raises(NotFound):
            fact_store.get(conn, project.name, note)  # forgotten for good, on the server
    finally:
        conn.close()


def test_an_unreachable_server_answers_from_the_local_store_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    project, home = _project(tmp_path, DEAD, local=True)
    client = _client(project, home)
    data = client.get("/api/ask", params={"q": QUESTION}).json()
    assert data["level"] == 0 and data["excerpts"]
    assert any("answered from the local level-0 store" in d for d in data["degradations"])
    graph = client.get("/graph", params={"node": "rrf_fuse"})
    assert graph.status_code == 200 and "answered from the local level-0 store" in graph.text
    stale = client.get("/stale")
    assert stale.status_code == 200 and "answered from the local level-0 store" in stale.text
    for url in ("/memory", "/bench"):  # every page read from the local store says so, not only answers
        page = client.get(url)
        assert page.status_code == 200 and re.search(
            r"degraded: [^<]*answered from the local level-0 store", page.text
        ), url
    local = connect(project.db_path)
    try:
        note = save_observation(local, project.name, Observation(text="x", title="local", origin="cli"), now=NOW)
    finally:
        local.close()
    token = re.search(r'name="token" value="([^"]+)"', client.get("/memory").text)
    assert token
    refused = client.post("/memory/forget", data={"id": str(note.fact_id), "token": token.group(1), "confirmed": "yes"})
    assert refused.status_code == 503 and "StoreUnavailable" in refused.text
    local = connect(project.db_path)
    try:
        assert fact_store.get(local, project.name, note.fact_id).lifecycle.value == "active"  # nothing changed
    finally:
        local.close()


def test_an_unreachable_server_without_a_local_store_is_a_typed_503(tmp_path, monkeypatch):
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    project, home = _project(tmp_path, DEAD)
    client = _client(project, home)
    for url in ("/graph?node=rrf_fuse", "/stale", "/memory", "/bench"):
        page = client.get(url)
        assert page.status_code == 503 and "StoreUnavailable" in page.text, url
    reply = client.get("/api/ask", params={"q": QUESTION})
    assert reply.status_code == 503 and reply.json()["error"]["type"] == "StoreUnavailable"
