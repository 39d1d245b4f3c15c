"""Reading and writing fact rows. No ranking, no freshness: those are computed above."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from kenning.errors import NotFound
from kenning.records import Fact, Lifecycle, Location
from kenning.store import bodies
from kenning.store.db import in_batches
from kenning.store.dedup import content_hash
from kenning.store.fact_rows import FACT_FIELDS, values_to_fact
from kenning.store.postgres import facts as pg
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from kenning.store.handle import EngineConnection


@dataclass(frozen=True)
class NewFact:
    """A fact about to be written; the store gives it its id."""

    type: str
    title: str
    body: str
    source_kind: str
    source_uri: str
    producer: str
    date_indexed: str
    keywords: str = ""
    path: str = ""
    fingerprint: str | None = None
    date_source: str | None = None
    date_source_kind: str | None = None  # commit, mtime, declared, saved (docs/schemas.md)
    date_confirmed: str | None = None
    tags: tuple[str, ...] = ()
    importance: int | None = None
    why: str | None = None
    how_to_apply: str | None = None
    memory_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def content_hash(self) -> str:
        return content_hash(self.type, self.title, self.body)

    def values(self) -> tuple[Any, ...]:
        """The row's values in the order of the ``INSERT`` columns both engines write (after the
        id, or PostgreSQL's project): type … meta, date_source_kind."""
        return (
            self.type,
            self.title,
            self.body,
            self.keywords,
            self.path,
            self.source_kind,
            self.source_uri,
            self.fingerprint,
            self.content_hash,
            self.date_source,
            self.date_indexed,
            self.date_confirmed,
            self.producer,
            json.dumps(list(self.tags)),
            self.importance,
            self.why,
            self.how_to_apply,
            self.memory_type,
            json.dumps(self.meta, sort_keys=True, default=str),
            self.date_source_kind,
        )


# The columns of a row given to ``insert_rows``, in order (the id is chosen by the caller).
ROW_COLUMNS = (
    "id, type, title, body, keywords, path, source_kind, source_uri, fingerprint, content_hash, "
    "date_source, date_indexed, date_confirmed, producer, tags, importance, why, how_to_apply, memory_type, meta, "
    "date_source_kind"
)


def insert(conn: EngineConnection, fact: NewFact, *, indexed: bool = True) -> int:
    """Write a fact and (unless ``indexed=False``) its lexical index entries.

    With ``indexed=False`` the caller must pass the row to ``index_fts`` before anything
    updates or deletes it, and before the transaction ends.
    """
    if is_pg(conn):
        return pg.insert(conn, fact, indexed=indexed)
    fact_id = _insert_row(conn, fact)
    bump_version(conn)
    if indexed:
        index_fts(conn, [(fact_id, fact)])
    return fact_id


def packs_bodies(conn: EngineConnection) -> bool:
    """Whether the store keeps excerpt bodies deflated (SQLite: ``store.bodies``): a row given to
    ``insert_rows`` may then come packed already (``bodies.pack`` done by the caller)."""
    return not is_pg(conn)


def insert_rows(conn: sqlite3.Connection, rows: Sequence[Sequence[Any]]) -> None:
    """Bulk load: rows in ``ROW_COLUMNS`` order, ids chosen by the caller (who holds the write
    lock). Like ``insert(..., indexed=False)``: pass them to ``index_fts_rows`` in the same
    transaction, before anything updates or deletes them. A row whose body is bytes was packed
    by the caller (``packs_bodies``): it is written as it is."""
    if is_pg(conn):
        return pg.insert_rows(conn, rows)
    if not rows:
        return None
    packed = _packed(rows)
    if all(row[i] is None for row in packed for i in _EXCERPT_NULLS):
        # Python's sqlite3 binds None through its adaptation protocol, slowly: a file's excerpts
        # (every row of a sync) leave these five columns NULL, written as literals instead.
        conn.executemany(_INSERT_EXCERPTS, map(_EXCERPT_VALUES, packed))
    else:
        conn.executemany(_INSERT_ROW, packed)
    bump_version(conn)
    return None


_INSERT_ROW = f"INSERT INTO facts ({ROW_COLUMNS}) VALUES ({','.join('?' * 21)})"
# date_confirmed, importance, why, how_to_apply, memory_type: NULL for every excerpt of a file.
_EXCERPT_NULLS = frozenset((12, 15, 16, 17, 18))
_EXCERPT_VALUES = itemgetter(*(i for i in range(21) if i not in _EXCERPT_NULLS))
_INSERT_EXCERPTS = (
    f"INSERT INTO facts ({ROW_COLUMNS}) VALUES ({','.join('NULL' if i in _EXCERPT_NULLS else '?' for i in range(21))})"
)


# The next fact id: above every fact and every deleted one (ids are never reused, migration 0007).
_NEXT_ID = "(SELECT max(coalesce((SELECT max(id) FROM facts), 0), (SELECT highest FROM fact_id_floor)) + 1)"


def next_id(conn: EngineConnection) -> int:
    """The next fact id, never one a deleted fact had (call it inside the write transaction)."""
    if is_pg(conn):
        return pg.next_id(conn)
    return int(conn.execute(f"SELECT {_NEXT_ID}").fetchone()[0])


def bump_version(conn: EngineConnection) -> None:
    """Move the store's write counter (migrations 0004, 0006) after facts were inserted: once per
    statement, not once per row (updates and deletes still move it through triggers)."""
    if is_pg(conn):
        return pg.bump_version(conn)
    conn.execute("UPDATE store_version SET version = version + 1 WHERE id = 1")


def index_fts(conn: EngineConnection, rows: Sequence[tuple[int, NewFact]]) -> None:
    """Add facts to the word and trigram indexes, in one batch."""
    if is_pg(conn):
        return pg.index_fts(conn, rows)
    index_fts_rows(conn, [(i, f.title, f.keywords, f.path, f.body) for i, f in rows])


def index_fts_rows(conn: sqlite3.Connection, rows: Sequence[tuple[int, str, str, str, str]]) -> None:
    """Add ``(id, title, keywords, path, body)`` rows to the word and trigram indexes."""
    if is_pg(conn):
        return pg.index_fts_rows(conn, rows)
    conn.executemany("INSERT INTO facts_fts (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)", rows)
    conn.executemany(  # titles and paths only (migration 0016)
        "INSERT INTO facts_trigram (rowid, title, path) VALUES (?, ?, ?)", [(r[0], r[1], r[3]) for r in rows]
    )


def _packed(rows: Sequence[Sequence[Any]], *, body: int = 3, producer: int = 13) -> list[Sequence[Any]]:
    """The rows with their body and keywords (the column after it) as SQLite stores them
    (``store.bodies``: deflated together for excerpts of files and commits); ``body`` and
    ``producer`` are the columns' positions."""
    return [
        (*row[:body], *reversed(bodies.pack(row[body + 1], row[body])), *row[body + 2 :])
        if row[producer] in bodies.PACKED_PRODUCERS and not isinstance(row[body], bytes)
        else row
        for row in rows
    ]


def _insert_row(conn: sqlite3.Connection, fact: NewFact) -> int:
    cursor = conn.execute(  # one statement: the id is chosen under the write lock it takes
        "INSERT INTO facts (id, type, title, body, keywords, path, source_kind, source_uri, fingerprint, "
        "content_hash, date_source, date_indexed, date_confirmed, producer, tags, importance, why, "
        f"how_to_apply, memory_type, meta, date_source_kind) VALUES ({_NEXT_ID},{','.join('?' * 20)})",
        _packed([fact.values()], body=2, producer=12)[0],
    )
    fact_id = cursor.lastrowid
    assert fact_id is not None  # an INSERT always sets it
    return fact_id


def tags_of(conn: EngineConnection, fact_id: int) -> list[str]:
    """A fact's tags, in their order ([] for an unknown id)."""
    if is_pg(conn):
        return pg.tags_of(conn, fact_id)
    row = conn.execute("SELECT tags FROM facts WHERE id = ?", (fact_id,)).fetchone()
    return list(json.loads(row[0] or "[]")) if row else []


def set_tags(conn: EngineConnection, fact_id: int, tags: Sequence[str], keywords: str) -> None:
    """Replace a fact's tags and the keywords indexed from them (the FTS indexes follow)."""
    if is_pg(conn):
        return pg.set_tags(conn, fact_id, tags, keywords)
    conn.execute(  # a packed row (migration 0019) is stored unpacked from then on: its keywords are the column's
        "UPDATE facts SET tags = ?, keywords = ?, body = kenning_text(body) WHERE id = ?",
        (json.dumps(list(tags)), keywords, fact_id),
    )


def types_present(conn: EngineConnection, wanted: Sequence[str] | None = None) -> set[str]:
    """The fact types the store holds (any lifecycle); given ``wanted``, only those of them."""
    if is_pg(conn):
        return pg.types_present(conn, wanted)
    if wanted is None:
        return {row[0] for row in conn.execute("SELECT DISTINCT type FROM facts")}
    return {t for t in wanted if conn.execute("SELECT 1 FROM facts WHERE type = ? LIMIT 1", (t,)).fetchone()}


def locations_for(conn: EngineConnection, ids: Iterable[int]) -> dict[int, list[Location]]:
    if is_pg(conn):
        return pg.locations_for(conn, ids)
    ids = list(ids)
    found: dict[int, list[Location]] = {i: [] for i in ids}
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT fact_id, uri, path, line_start, line_end, fingerprint FROM locations "
            f"WHERE fact_id IN ({marks}) ORDER BY fact_id, path, line_start",
            chunk,
        ):
            found[row[0]].append(Location(row[1], row[2], row[3], row[4], row[5]))
    return found


def get_many(conn: EngineConnection, project: str, ids: Sequence[int]) -> dict[int, Fact]:
    """Facts by id (any lifecycle), with their locations. Missing ids are simply absent.

    Read as plain tuples (a cursor without the connection's ``sqlite3.Row``), only the columns a
    ``Fact`` holds: an answer reads a dozen facts a question, and looking each column up by name
    cost more than reading it."""
    if is_pg(conn):
        return pg.get_many(conn, project, ids)
    rows: dict[int, tuple[Any, ...]] = {}
    found: dict[int, list[Location]] = {}
    cursor = conn.cursor()
    cursor.row_factory = None
    for chunk in in_batches(ids):
        marks = ",".join("?" * len(chunk))
        for row in cursor.execute(f"SELECT {_SHOWN} FROM facts WHERE id IN ({marks})", chunk):
            rows[row[0]] = row
            found[row[0]] = []
    for chunk in in_batches(list(rows)):
        marks = ",".join("?" * len(chunk))
        for fact_id, *location in cursor.execute(
            f"SELECT fact_id, uri, path, line_start, line_end, fingerprint FROM locations "
            f"WHERE fact_id IN ({marks}) ORDER BY fact_id, path, line_start",
            chunk,
        ):
            found[fact_id].append(Location(*location))
    cursor.close()
    return {i: values_to_fact(rows[i], project, found[i]) for i in ids if i in rows}


_SHOWN = ", ".join(FACT_FIELDS)


def get(conn: sqlite3.Connection, project: str, fact_id: int) -> Fact:
    found = get_many(conn, project, [fact_id])
    if fact_id not in found:
        raise NotFound(f"no fact #{fact_id} in project {project!r}")
    return found[fact_id]


def set_lifecycle(
    conn: EngineConnection,
    fact_id: int,
    lifecycle: Lifecycle,
    *,
    when: str,
    reason: str | None = None,
    superseded_by: int | None = None,
) -> None:
    if is_pg(conn):
        return pg.set_lifecycle(conn, fact_id, lifecycle, when=when, reason=reason, superseded_by=superseded_by)
    conn.execute(
        "UPDATE facts SET lifecycle = ?, superseded_by = ?, lifecycle_reason = ?, lifecycle_date = ? WHERE id = ?",
        (lifecycle.value, superseded_by, reason, when, fact_id),
    )


def confirm(conn: EngineConnection, fact_id: int, when: str) -> None:
    if is_pg(conn):
        return pg.confirm(conn, fact_id, when)
    conn.execute("UPDATE facts SET date_confirmed = ? WHERE id = ?", (when, fact_id))


def delete(conn: EngineConnection, fact_id: int) -> None:
    if is_pg(conn):
        return pg.delete(conn, fact_id)
    conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,))
