"""Per-store secrets (random 32 bytes each, created on first use, never leaving the store)."""

from __future__ import annotations

import secrets
import sqlite3


def get(conn: sqlite3.Connection, name: str) -> bytes | None:
    row = conn.execute("SELECT value FROM store_secrets WHERE name = ?", (name,)).fetchone()
    return bytes(row[0]) if row else None


def get_or_create(conn: sqlite3.Connection, name: str) -> bytes:
    """The secret ``name``; the first caller creates it (two racing writers keep the first)."""
    found = get(conn, name)
    if found is not None:
        return found
    conn.execute("INSERT OR IGNORE INTO store_secrets (name, value) VALUES (?, ?)", (name, secrets.token_bytes(32)))
    row = conn.execute("SELECT value FROM store_secrets WHERE name = ?", (name,)).fetchone()
    return bytes(row[0])  # there now: this writer's, or a racing writer's kept by OR IGNORE
