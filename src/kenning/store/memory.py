"""Agent memory rows: sessions, session summaries, tool uses, and the fact-level reads and
writes memory needs (dedup of saved notes, the session a fact belongs to, chronological
neighbours). Validation and composition stay in ``memory/``."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kenning.store.db import in_batches
from kenning.store.postgres import memory as pg
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

SUMMARY_PARTS = ("request", "investigated", "learned", "completed", "next_steps")


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
        return {
            "id": self.id,
            "tool_use_id": self.tool_use_id,
            "session_id": self.session_id,
            "tool": self.tool,
            "input": self.input,
            "response": self.response,
            "cwd": self.cwd,
            "created": self.created,
        }


def touch_session(conn: sqlite3.Connection, project: str, session_id: str, stamp: str, cwd: str | None = None) -> None:
    """Open the session at ``stamp`` if new, else move its end to ``stamp``; the first known
    working directory is kept."""
    if is_pg(conn):
        return pg.touch_session(conn, session_id, stamp, cwd)
    conn.execute(
        "INSERT INTO sessions (id, project, started, ended, cwd) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET ended = excluded.ended, cwd = coalesce(sessions.cwd, excluded.cwd)",
        (session_id, project, stamp, stamp, cwd),
    )


def session_exists(conn: sqlite3.Connection, session_id: str) -> bool:
    if is_pg(conn):
        return pg.session_exists(conn, session_id)
    return conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None


def set_fact_session(conn: sqlite3.Connection, fact_id: int, session_id: str | None) -> None:
    """Tie a fact to the session it was written in (or to none)."""
    if is_pg(conn):
        return pg.set_fact_session(conn, fact_id, session_id)
    conn.execute("UPDATE facts SET session_id = ? WHERE id = ?", (session_id, fact_id))


def insert_summary(conn: sqlite3.Connection, fact_id: int, session_id: str, parts: dict[str, str]) -> None:
    """Store the parts (``SUMMARY_PARTS``; missing ones empty) of a summary fact."""
    if is_pg(conn):
        return pg.insert_summary(conn, fact_id, session_id, parts)
    conn.execute(
        "INSERT INTO session_summaries (fact_id, session_id, request, investigated, learned, completed, "
        "next_steps) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (fact_id, session_id, *(parts.get(k, "") for k in SUMMARY_PARTS)),
    )


def summary_parts(conn: sqlite3.Connection, fact_ids: list[int]) -> dict[int, dict[str, str]]:
    """``{fact id: {"session_id": …, <part>: text}}`` for the ids that are session summaries."""
    if is_pg(conn):
        return pg.summary_parts(conn, fact_ids)
    found: dict[int, dict[str, str]] = {}
    for chunk in in_batches(fact_ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT * FROM session_summaries WHERE fact_id IN ({marks})", chunk):
            found[row["fact_id"]] = {k: row[k] for k in ("session_id", *SUMMARY_PARTS)}
    return found


def session_of(conn: sqlite3.Connection, fact_ids: list[int]) -> dict[int, str | None]:
    """``{fact id: session id or None}`` for the ids that exist."""
    if is_pg(conn):
        return pg.session_of(conn, fact_ids)
    found: dict[int, str | None] = {}
    for chunk in in_batches(fact_ids):
        marks = ",".join("?" * len(chunk))
        found.update(
            (row[0], row[1]) for row in conn.execute(f"SELECT id, session_id FROM facts WHERE id IN ({marks})", chunk)
        )
    return found


# The memory saved just before / after a fact in its session (by id: the order of saving),
# read backwards or forwards along the ``facts_session`` index; session summaries are not turns
# of the session and are left out on both sides.
_SESSION_NEIGHBOUR = (
    "SELECT g.id FROM facts g WHERE g.session_id = f.session_id AND g.id {op} f.id "
    "AND g.lifecycle = 'active' AND g.type <> 'session_summary' ORDER BY g.id {order} LIMIT 1"
)
_BEFORE = _SESSION_NEIGHBOUR.format(op="<", order="DESC")
_AFTER = _SESSION_NEIGHBOUR.format(op=">", order="ASC")
SESSION_NEIGHBOURS = (
    f"SELECT f.id, ({_BEFORE}), ({_AFTER}) FROM facts f WHERE f.session_id IS NOT NULL "
    "AND f.lifecycle = 'active' AND f.type <> 'session_summary' AND f.id IN ({marks})"
)


def session_neighbours(conn: sqlite3.Connection, fact_ids: list[int]) -> dict[int, tuple[int | None, int | None]]:
    """``{fact id: (previous memory, next memory)}`` in the fact's session, for the given active
    memories saved in a session (others are absent); a side without an active memory is ``None``."""
    if is_pg(conn):
        return pg.session_neighbours(conn, fact_ids)
    found: dict[int, tuple[int | None, int | None]] = {}
    for chunk in in_batches(fact_ids):
        marks = ",".join("?" * len(chunk))
        found.update((row[0], (row[1], row[2])) for row in conn.execute(SESSION_NEIGHBOURS.format(marks=marks), chunk))
    return found


def tool_use_id_of(conn: sqlite3.Connection, tool_use_id: str) -> int | None:
    """The row id of the tool use the client calls ``tool_use_id``, if recorded."""
    if is_pg(conn):
        return pg.tool_use_id_of(conn, tool_use_id)
    row = conn.execute("SELECT id FROM tool_uses WHERE tool_use_id = ?", (tool_use_id,)).fetchone()
    return None if row is None else int(row[0])


def insert_tool_use(
    conn: sqlite3.Connection,
    tool_use_id: str | None,
    session_id: str,
    tool: str,
    text_in: str,
    text_out: str,
    cwd: str | None,
    created: str,
) -> int:
    if is_pg(conn):
        return pg.insert_tool_use(conn, tool_use_id, session_id, tool, text_in, text_out, cwd, created)
    row = conn.execute(
        "INSERT INTO tool_uses (tool_use_id, session_id, tool, input, response, cwd, created) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (tool_use_id, session_id, tool, text_in, text_out, cwd, created),
    ).fetchone()
    return int(row[0])


def tool_use(conn: sqlite3.Connection, ref: str) -> ToolUse | None:
    """A tool use by row id (``"12"``) or, failing that, by the client's ``tool_use_id``."""
    if is_pg(conn):
        found = pg.tool_use_row(conn, ref)
        return None if found is None else ToolUse(*found)
    row = None
    if ref.isascii() and ref.isdigit() and len(ref) <= 18:  # not `²`, nor past SQLite's range
        row = conn.execute("SELECT * FROM tool_uses WHERE id = ?", (int(ref),)).fetchone()
    if row is None:
        row = conn.execute("SELECT * FROM tool_uses WHERE tool_use_id = ?", (ref,)).fetchone()
    if row is None:
        return None
    return ToolUse(
        row["id"],
        row["tool_use_id"],
        row["session_id"],
        row["tool"],
        row["input"],
        row["response"],
        row["cwd"],
        row["created"],
    )


def tool_uses_of_session(conn: sqlite3.Connection, session_id: str, limit: int) -> list[tuple[int, str, str]]:
    """(id, tool, created) of a session's tool uses, oldest first."""
    if is_pg(conn):
        return pg.tool_uses_of_session(conn, session_id, limit)
    return [
        (r[0], r[1], r[2])
        for r in conn.execute(
            "SELECT id, tool, created FROM tool_uses WHERE session_id = ? ORDER BY id LIMIT ?", (session_id, limit)
        )
    ]


def active_note(conn: sqlite3.Connection, content_hash: str, source_kinds: tuple[str, ...]) -> int | None:
    """The oldest active fact with this content hash among these source kinds (dedup of saves)."""
    if is_pg(conn):
        return pg.active_note(conn, content_hash, source_kinds)
    marks = ",".join("?" * len(source_kinds))
    row = conn.execute(
        # `+`: the planner keeps to the index of migration 0020 (16 characters of the hash);
        # `+content_hash` also stops SQLite from rewriting the indexed expression into a constant
        "SELECT id FROM facts WHERE substr(content_hash, 1, 16) = ? AND +content_hash = ? "
        f"AND +lifecycle = 'active' AND +source_kind IN ({marks}) ORDER BY id LIMIT 1",
        (content_hash[:16], content_hash, *source_kinds),
    ).fetchone()
    return None if row is None else int(row[0])


def recent_ids(
    conn: sqlite3.Connection,
    source_kinds: tuple[str, ...],
    limit: int,
    *,
    types: tuple[str, ...] = (),
    memory_type: str | None = None,
    path_prefix: str | None = None,
) -> list[int]:
    """Active saved facts (never file excerpts) of these source kinds, newest first (by indexing date,
    then id)."""
    if is_pg(conn):
        return pg.recent_ids(conn, source_kinds, limit, types=types, memory_type=memory_type, path_prefix=path_prefix)
    # `source_kind <> 'file'`: the chronological index leaves file excerpts out (migration 0020)
    clauses = ["lifecycle = 'active'", f"source_kind IN ({','.join('?' * len(source_kinds))})", "source_kind <> 'file'"]
    params: list[object] = list(source_kinds)
    if types:
        clauses.append(f"type IN ({','.join('?' * len(types))})")
        params.extend(types)
    if memory_type:
        clauses.append("memory_type = ?")
        params.append(memory_type)
    if path_prefix:
        clauses.append("substr(source_uri, 1, ?) = ?")
        params.extend([len(path_prefix), path_prefix])
    return [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM facts WHERE {' AND '.join(clauses)} ORDER BY date_indexed DESC, id DESC LIMIT ?",
            (*params, limit),
        )
    ]


@dataclass(frozen=True)
class Anchor:
    """What a timeline needs of a fact: its source kind, indexing date and first location."""

    id: int
    source_kind: str
    date_indexed: str
    path: str | None  # the first location's path (by path), None without a location
    line: int  # its first line, 0 when unknown


def anchor(conn: sqlite3.Connection, fact_id: int) -> Anchor | None:
    if is_pg(conn):
        found = pg.anchor_row(conn, fact_id)
        return None if found is None else Anchor(*found)
    row = conn.execute("SELECT id, source_kind, date_indexed FROM facts WHERE id = ?", (fact_id,)).fetchone()
    if row is None:
        return None
    loc = conn.execute(
        "SELECT path, coalesce(line_start, 0) FROM locations WHERE fact_id = ? ORDER BY path LIMIT 1", (fact_id,)
    ).fetchone()
    return Anchor(row[0], row[1], row[2], loc[0] if loc else None, loc[1] if loc else 0)


def saved_neighbours(
    conn: sqlite3.Connection, at: Anchor, source_kinds: tuple[str, ...], before: int, after: int
) -> tuple[list[int], list[int]]:
    """Active facts of these source kinds saved just before ``at`` (nearest first) and just
    after (nearest first), ordered by indexing date then id."""
    if is_pg(conn):
        return pg.saved_neighbours(conn, at.id, at.date_indexed, source_kinds, before, after)
    kinds = ",".join("?" * len(source_kinds))
    base = f"FROM facts WHERE lifecycle = 'active' AND source_kind IN ({kinds}) AND source_kind <> 'file'"
    prev = conn.execute(
        f"SELECT id {base} AND (date_indexed, id) < (?, ?) ORDER BY date_indexed DESC, id DESC LIMIT ?",
        (*source_kinds, at.date_indexed, at.id, before),
    ).fetchall()
    nxt = conn.execute(
        f"SELECT id {base} AND (date_indexed, id) > (?, ?) ORDER BY date_indexed, id LIMIT ?",
        (*source_kinds, at.date_indexed, at.id, after),
    ).fetchall()
    return [r[0] for r in prev], [r[0] for r in nxt]


def file_neighbours(conn: sqlite3.Connection, at: Anchor, before: int, after: int) -> tuple[list[int], list[int]]:
    """Active facts located in ``at``'s file just above it (nearest first) and just below
    (nearest first), by line then id. ``at`` must have a path."""
    if is_pg(conn):
        assert at.path is not None
        return pg.file_neighbours(conn, at.id, at.path, at.line, before, after)
    base = (
        "FROM locations l JOIN facts f ON f.id = l.fact_id WHERE l.path = ? AND f.lifecycle = 'active' "
        "AND l.fact_id != ?"
    )
    prev = conn.execute(
        f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) <= ? "
        "ORDER BY coalesce(l.line_start, 0) DESC, l.fact_id DESC LIMIT ?",
        (at.path, at.id, at.line, before),
    ).fetchall()
    nxt = conn.execute(
        f"SELECT l.fact_id {base} AND coalesce(l.line_start, 0) > ? "
        "ORDER BY coalesce(l.line_start, 0), l.fact_id LIMIT ?",
        (at.path, at.id, at.line, after),
    ).fetchall()
    return [r[0] for r in prev], [r[0] for r in nxt]
