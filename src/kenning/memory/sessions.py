"""Sessions, their summaries and the raw tool uses a hook records.

A session opens at the first write that names it and its end moves with each later write.
A summary is stored as a fact of type ``session_summary`` (searched, cited and aged like any
fact) plus its five parts in ``session_summaries``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kenning.clock import iso
from kenning.errors import NotFound, ValidationError
from kenning.store import facts as fact_store
from kenning.store.db import transaction

SUMMARY_PARTS = ("request", "investigated", "learned", "completed", "next_steps")
_SESSION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_TOOL_TEXT = 200_000


@dataclass(frozen=True)
class ToolUse:
    id: int
    tool_use_id: str | None
    session_id: str
    tool: str
    input: str
    response: str
    cwd: str | None
    created: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "tool_use_id": self.tool_use_id, "session_id": self.session_id, "tool": self.tool,
                "input": self.input, "response": self.response, "cwd": self.cwd, "created": self.created}


def check_session_id(session_id: str) -> str:
    if not _SESSION_ID.match(session_id):
        raise ValidationError(f"session id {session_id!r} must be 1-128 characters of letters, digits, . _ : -")
    return session_id


def touch(conn: sqlite3.Connection, project: str, session_id: str, *, now: datetime, cwd: str | None = None) -> None:
    """Open the session if new, else move its end to ``now`` (call inside a transaction)."""
    check_session_id(session_id)
    stamp = iso(now)
    conn.execute(
        "INSERT INTO sessions (id, project, started, ended, cwd) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET ended = excluded.ended, cwd = coalesce(sessions.cwd, excluded.cwd)",
        (session_id, project, stamp, stamp, cwd),
    )


def save_summary(conn: sqlite3.Connection, project: str, session_id: str, parts: dict[str, str], *,
                 now: datetime, producer: str = "agent") -> int:
    """Save a session summary; returns its fact id. At least one part must say something."""
    unknown = set(parts) - set(SUMMARY_PARTS)
    if unknown:
        raise ValidationError(f"unknown summary parts: {', '.join(sorted(unknown))}")
    clean = {k: (parts.get(k) or "").strip() for k in SUMMARY_PARTS}
    if not any(clean.values()):
        raise ValidationError("an empty summary: give at least one of " + ", ".join(SUMMARY_PARTS))
    body = "\n".join(f"{k.replace('_', ' ').capitalize()}: {v}" for k, v in clean.items() if v)
    title = f"Session {session_id}: " + (clean["request"] or clean["completed"] or clean["learned"])[:80]
    stamp = iso(now)
    with transaction(conn):
        touch(conn, project, session_id, now=now)
        fact_id = fact_store.insert(conn, fact_store.NewFact(
            type="session_summary", title=title, body=body, source_kind="session",
            source_uri=f"session:{session_id}", producer=producer, date_indexed=stamp, date_source=stamp,
            date_confirmed=stamp, memory_type="working"))
        conn.execute("UPDATE facts SET session_id = ? WHERE id = ?", (session_id, fact_id))
        conn.execute(
            "INSERT INTO session_summaries (fact_id, session_id, request, investigated, learned, completed, "
            "next_steps) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (fact_id, session_id, *(clean[k] for k in SUMMARY_PARTS)),
        )
    return fact_id


def summary_parts(conn: sqlite3.Connection, fact_ids: list[int]) -> dict[int, dict[str, str]]:
    if not fact_ids:
        return {}
    marks = ",".join("?" * len(fact_ids))
    rows = conn.execute(f"SELECT * FROM session_summaries WHERE fact_id IN ({marks})", fact_ids)
    return {row["fact_id"]: {k: row[k] for k in ("session_id", *SUMMARY_PARTS)} for row in rows}


def session_of(conn: sqlite3.Connection, fact_ids: list[int]) -> dict[int, str | None]:
    if not fact_ids:
        return {}
    marks = ",".join("?" * len(fact_ids))
    return {row[0]: row[1] for row in conn.execute(f"SELECT id, session_id FROM facts WHERE id IN ({marks})",
                                                   fact_ids)}


def record_tool_use(conn: sqlite3.Connection, project: str, payload: dict[str, Any], *, now: datetime) -> int:
    """Record one PostToolUse payload (Claude Code hook JSON). Returns the row id; a payload
    already recorded (same ``tool_use_id``) is not recorded twice."""
    session_id = payload.get("session_id")
    tool = payload.get("tool_name")
    if not isinstance(session_id, str) or not isinstance(tool, str) or not tool:
        raise ValidationError("a PostToolUse payload needs string fields session_id and tool_name")
    check_session_id(session_id)
    tool_use_id = payload.get("tool_use_id") if isinstance(payload.get("tool_use_id"), str) else None
    text_in = _as_text(payload.get("tool_input"))[:MAX_TOOL_TEXT]
    text_out = _as_text(payload.get("tool_response"))[:MAX_TOOL_TEXT]
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    with transaction(conn):
        if tool_use_id:
            row = conn.execute("SELECT id FROM tool_uses WHERE tool_use_id = ?", (tool_use_id,)).fetchone()
            if row:
                return int(row[0])
        touch(conn, project, session_id, now=now, cwd=cwd)
        cursor = conn.execute(
            "INSERT INTO tool_uses (tool_use_id, session_id, tool, input, response, cwd, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tool_use_id, session_id, tool, text_in, text_out, cwd, iso(now)),
        )
        return int(cursor.lastrowid)


def get_tool_uses(conn: sqlite3.Connection, ids: list[str]) -> tuple[list[ToolUse], list[str]]:
    """Tool uses by row id (``12``, ``"12"``) or by the client's ``tool_use_id``. Returns the
    found ones in the asked order and the ids not found."""
    found: list[ToolUse] = []
    missing: list[str] = []
    for raw in ids:
        text = str(raw).strip()
        row = None
        if text.isdigit():
            row = conn.execute("SELECT * FROM tool_uses WHERE id = ?", (int(text),)).fetchone()
        if row is None:
            row = conn.execute("SELECT * FROM tool_uses WHERE tool_use_id = ?", (text,)).fetchone()
        if row is None:
            missing.append(text)
        else:
            found.append(ToolUse(row["id"], row["tool_use_id"], row["session_id"], row["tool"], row["input"],
                                 row["response"], row["cwd"], row["created"]))
    return found, missing


def tool_uses_of_session(conn: sqlite3.Connection, session_id: str, limit: int = 50) -> list[tuple[int, str, str]]:
    """(id, tool, created) of a session's tool uses, oldest first: an index, not the I/O."""
    if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
        raise NotFound(f"no session {session_id!r}")
    return [(r[0], r[1], r[2]) for r in conn.execute(
        "SELECT id, tool, created FROM tool_uses WHERE session_id = ? ORDER BY id LIMIT ?", (session_id, limit))]


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
