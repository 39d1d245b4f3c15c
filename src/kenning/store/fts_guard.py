"""Keeping one query from holding the store (and the MCP server) for minutes.

Two guards, both cheap:

- **Expansion cost, before running** (``check_expansion``): every term of an FTS expression
  costs about as many postings as it has rows, and a prefix term (``con*``) as many as every
  term it expands to; FTS5 reads each occurrence on its own, so ``s* s* … s*`` (166 times,
  within the 500-character budget) reads the ``s`` postings 166 times. The estimate sums,
  over the terms as written, the rows each one reaches, read from the index's vocabulary
  (an ``fts5vocab`` table in the connection's ``temp`` schema: nothing is written to the
  store); past :data:`MAX_POSTINGS` the query is refused before it runs.
- **Time, while running** (``time_budget``): a SQLite progress handler interrupts a
  statement once the query has run :data:`QUERY_BUDGET_SECONDS`, and the search ends with a
  typed ``QueryTooCostly`` instead of minutes of work.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from kenning.errors import QueryTooCostly
from kenning.store import vocabulary
from kenning.store.postgres import fts as pg
from kenning.store.postgres.connection import is_pg

# On the 2-core machine a search reads about a million postings a second (bench/worst_query.py):
# `s*` on the 27 MB corpus reaches 217,000 rows and answers in 0.23 s.
MAX_POSTINGS = 750_000
QUERY_BUDGET_SECONDS = 1.5
PROGRESS_STEPS = 10_000  # virtual-machine steps between two looks at the clock
# The deadline of the whole call (an MCP tool runs several searches): every budget inside
# it ends at the latest then.
_CALL_DEADLINE: ContextVar[float | None] = ContextVar("kenning_call_deadline", default=None)
# A term as FTS5 reads it: a bare word or a quoted phrase's word, `*` after it for a prefix.
_TERM = re.compile(r'(\w+)(?:"?\s*(\*))?', re.UNICODE)
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})
_COLUMN = re.compile(r"\w+\s*:")


def terms_of(expression: str) -> Counter[tuple[str, bool]]:
    """``(term, is_prefix)`` occurrences of an FTS5 expression, lowercased; operators,
    column names (``title:``) and NEAR distances left out."""
    text = _COLUMN.sub(" ", re.sub(r"NEAR\(|,\s*\d+\s*\)", " ", expression))
    found: Counter[tuple[str, bool]] = Counter()
    for word, star in _TERM.findall(text):
        if word in _OPERATORS:
            continue
        found[(word.lower(), bool(star))] += 1
    return found


def estimated_postings(conn: sqlite3.Connection, expression: str) -> int:
    """Rows the expression's terms reach, summed over each occurrence (see module doc)."""
    if is_pg(conn):
        return pg.estimated_postings(conn, terms_of(expression))
    vocabulary.open_table(conn)
    total = 0
    for (term, prefix), times in terms_of(expression).items():
        if prefix:
            row = conn.execute(
                f"SELECT sum(doc) FROM {vocabulary.TABLE} WHERE term >= ? AND term < ?",
                (term, vocabulary.upper_bound(term)),
            ).fetchone()
        else:
            row = conn.execute(f"SELECT doc FROM {vocabulary.TABLE} WHERE term = ?", (term,)).fetchone()
        total += (row[0] or 0) * times if row else 0
    return total


def check_expansion(conn: sqlite3.Connection, expression: str, limit: int | None = None) -> None:
    """``QueryTooCostly`` when the expression would read more than ``limit`` postings
    (default :data:`MAX_POSTINGS`)."""
    limit = MAX_POSTINGS if limit is None else limit
    cost = estimated_postings(conn, expression)
    if cost > limit:
        raise QueryTooCostly(
            f"this query would read about {cost:,} index entries; the limit is {limit:,}",
            hint="use longer prefixes (con* → config*), fewer repeated or very common terms, "
            "or search in natural syntax",
        )


@contextmanager
def time_budget(conn: sqlite3.Connection, seconds: float | None = None) -> Iterator[None]:
    """Interrupt the connection's statements once ``seconds`` (default
    :data:`QUERY_BUDGET_SECONDS`) have passed; whatever the interrupted code raised then
    becomes ``QueryTooCostly``."""
    seconds = QUERY_BUDGET_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    outer = _CALL_DEADLINE.get()
    if outer is not None and outer < deadline:
        deadline, seconds = outer, max(0.0, seconds - (deadline - outer))
    if is_pg(conn):  # the server's statement timeout, for each statement run inside
        with pg.time_budget(conn, seconds):
            yield
        return
    fired = False

    def past_deadline() -> int:
        nonlocal fired
        if time.monotonic() > deadline:
            fired = True
            return 1
        return 0

    conn.set_progress_handler(past_deadline, PROGRESS_STEPS)  # read at call: tests lower it
    try:
        yield
    except Exception as exc:
        if fired:
            raise QueryTooCostly(
                f"the query ran past its {seconds:g} s budget and was stopped",
                hint="narrow it: more specific terms, longer prefixes, a type or path filter",
            ) from exc
        raise
    finally:
        conn.set_progress_handler(None, 0)


@contextmanager
def call_budget(seconds: float | None = None) -> Iterator[None]:
    """One budget for every search made inside (in this thread or context): an MCP tool
    call that searches twice still ends within :data:`QUERY_BUDGET_SECONDS`."""
    seconds = QUERY_BUDGET_SECONDS if seconds is None else seconds
    token = _CALL_DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _CALL_DEADLINE.reset(token)
