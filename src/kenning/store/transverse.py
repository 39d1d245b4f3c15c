"""Rows of the transverse (global) memory store that no other module reads: promotions."""

from __future__ import annotations

import sqlite3


def active_manual_with_hash(conn: sqlite3.Connection, content_hash: str) -> int | None:
    """The id of an active manual fact with this content, if any: a note or a promotion is
    not saved twice."""
    row = conn.execute(
        # `+`: the planner keeps to the index of migration 0020 (16 characters of the hash);
        # `+content_hash` also stops SQLite from rewriting the indexed expression into a constant
        "SELECT id FROM facts WHERE substr(content_hash, 1, 16) = ? AND +content_hash = ? "
        "AND +lifecycle = 'active' AND +source_kind = 'manual' ORDER BY id LIMIT 1",
        (content_hash[:16], content_hash),
    ).fetchone()
    return None if row is None else int(row[0])
