"""Hostile input, property-based (issue 20, finding 8): the CLI's query path (in process,
through the console script's entry point) and every MCP tool (the official SDK client over
memory streams) answer only with success or a typed error: never a traceback, never an
untyped error result, and nothing written on a refused input. Bounded examples; the long
run is bench/fuzz.py."""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.shared.memory import create_connected_server_and_client_session

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hostile  # noqa: E402

from conftest import NOW, module_home, write_files  # noqa: E402
from kenning.config import init_project  # noqa: E402
from kenning.interfaces.mcp.server import build_server  # noqa: E402
from kenning.memory.observations import Observation, save  # noqa: E402
from kenning.store.db import connect  # noqa: E402
from kenning.sync.run import sync  # noqa: E402

FILES = {
    "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "docs/guide.md": "# Guide\n\nThe handler calls the helper.\n",
    "docs/adr/0001-store.md": "# ADR-0001 Store\n\nStatus: accepted\n\n## Decision\n\nSQLite.\n",
}
ANY_TEXT = st.one_of(
    st.sampled_from(hostile.ATOMS),
    st.lists(st.sampled_from(hostile.ATOMS), min_size=2, max_size=5).map(" ".join),
    st.text(st.characters(exclude_categories=()), max_size=40),
)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("hostile") / "demo"
    write_files(root, FILES)
    with module_home(tmp_path_factory):
        made, _ = init_project(root, "demo")
        sync(made, now=NOW)
    conn = connect(made.db_path, create=True)
    save(conn, "demo", Observation(text="the handler is stable"), now=NOW)
    conn.close()
    return made


def data_version(project) -> tuple[int, int]:
    conn = sqlite3.connect(project.db_path)
    try:
        return conn.execute("SELECT count(*) FROM facts").fetchone()[0], conn.execute(
            "SELECT coalesce(max(id), 0) FROM facts"
        ).fetchone()[0]
    finally:
        conn.close()


@SETTINGS
@given(shape=st.sampled_from(hostile.CLI_SHAPES), q=ANY_TEXT, q2=ANY_TEXT, t=ANY_TEXT)
def test_the_cli_query_path_answers_or_refuses_with_a_typed_error(project, shape, q, q2, t):
    argv = [p.format(q=q, q2=q2, t=t) if "{" in p else p for p in shape] + ["--project", str(project.root)]
    before = data_version(project)
    verdict, code, err = hostile.run_cli(argv)
    assert verdict == "ok" or verdict.startswith("typed:"), (argv[:4], verdict, err[-500:])
    assert data_version(project) == before  # the query path never writes


@pytest.fixture(scope="module")
def mcp(project):
    server = build_server(project)
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(create_connected_server_and_client_session(server._mcp_server)) as client,
    ):
        tools = {t.name: t.inputSchema for t in portal.call(client.list_tools).tools}
        yield portal, client, tools


def test_the_suite_reaches_every_mcp_tool(mcp):
    _, _, tools = mcp
    assert len(tools) >= 18


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 10_000))
def test_every_mcp_tool_answers_or_refuses_with_a_typed_error(project, mcp, seed, which):
    portal, client, tools = mcp
    names = sorted(tools)
    name = names[which % len(names)]
    rng = random.Random(seed)
    arguments = hostile.mcp_args(rng, tools[name])
    before = data_version(project)
    result = portal.call(client.call_tool, name, arguments)
    verdict = hostile.judge_mcp(result)
    assert verdict == "ok" or verdict.startswith("typed:") or verdict == "schema", (name, arguments, verdict)
    if verdict != "ok":
        assert data_version(project) == before, (name, arguments)
