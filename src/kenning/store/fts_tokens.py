"""The tokens FTS5 makes of a query phrase, by FTS5's own tokenizer.

Two phrases with the same tokens match the same rows with the same ``bm25()`` shares
(``"increased"`` and ``"increases"`` both search ``increas`` under the porter tokenizer), so
the impact lists of ``postings.py`` are kept by tokens. A :class:`Tokenizer` runs the word
index's own ``tokenize`` option in a private in-memory database: one row is written, its
tokens read back in order through ``fts5vocab``, the row deleted. Each phrase is tokenized
once per process (remembered up to :data:`MEMO` phrases).
"""

from __future__ import annotations

import re
import sqlite3

MEMO = 100_000  # phrases whose tokens are remembered (then forgotten all at once)
_TOKENIZE = re.compile(r"\btokenize\s*=\s*'((?:[^']|'')*)'", re.IGNORECASE)
_TOKENIZERS: dict[str, Tokenizer] = {}
_EMPTY: dict[tuple[str, tuple[str, ...], str], sqlite3.Connection] = {}
DEFAULT_OPTION = "unicode61"  # FTS5's tokenizer when a table names none


class Tokenizer:
    """FTS5's tokens for query phrases under one ``tokenize`` option. Not thread-safe: its
    callers hold ``postings``' lock."""

    __slots__ = ("option", "_conn", "_memo")

    def __init__(self, option: str) -> None:
        self.option = option
        self._conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        quoted = "'" + option.replace("'", "''") + "'"
        self._conn.execute(f"CREATE VIRTUAL TABLE phrase USING fts5(text, tokenize = {quoted})")
        self._conn.execute("CREATE VIRTUAL TABLE phrase_tokens USING fts5vocab(phrase, instance)")
        self._memo: dict[str, tuple[str, ...]] = {}

    def tokens(self, phrase: str) -> tuple[str, ...]:
        """The tokens of a quoted FTS5 phrase (``"a b"``, ``""`` doubling a quote), in order."""
        found = self._memo.get(phrase)
        if found is None:
            text = phrase[1:-1].replace('""', '"') if len(phrase) >= 2 and phrase[0] == phrase[-1] == '"' else phrase
            self._conn.execute("INSERT INTO phrase (rowid, text) VALUES (1, ?)", (text,))
            found = tuple(row[0] for row in self._conn.execute("SELECT term FROM phrase_tokens ORDER BY offset"))
            self._conn.execute("DELETE FROM phrase")
            if len(self._memo) >= MEMO:
                self._memo.clear()
            self._memo[phrase] = found
        return found


def empty_table(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> sqlite3.Connection:
    """A private in-memory database holding an empty FTS5 table ``table`` with ``columns`` and
    the real table's ``tokenize`` option: FTS5 parses a MATCH expression there as it would on
    the store (same columns, same errors) without reading an index. One per shape, kept."""
    option = _option(conn, table) or DEFAULT_OPTION
    key = (table, columns, option)
    empty = _EMPTY.get(key)
    if empty is None:
        empty = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        quoted = "'" + option.replace("'", "''") + "'"
        empty.execute(f"CREATE VIRTUAL TABLE {table} USING fts5({', '.join(columns)}, tokenize = {quoted})")
        _EMPTY[key] = empty
    return empty


def _option(conn: sqlite3.Connection, table: str) -> str | None:
    """The ``tokenize`` option of FTS5 table ``table`` (FTS5's default when it has none); None
    when the table is not there."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    if row is None or "fts5" not in str(row[0]).lower():
        return None
    found = _TOKENIZE.search(row[0])
    return found.group(1).replace("''", "'") if found else DEFAULT_OPTION


def of_table(conn: sqlite3.Connection, table: str) -> Tokenizer | None:
    """The tokenizer of FTS5 table ``table`` (its ``tokenize`` option, FTS5's default when it
    has none); None when the table is not there."""
    option = _option(conn, table)
    if option is None:
        return None
    tokenizer = _TOKENIZERS.get(option)
    if tokenizer is None:
        tokenizer = _TOKENIZERS[option] = Tokenizer(option)
    return tokenizer
