"""A small project synced on either engine, and the files an answer cites: what the relation
answer tests build their fixtures from."""

from __future__ import annotations

from conftest import commit_all, resync
from store.pg_engine import engine_config  # tests/store: the PostgreSQL test server


def synced(make_project, files: dict[str, str], name: str, engine: str, *, commit: bool = True):
    """``files`` committed (unless ``commit`` is false) and synced, on SQLite or served by
    PostgreSQL (``engine``): the same answers are expected from either store."""
    project = make_project(files, name=name, config=engine_config(engine, name))
    if commit:
        commit_all(project.root)
    resync(project)
    return project


def files_of(answer) -> list[str]:
    """The file each excerpt of ``answer`` comes from, in rank order."""
    return [e.fact.source.uri.split(":")[0].split("#")[0] for e in answer.excerpts]


def memory_ask(project, question: str, now) -> dict:
    """``question`` asked through MCP's ``memory_ask`` (the SDK's in-memory client against the
    project's server): its structured answer, the call having succeeded."""
    import anyio
    from mcp.shared.memory import create_connected_server_and_client_session

    from kenning.interfaces.mcp.server import build_server

    server = build_server(project, clock=lambda: now)

    async def run():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            result = await client.call_tool("memory_ask", {"question": question})
            assert not result.isError, result.content
            return result.structuredContent

    return anyio.run(run)
