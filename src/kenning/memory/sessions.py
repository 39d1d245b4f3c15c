"""Sessions, their summaries and the raw tool uses a hook records.

A session opens at the first write that names it and its end moves with each later write.
A summary is stored as a fact of type ``session_summary`` (searched, cited and aged like any
fact) plus its five parts in ``session_summaries``.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from kenning.clock import iso
from kenning.errors import NotFound, ValidationError
from kenning.store import facts as fact_store
from kenning.store import memory as memory_store
from kenning.store.db import transaction
from kenning.store.handle import Connection
from kenning.store.memory import SUMMARY_PARTS, ToolUse

_SESSION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_TOOL_TEXT = 200_000


def check_session_id(session_id: str) -> str:
    if not _SESSION_ID.match(session_id):
        raise ValidationError(f"session id {session_id!r} must be 1-128 characters of letters, digits, . _ : -")
    return session_id


def touch(conn: Connection, project: str, session_id: str, *, now: datetime, cwd: str | None = None) -> None:
    """Open the session if new, else move its end to ``now`` (call inside a transaction)."""
    check_session_id(session_id)
    memory_store.touch_session(conn, project, session_id, iso(now), cwd)


def save_summary(
    conn: Connection, project: str, session_id: str, parts: dict[str, str], *, now: datetime, producer: str = "agent"
) -> int:
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
        fact_id = fact_store.insert(
            conn,
            fact_store.NewFact(
                type="session_summary",
                title=title,
                body=body,
                source_kind="session",
                source_uri=f"session:{session_id}",
                producer=producer,
                date_indexed=stamp,
                date_source=stamp,
                date_source_kind="saved",
                date_confirmed=stamp,
                memory_type="working",
            ),
        )
        memory_store.set_fact_session(conn, fact_id, session_id)
        memory_store.insert_summary(conn, fact_id, session_id, clean)
    return fact_id


def record_tool_use(conn: Connection, project: str, payload: dict[str, Any], *, now: datetime) -> int:
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
            known = memory_store.tool_use_id_of(conn, tool_use_id)
            if known is not None:
                return known
        touch(conn, project, session_id, now=now, cwd=cwd)
        return memory_store.insert_tool_use(conn, tool_use_id, session_id, tool, text_in, text_out, cwd, iso(now))


def get_tool_uses(conn: Connection, ids: list[str]) -> tuple[list[ToolUse], list[str]]:
    """Tool uses by row id (``12``, ``"12"``) or by the client's ``tool_use_id``. Returns the
    found ones in the asked order and the ids not found."""
    found: list[ToolUse] = []
    missing: list[str] = []
    for raw in ids:
        text = str(raw).strip()
        use = memory_store.tool_use(conn, text)
        if use is None:
            missing.append(text)
        else:
            found.append(use)
    return found, missing


def tool_uses_of_session(conn: Connection, session_id: str, limit: int = 50) -> list[tuple[int, str, str]]:
    """(id, tool, created) of a session's tool uses, oldest first: an index, not the I/O."""
    if not memory_store.session_exists(conn, session_id):
        raise NotFound(f"no session {session_id!r}")
    return memory_store.tool_uses_of_session(conn, session_id, limit)


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
