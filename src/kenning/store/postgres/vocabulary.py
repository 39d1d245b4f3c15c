"""``store.vocabulary`` on PostgreSQL: words as ``kenning_simple`` reads them (the same words as
``fts_syntax.WORD``), terms from ``to_tsvector``, the vocabulary from the word postings."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.store.fold import unaccented
from kenning.store.postgres.connection import PgConnection
from kenning.store.postgres.fts_syntax import WORD


def word(conn: PgConnection, text: str) -> str | None:
    found = WORD.findall(text)
    if len(found) != 1:
        return None
    return unaccented(found[0])


def index_terms(conn: PgConnection, words: Sequence[str]) -> list[str | None]:
    if not words:
        return []
    rows = conn.execute(
        "SELECT n, (SELECT CASE WHEN count(*) = 1 THEN min(lexeme) END "
        "FROM unnest(to_tsvector('kenning_simple', w))) "
        "FROM unnest(%s::text[]) WITH ORDINALITY AS u(w, n) ORDER BY n",
        (list(words),),
    ).fetchall()
    return [row[1] for row in rows]


def held(conn: PgConnection, terms: Sequence[str]) -> set[str]:
    rows = conn.execute(
        "SELECT DISTINCT lexeme FROM word_postings WHERE project = %s AND lexeme = ANY(%s)",
        (conn.project, sorted(set(terms))),
    )
    return {row[0] for row in rows}


def terms_from(conn: PgConnection, prefix: str, limit: int) -> list[str]:
    """In code-point order whatever the database's collation (``COLLATE "C"``); the range
    bounds serve the primary key's index, ``starts_with`` is the exact test."""
    rows = conn.execute(
        'SELECT DISTINCT lexeme COLLATE "C" FROM word_postings WHERE project = %s AND lexeme >= %s '
        "AND lexeme < %s AND starts_with(lexeme, %s) ORDER BY 1 LIMIT %s",
        (conn.project, prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1), prefix, limit),
    )
    return [row[0] for row in rows]


def frequencies(conn: PgConnection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
    wanted = sorted(set(terms))
    found = dict.fromkeys(wanted, 0)
    rows = conn.execute(
        "SELECT lexeme, sum(cardinality(ids)) FROM word_postings WHERE project = %s AND lexeme = ANY(%s) "
        "GROUP BY lexeme",
        (conn.project, wanted),
    )
    found.update((row[0], int(row[1])) for row in rows)
    stats = conn.execute("SELECT docs FROM word_stats WHERE project = %s", (conn.project,)).fetchone()
    return (int(stats[0]) if stats else 0), found
