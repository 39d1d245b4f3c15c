"""A throwaway project on the server: `kenning bench --speed` syncs its copy into one instead
of into the project it measures.

Its name (``kenning:bench:<random>``) is one no real project can take (a project's name is
letters, digits, ``. _ -``). It is marked in ``store_version`` before anything is written and
held by a session advisory lock while in use; its rows are deleted when it is left, by an
exception or Ctrl-C too. One left behind by a killed process (its lock released with its
session) is deleted by the next throwaway's sweep, never one another process still holds.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from kenning.store.postgres.connection import PgConnection, connect

PREFIX = "kenning:bench:"
SCRATCH_LOCKS = 0x6B656E71  # first key of a throwaway's lock (the second: hashtext(name))
# Deleted first: the postings (a delete of facts would otherwise rewrite them fact by fact),
# then the graph (a fact's node would otherwise be updated before it goes). ``store_version``
# (the mark) goes last: a drop cut short is found again by the sweep.
FIRST = ("word_postings", "word_stats", "graph_edges", "graph_refs", "graph_nodes", "graph_sources", "facts")
MARK = "store_version"


@contextmanager
def throwaway(url: str) -> Iterator[str]:
    """A fresh project name on the server at ``url``, its rows deleted on exit; the schema is
    migrated (as a sync would) and orphaned throwaways are swept first."""
    conn = claim(url)
    try:
        sweep(conn)
        yield conn.project
    finally:
        try:
            drop(conn, conn.project)
        finally:
            conn.close()


def claim(url: str) -> PgConnection:
    """A connection holding a new throwaway's lock, the throwaway marked."""
    conn = connect(url, f"{PREFIX}{uuid.uuid4().hex}")
    try:
        conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (SCRATCH_LOCKS, conn.project))
        conn.execute("INSERT INTO store_version (project, version) VALUES (%s, 0)", (conn.project,))
    except BaseException:
        conn.close()
        raise
    return conn


def sweep(conn: PgConnection) -> list[str]:
    """Delete the throwaways no live session holds (their process was killed); their names."""
    marked = conn.execute(
        "SELECT project FROM store_version WHERE starts_with(project, %s) AND project <> %s ORDER BY project",
        (PREFIX, conn.project),
    ).fetchall()
    swept = []
    for (name,) in marked:
        if conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (SCRATCH_LOCKS, name)).fetchone()[0]:
            try:
                drop(conn, name)
                swept.append(name)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (SCRATCH_LOCKS, name))
    return swept


def drop(conn: PgConnection, name: str) -> None:
    """Every row of the throwaway ``name``, in every table with a ``project`` column, in one
    transaction."""
    if not name.startswith(PREFIX):  # never a real project's rows
        raise ValueError(f"not a throwaway project: {name!r}")
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t "
            "USING (table_schema, table_name) WHERE c.table_schema = current_schema() AND c.column_name = 'project' "
            "AND t.table_type = 'BASE TABLE' ORDER BY c.table_name"
        ).fetchall()
    ]
    ordered = [t for t in FIRST if t in tables] + [t for t in tables if t not in FIRST and t != MARK] + [MARK]
    with conn.raw.transaction():
        conn.execute("SET LOCAL statement_timeout = 0")  # a large project's rows take their time
        for table in ordered:
            conn.execute(f"DELETE FROM {table} WHERE project = %s", (name,))
