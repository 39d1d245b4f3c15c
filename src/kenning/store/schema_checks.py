"""Table definitions edited in place, SQLite's documented procedure for removing or changing a
constraint without touching a row ("Making Other Kinds Of Table Schema Changes"): what a
migration cannot say in SQL, run by the migration runner right after its file.

- 0023: the CHECK constraints of ``facts`` spelled without IN lists. SQLite checks ``x IN ('a',
  'b')`` in a CHECK constraint by building a lookup table for every row written; ``x = 'a' OR x =
  'b'`` accepts and refuses the same values (NULL included) at a fraction of the cost (migration
  0023 gives the figures). ``facts`` is referenced by most of the schema, so its definition is
  edited rather than the table rebuilt.
- 0024: ``graph_refs`` and ``graph_edges`` without their foreign keys, whose cascades the
  migration's triggers keep (it says why).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

_IN_LIST = re.compile(r"CHECK \((\w+) IN \(('[^']*'(?:, '[^']*')*)\)\)")


def spelled_out(table_sql: str) -> str:
    """``table_sql`` with each ``CHECK (x IN ('a', 'b'))`` as ``CHECK (x = 'a' OR x = 'b')``."""

    def spell(match: re.Match[str]) -> str:
        column, values = match[1], match[2].split(", ")
        return "CHECK (" + " OR ".join(f"{column} = {value}" for value in values) + ")"

    return _IN_LIST.sub(spell, table_sql)


def facts_without_in_lists(conn: sqlite3.Connection) -> None:
    """Rewrite the stored definition of ``facts`` (inside the migration's transaction)."""
    _edit_tables(conn, {"facts": spelled_out})


# A foreign key of the graph's references and edges on a node or a reference (migration 0024).
_GRAPH_REFERENCE = re.compile(r" REFERENCES graph_(?:nodes|refs)\(id\) ON DELETE CASCADE")


def without_graph_references(table_sql: str) -> str:
    """``table_sql`` without its foreign keys on ``graph_nodes`` and ``graph_refs``."""
    return _GRAPH_REFERENCE.sub("", table_sql)


def graph_without_foreign_keys(conn: sqlite3.Connection) -> None:
    """Rewrite the stored definitions of ``graph_refs`` and ``graph_edges`` (inside the
    migration's transaction, after its triggers were created)."""
    _edit_tables(conn, {"graph_refs": without_graph_references, "graph_edges": without_graph_references})


def _edit_tables(conn: sqlite3.Connection, edits: dict[str, Callable[[str], str]]) -> None:
    """Each table's stored definition as its edit gives it, all or none. Checked first on a
    scratch database, so a definition SQLite would not read is never written; left as they are
    where SQLite refuses to edit its schema (defensive mode)."""
    changed: dict[str, str] = {}
    for table, edit in edits.items():
        (table_sql,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if edit(table_sql) != table_sql:
            changed[table] = edit(table_sql)
    if not changed:
        return
    scratch = sqlite3.connect(":memory:")
    try:
        for new_sql in changed.values():
            scratch.execute(new_sql)  # raises on a definition SQLite cannot read
    finally:
        scratch.close()
    (version,) = conn.execute("PRAGMA schema_version").fetchone()
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("SAVEPOINT edit_tables")
    try:
        for table, new_sql in changed.items():
            conn.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", (new_sql, table))
    except sqlite3.DatabaseError:  # defensive mode: nothing edited
        conn.execute("ROLLBACK TO edit_tables")
        conn.execute("RELEASE edit_tables")
        conn.execute("PRAGMA writable_schema = OFF")
        return
    conn.execute("RELEASE edit_tables")
    conn.execute(f"PRAGMA schema_version = {int(version) + 1}")  # other connections read the schema again
    conn.execute("PRAGMA writable_schema = RESET")  # and so does this one
