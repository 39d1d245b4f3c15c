"""A store at the schema an older kenning left: the migrations below a version, applied as they
were (each file in its own transaction, recorded in ``schema_migrations``), none after. The
migration tests write rows into it as that schema held them, then let a writer migrate."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kenning.store.migrations_runner import available


def store_before(path: Path, version: int) -> sqlite3.Connection:
    """A new SQLite database at ``path`` with every migration numbered below ``version`` applied
    (Python steps after a file, such as 0019's, left out: its SQL alone); an open connection."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for m in available():
        if m.version < version:
            conn.executescript(
                f"BEGIN;\n{m.sql}\n;\nINSERT INTO schema_migrations VALUES ({m.version}, "
                f"'{m.name}', '2026-01-01T00:00:00Z');\nCOMMIT;"
            )
    return conn


def add_graph_rows(conn: sqlite3.Connection) -> None:
    """Graph rows of each kind as the schemas from 0022 hold them: four nodes (a file, two of its
    symbols, a task), two references, edges from a file's declarations of its symbols, from a
    reference (both ways: a call and its ``tested_by``) and from the ledger's reference."""
    conn.execute("INSERT INTO manifest VALUES ('a.py', 10, 1, ?, 'python/4', '2026-01-01T00:00:00Z', 2)", ("f" * 64,))
    conn.executemany(
        "INSERT INTO graph_nodes (id, kind, key, name, qualname, path, origin) VALUES (?,?,?,?,?,?,?)",
        [
            (1, "file", "file:a.py", "a.py", "a", "a.py", ""),
            (2, "symbol", "symbol:a.py:go", "go", "a.go", "a.py", ""),
            (3, "symbol", "symbol:a.py:save", "save", "a.save", "a.py", ""),
            (4, "task", "task:T-1", "T-1", "", None, "ledger"),
        ],
    )
    conn.executemany("UPDATE graph_nodes SET line_start = ?, line_end = ? WHERE id = ?", [(1, 9, 2), (10, 12, 3)])
    conn.executemany(
        "INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, link, line, "
        "source_kind, source_uri, fingerprint, tested) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (7, "", 2, "calls", "symbol", "save", "a", 1, "extracted", 5, "file", None, None, 1),
            (9, "ledger", 4, "touches", "file", "a.py", None, 0, "declared", 3, "file", "ledger#T-1", "c" * 64, 0),
        ],
    )
    conn.executemany(
        "INSERT INTO graph_edges (id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, "
        "ref_id) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (3, 1, 2, "defines", "declared", "file", "a.py:1-9", None, 1, "a.py", None),
            (4, 1, 3, "defines", "declared", "file", "a.py:10-12", None, 10, "a.py", None),
            (5, 2, 3, "calls", "extracted", None, None, None, None, None, 7),
            (6, 3, 2, "tested_by", "extracted", None, None, None, None, None, 7),
            (8, 4, 1, "touches", "declared", None, None, None, None, None, 9),
        ],
    )


# Every graph edge with its source spelled out, as the graph serves it, by id.
SERVED_EDGES = (
    "SELECT id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id "
    "FROM graph_edges_sourced ORDER BY id"
)


def served_graph(conn: sqlite3.Connection) -> tuple[list[tuple], list[tuple]]:
    """The edges as served and every reference row: what a graph migration must keep (the edges
    by content, ids left out: from 0025 on, a ``defines`` and a test's ``tested_by`` are derived
    where the graph is read, under ids of their own)."""
    return (
        served_content(conn.execute(SERVED_EDGES).fetchall()),
        [tuple(r) for r in conn.execute("SELECT * FROM graph_refs ORDER BY id")],
    )


def served_content(rows: list) -> list[tuple]:
    """Served edges (``SERVED_EDGES``' columns) without their ids, sorted."""
    return sorted((tuple(r)[1:] for r in rows), key=repr)


def graph_store_before(path: Path, version: int) -> None:
    """A store at the schema before ``version`` holding ``add_graph_rows``'s rows (foreign keys checked)."""
    conn = store_before(path, version)
    conn.execute("PRAGMA foreign_keys = ON")
    add_graph_rows(conn)
    conn.close()


def migrated_graph_store(path: Path, version: int) -> sqlite3.Connection:
    """``graph_store_before`` opened by a writer, which migrates it: the migration is recorded and
    every served edge and reference kept (checked here); the writer's connection."""
    from kenning.store.db import connect

    graph_store_before(path, version)
    old = sqlite3.connect(path)
    before = served_graph(old)
    old.close()
    conn = connect(path, create=True)
    assert version in {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
    assert served_graph(conn) == before
    return conn
