"""The word index's vocabulary, for prefix terms (``search/prefix.py``).

The word index holds stems (SQLite: FTS5's ``porter`` over ``unicode61 remove_diacritics 2``;
PostgreSQL: ``kenning_simple``, unaccent and the Snowball English stemmer): ``deploy`` is held
as ``deploi``, ``deployment`` as ``deploy``. Both engines stem a prefix term before matching it
(``deploy*`` reads ``deploi*``), so a prefix misses the words whose stem does not begin with
its own stem. These functions let ``search/`` ask the index what a user's prefix reaches:

- :func:`word`: the text as one unstemmed index word (folded as the index folds), or None;
- :func:`index_terms`: the term (stem) the index makes of each word, or None when a word is not
  one term;
- :func:`held`: which of these terms the index holds (active or not);
- :func:`terms_from`: the held terms that begin with a prefix, in order, at most ``limit``;
- :func:`frequencies`: how many excerpts the index holds, and how many of them hold each term
  (a question's weight in each store across projects: ``across.rank``).

SQLite reads FTS5's own tokenizer (``fts_tokens``) and vocabulary (an ``fts5vocab`` table in
the connection's ``temp`` schema: nothing is written to the store); PostgreSQL its text search
configuration and its word postings.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kenning.store import fts_tokens
from kenning.store.db import in_batches
from kenning.store.postgres import vocabulary as pg
from kenning.store.postgres.connection import is_pg

TABLE = "temp.kenning_fts_vocab"  # the vocabulary as an fts5vocab table (also fts_guard's estimate)
_UNSTEMMED: list[fts_tokens.Tokenizer] = []  # made at first use: nothing at import (start-up time)


def word(conn: sqlite3.Connection, text: str) -> str | None:
    """``text`` as the one word the index would read in it, folded but not stemmed (``Déploy``
    → ``deploy``); None when it holds no word or several (``rrf_fuse``: two)."""
    if is_pg(conn):
        return pg.word(conn, text)
    if not _UNSTEMMED:
        _UNSTEMMED.append(fts_tokens.Tokenizer("unicode61 remove_diacritics 2"))
    found = _UNSTEMMED[0].tokens(text)
    return found[0] if len(found) == 1 else None


def index_terms(conn: sqlite3.Connection, words: Sequence[str]) -> list[str | None]:
    """The term the word index makes of each of ``words`` (its stem), None for a word that is
    not one term."""
    if is_pg(conn):
        return pg.index_terms(conn, words)
    tokenizer = fts_tokens.of_table(conn, "facts_fts")
    if tokenizer is None:
        return [None] * len(words)
    if all(w.isalnum() for w in words):  # letters and digits only: one term each, tokenized as one row
        together = tokenizer.tokens(" ".join(words))
        if len(together) == len(words):
            return list(together)
    out: list[str | None] = []
    for one in words:
        found = tokenizer.tokens(one)
        out.append(found[0] if len(found) == 1 else None)
    return out


def held(conn: sqlite3.Connection, terms: Sequence[str]) -> set[str]:
    """Those of ``terms`` the word index holds."""
    if is_pg(conn):
        return pg.held(conn, terms)
    return set(_documents(conn, terms))


def terms_from(conn: sqlite3.Connection, prefix: str, limit: int) -> list[str]:
    """The held terms that begin with ``prefix``, in code-point order, at most ``limit``."""
    if is_pg(conn):
        return pg.terms_from(conn, prefix, limit)
    open_table(conn)
    rows = conn.execute(
        f"SELECT term FROM {TABLE} WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
        (prefix, upper_bound(prefix), limit),
    )
    return [row[0] for row in rows]


def frequencies(conn: sqlite3.Connection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
    """The excerpts the word index holds, and for each of ``terms`` the excerpts holding it
    (0 for a term it does not hold)."""
    if is_pg(conn):
        return pg.frequencies(conn, terms)
    found = dict.fromkeys(terms, 0) | _documents(conn, terms)
    return conn.execute("SELECT count(*) FROM facts_fts_docsize").fetchone()[0], found


def _documents(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[str, int]:
    """The excerpts holding each of ``terms`` the word index holds (the others left out)."""
    open_table(conn)
    found: dict[str, int] = {}
    for part in in_batches(sorted(set(terms))):
        marks = ", ".join("?" * len(part))
        found.update(conn.execute(f"SELECT term, doc FROM {TABLE} WHERE term IN ({marks})", part).fetchall())
    return found


def upper_bound(prefix: str) -> str:
    """The first string after every string that begins with ``prefix`` (code-point order)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def open_table(conn: sqlite3.Connection) -> None:
    """:data:`TABLE` on this connection (in ``temp``: nothing written to the store)."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {TABLE} USING fts5vocab(main, facts_fts, 'row')")
