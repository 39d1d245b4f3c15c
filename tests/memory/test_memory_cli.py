"""`kenning memory …` and `kenning hook post-tool-use` through the real entry point."""

from __future__ import annotations

import io
import json


def test_memory_save_index_search_get_and_timeline_work_with_json(make_project, cli, monkeypatch):
    project = make_project({})
    monkeypatch.setenv("KENNING_NOW", "2026-11-29T12:00:00Z")
    at = ["--project", str(project.root)]
    saved = cli(
        "memory",
        "save",
        "Backups run nightly at 02:00.",
        "--title",
        "Nightly backups",
        "--importance",
        "7",
        "--tags",
        "ops,backup",
        "--json",
        *at,
    ).json()
    assert saved["created"] is True
    again = cli(
        "memory",
        "save",
        "Backups run nightly at 02:00.",
        "--title",
        "Nightly backups",
        "--importance",
        "7",
        "--tags",
        "ops,backup",
        *at,
    )
    assert again.code == 0 and f"already saved as #{saved['id']}" in again.out
    index = cli("memory", "index", "nightly backups", *at)
    assert f"kn://{project.name}/{saved['id']} obs i7" in index.out
    hits = cli("memory", "search", "nightly backups", "--json", *at).json()
    assert hits["excerpts"][0]["id"] == saved["id"]
    strict = cli("memory", "search", "nightly backups restore", "--strict", "--json", *at).json()
    assert strict["excerpts"] == [] and strict["withheld_weak"] == 1
    record = cli("memory", "get", f"kn://{project.name}/{saved['id']}", "--json", *at).json()
    assert record["facts"][0]["tags"] == ["ops", "backup"]
    assert record["facts"][0]["freshness"]["state"] == "unverified"
    line = cli("memory", "timeline", str(saved["id"]), "--json", *at).json()
    assert line["timeline"][0]["offset"] == 0


def test_memory_search_with_bad_fts_syntax_exits_2(make_project, cli):
    project = make_project({})
    cli("memory", "save", "A note.", "--project", str(project.root))
    result = cli("memory", "search", '"open', "--syntax", "fts", "--project", str(project.root))
    assert result.code == 2 and "invalid search syntax" in result.err


def test_memory_summary_is_a_searchable_session_summary(make_project, cli):
    project = make_project({})
    at = ["--project", str(project.root)]
    made = cli(
        "memory",
        "summary",
        "--session",
        "s42",
        "--request",
        "speed up sync",
        "--learned",
        "stat before hashing",
        "--json",
        *at,
    ).json()
    record = cli("memory", "get", str(made["id"]), "--json", *at).json()["facts"][0]
    assert record["type"] == "session_summary" and record["session_id"] == "s42"
    assert "learned: stat before hashing" in cli("memory", "get", str(made["id"]), *at).out


def test_hook_post_tool_use_records_the_payload_and_serves_it_back(make_project, cli, monkeypatch):
    project = make_project({})
    payload = {
        "session_id": "abc",
        "tool_name": "Bash",
        "tool_input": {"command": "pytest -q"},
        "tool_response": {"stdout": "3 passed"},
        "cwd": str(project.root),
        "tool_use_id": "toolu_9",
        "hook_event_name": "PostToolUse",
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    result = cli("hook", "post-tool-use")
    assert result.code == 0 and result.err == ""
    from kenning.memory.sessions import get_tool_uses
    from kenning.store.db import connect

    conn = connect(project.db_path)
    found, _ = get_tool_uses(conn, ["toolu_9"])
    session = conn.execute("SELECT project, started FROM sessions WHERE id = 'abc'").fetchone()
    conn.close()
    assert found[0].tool == "Bash" and json.loads(found[0].response) == {"stdout": "3 passed"}
    assert tuple(session) == (project.name, session["started"])


def test_hook_post_tool_use_never_fails_the_agent(tmp_path, cli, monkeypatch):
    for stdin in (
        "not json",
        json.dumps({"session_id": "x"}),
        json.dumps({"session_id": "x", "tool_name": "Bash", "cwd": str(tmp_path)}),
    ):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        result = cli("hook", "post-tool-use")
        assert result.code == 0
        assert result.err.count("\n") == 1 and result.err.startswith("kenning hook post-tool-use: ")
