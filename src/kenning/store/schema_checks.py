"""Migration 0023: the CHECK constraints of ``facts`` spelled without IN lists, edited in place.

SQLite checks ``x IN ('a', 'b')`` in a CHECK constraint by building a lookup table for every row
written; ``x = 'a' OR x = 'b'`` accepts and refuses the same values (NULL included) at a fraction
of the cost (migration 0023 gives the figures). ``facts`` is referenced by most of the schema, so
its definition is edited in ``sqlite_master`` (SQLite's documented procedure for changing a CHECK
constraint, which touches no row) instead of rebuilding the table.
"""

from __future__ import annotations

import re
import sqlite3

_IN_LIST = re.compile(r"CHECK \((\w+) IN \(('[^']*'(?:, '[^']*')*)\)\)")


def spelled_out(table_sql: str) -> str:
    """``table_sql`` with each ``CHECK (x IN ('a', 'b'))`` as ``CHECK (x = 'a' OR x = 'b')``."""

    def spell(match: re.Match[str]) -> str:
        column, values = match[1], match[2].split(", ")
        return "CHECK (" + " OR ".join(f"{column} = {value}" for value in values) + ")"

    return _IN_LIST.sub(spell, table_sql)


def facts_without_in_lists(conn: sqlite3.Connection) -> None:
    """Rewrite the stored definition of ``facts`` (inside the migration's transaction). Checked
    first on a scratch database, so a definition SQLite would not read is never written; left as
    it is where SQLite refuses to edit its schema (defensive mode)."""
    (table_sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'facts'").fetchone()
    new_sql = spelled_out(table_sql)
    if new_sql == table_sql:
        return
    scratch = sqlite3.connect(":memory:")
    try:
        scratch.execute(new_sql)  # raises on a definition SQLite cannot read
    finally:
        scratch.close()
    (version,) = conn.execute("PRAGMA schema_version").fetchone()
    conn.execute("PRAGMA writable_schema = ON")
    try:
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'facts'", (new_sql,))
    except sqlite3.DatabaseError:  # defensive mode: the same constraints, at their old cost
        conn.execute("PRAGMA writable_schema = OFF")
        return
    conn.execute(f"PRAGMA schema_version = {int(version) + 1}")  # other connections read the schema again
    conn.execute("PRAGMA writable_schema = RESET")  # and so does this one
