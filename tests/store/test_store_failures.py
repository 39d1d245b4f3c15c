"""The engine's wording never reaches a user: a locked, damaged or read-only store is a typed
error in kenning's words, the same on the command line and through the MCP client."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

import kenning.store.db as store_db
from conftest import NOW, resync
from kenning.errors import InternalError, StoreBusy, StoreReadOnly, StoreUnavailable, StoreUnreadable
from kenning.interfaces.mcp.server import build_server
from kenning.store.handle import typed_error

ENGINE_WORDING = ("database is locked", "readonly database", "not a database", "malformed", "sqlite", "disk image")


@pytest.fixture
def project(make_project):
    made = make_project({"docs/guide.md": "# Guide\n\nThe handler calls the helper.\n"})
    resync(made)
    return made


def mcp_call(project, tool: str, **arguments):
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(main)


def assert_ours(text: str) -> None:
    assert "Traceback" not in text
    for words in ENGINE_WORDING:
        assert words not in text.lower(), words


@pytest.fixture
def locked(project, monkeypatch) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding the store exclusively (readers wait, then fail)."""
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_MS", 200)  # not a minute: the test waits for it
    holder = sqlite3.connect(project.db_path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE facts SET title = title WHERE id = -1")
    yield holder
    holder.execute("ROLLBACK")
    holder.close()


def test_a_locked_store_is_store_busy_in_our_words_in_the_cli_and_mcp(project, locked, cli):
    root = ("--project", str(project.root))
    for args in (("search", "handler"), ("remember", "a note"), ("memory", "search", "handler")):
        result = cli(*args, *root)
        assert result.code == 1, args
        assert result.err.startswith("error: the project store is busy: another kenning process holds its lock\n")
        assert_ours(result.err)
    refused = mcp_call(project, "memory_search", query="handler")
    assert refused.isError and refused.structuredContent["error"]["type"] == "StoreBusy"
    assert refused.structuredContent["error"]["message"] == result.err.splitlines()[0].removeprefix("error: ")
    assert_ours(refused.content[0].text)


def test_a_damaged_store_is_store_unreadable_in_our_words_for_every_command(project, cli):
    project.db_path.write_bytes(b"\x00garbage" * 4000)
    for suffix in ("-wal", "-shm"):
        project.db_path.with_name(project.db_path.name + suffix).unlink(missing_ok=True)
    root = ("--project", str(project.root))
    for args in (("search", "handler"), ("ask", "where is the handler"), ("status",), ("sync",), ("stale",)):
        result = cli(*args, *root)
        assert result.code == 1, (args, result)
        assert result.err.startswith("error: the project store cannot be read"), (args, result.err)
        assert_ours(result.err)
    refused = mcp_call(project, "memory_ask", question="where is the handler")
    assert refused.isError and refused.structuredContent["error"]["type"] == "StoreUnreadable"
    assert_ours(refused.content[0].text)


def read_only(path: Path) -> Iterator[None]:
    """``path`` made unwritable for this process: immutable for root (chattr), mode 0444 else."""
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0
        undo = ["chattr", "-i", str(path)]
    else:
        path.chmod(0o444)
        made, undo = True, None
    try:
        try:
            path.open("r+b").close()
            writable = True
        except OSError:
            writable = False
        if not made or writable:
            pytest.skip("cannot make a file read-only here (no chattr, or not enforced)")
        yield
    finally:
        if undo is not None:
            subprocess.run(undo, capture_output=True)
        else:
            path.chmod(0o644)


def test_a_read_only_store_is_store_read_only_for_writes_and_still_serves_reads(project, cli):
    con = sqlite3.connect(project.db_path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    root = ("--project", str(project.root))
    for _ in read_only(project.db_path):
        write = cli("remember", "a note", *root)
        assert write.code == 1
        assert write.err.startswith("error: the project store is read-only: kenning cannot write to it\n")
        assert_ours(write.err)
        saved = mcp_call(project, "save_memory", text="a note")
        assert saved.isError and saved.structuredContent["error"]["type"] == "StoreReadOnly"
        assert_ours(saved.content[0].text)
        assert cli("search", "handler", *root).code == 0


def engine_failure(tmp_path: Path, kind: str) -> sqlite3.Error:
    """A real failure of the engine (not a hand-made exception)."""
    path = tmp_path / f"{kind}.db"
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    setup.commit()
    setup.close()
    try:
        match kind:
            case "read_only":
                conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
                conn.execute("INSERT INTO t VALUES (1)")
            case "locked":
                holder = sqlite3.connect(path, isolation_level=None)
                holder.execute("BEGIN EXCLUSIVE")
                other = sqlite3.connect(path, timeout=0)
                other.execute("SELECT * FROM t").fetchall()
            case "damaged":
                path.write_bytes(b"not a store" * 500)
                sqlite3.connect(path).execute("SELECT * FROM t")
            case "closed":
                conn = sqlite3.connect(path)
                conn.close()
                conn.execute("SELECT 1")
            case "integrity":
                conn = sqlite3.connect(path)
                conn.execute("INSERT INTO t VALUES (1)")
                conn.execute("INSERT INTO t VALUES (1)")
    except sqlite3.Error as exc:
        return exc
    raise AssertionError(f"no failure for {kind}")


@pytest.mark.parametrize(
    ("kind", "typed"),
    [
        ("read_only", StoreReadOnly),
        ("locked", StoreBusy),
        ("damaged", StoreUnreadable),
        ("closed", InternalError),
        ("integrity", InternalError),
    ],
)
def test_every_engine_failure_becomes_a_typed_error_in_our_words(tmp_path, kind, typed):
    exc = engine_failure(tmp_path, kind)
    error = typed_error(exc)
    assert type(error) is typed
    assert_ours(error.message)
    assert str(exc) not in error.message


def test_a_full_disk_is_store_unavailable():
    error = typed_error(sqlite3.OperationalError("database or disk is full"))
    assert isinstance(error, StoreUnavailable) and error.message == "the disk holding the project store is full"
