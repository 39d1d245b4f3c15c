"""Exact top-k of a disjunction of phrases from per-phrase impact lists kept in memory.

FTS5's ``bm25()`` scores a row of ``"a" OR "b" …`` as ``((0.0 + c_a) + c_b) + …`` where
``c_p = idf(p) × tf-part(p, row)`` depends on the phrase, the row and the whole table only, and
a phrase the row does not hold adds ``0.0`` (see ``fts_topk``). A one-phrase query returns
``-c_p`` for every row holding ``p``, bit for bit. So a phrase's *impact list* — every row
holding it with its ``c_p``, read once with ``SELECT rowid, bm25(…) … MATCH '"p"'`` — gives
the score of any disjunction of cached phrases, exactly as FTS5 computes it: the scoring
function is FTS5's own, and the top ``k`` (ties to the lower rowid) is the plain query's.

A query then costs what its phrases' lists hold, never a statement once they are read: the
lists are summed by ``impact_sum`` (numpy for long lists, a pure-Python MaxScore for
short ones), in the phrases' own order, so the float sums are FTS5's.

The lists live per process, per store file and ranking expression, keyed by the tokens FTS5
makes of the phrase (``fts_tokens``: ``"increased"`` and ``"increases"`` share ``increas``'s
list), and are dropped when the store's write counter (``store_version``, see ``version.py``)
or the table's averages record moves; nothing is persisted (the store does not grow). A
phrase's list is read the first time it is asked (one statement scoring its rows: about what
the plain query spends on them), unless :func:`warm` read it before: a server starts it to
read, in a background thread, the lists of the store's most common words (the long lists,
the costly ones to read on demand), and again after each move of the store. Only processes
that called :func:`enable` keep lists: the MCP and web servers; a one-shot CLI search runs
``fts_topk`` as before. At most :data:`MAX_POSTINGS` postings are kept (16 bytes each), the
least recently used dropped first.
"""

from __future__ import annotations

import sqlite3
from array import array

from kenning.store import fts_tokens, impact_sum
from kenning.store.db import store_file
from kenning.store.fts_tokens import Tokenizer
from kenning.store.impact_sum import Posting

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

MAX_POSTINGS = 8_000_000  # postings kept per process, all stores together (16 bytes each: 128 MB)
WARM_POSTINGS = 5_000_000  # postings a warm-up reads at most (80 MB), within MAX_POSTINGS
# Rows a word's list holds at least to be read by a warm-up: one of 100 to 500 rows reads in 0.3-1.5 ms,
# and a long question asks several (bench/warm_from.py, SciFact x10: first asking p95 5.1-5.7 ms from 100,
# 6.7-7.1 from 500, +0.6 M postings; docs/benchmarks.md, thirteenth session of issue 19).
WARM_FROM = 100
MAX_PHRASES = 24  # more phrases: the caller's path
USE_NUMPY = True  # sum long lists in numpy (the bench turns it off to compare)


class _Cache:
    """The lists of one store file and ranking expression, valid for one ``state``, by the
    tokens of their phrase."""

    __slots__ = ("state", "lists", "tokenizer")

    def __init__(self, state: tuple[object, ...], tokenizer: Tokenizer) -> None:
        self.state = state
        self.lists: dict[tuple[str, ...], Posting] = {}  # least recently used first
        self.tokenizer = tokenizer

    def key(self, phrase: str) -> tuple[str, ...]:
        """What a phrase's list is kept under: its tokens (the phrase itself when it has none)."""
        return self.tokenizer.tokens(phrase) or (phrase,)  # no token holds a quote


_CACHES: dict[tuple[str, str, str], _Cache] = {}
_LOCK: Any = None  # set by enable(); the servers answer from several threads
_HELD = [0]  # postings held by every cache together


def enable(on: bool = True) -> None:
    """Let this process keep impact lists: long-lived servers (MCP, web) call it; a one-shot
    command leaves it off (a list read once costs more than the query it serves)."""
    global _LOCK
    if not on:
        clear()
        _LOCK = None
    elif _LOCK is None:
        import threading  # start-up time: only the servers pay for it

        _LOCK = threading.Lock()


def enabled() -> bool:
    """Whether this process keeps impact lists (a server: :func:`enable`)."""
    return _LOCK is not None


def best(
    conn: sqlite3.Connection, table: str, scoring: str, phrases: tuple[str, ...], k: int
) -> list[tuple[int, float]] | None:
    """``(rowid, score)`` of the best ``k`` rows of ``<table> MATCH "p1" OR "p2" …`` exactly as
    ``SELECT rowid, <scoring> AS s … ORDER BY s, rowid LIMIT k`` returns them (FTS5 scores:
    lower is better); None when the lists cannot serve (the caller runs the query).
    ``scoring`` must be ``bm25()`` with non-negative column weights (``fts_topk.bounded``)."""
    lock = _LOCK
    if lock is None or k < 1 or not phrases or len(phrases) > MAX_PHRASES or conn.in_transaction:
        return None
    with lock:
        cache = _cache(conn, table, scoring)
        if cache is None:
            return None
        lists, read = _lists(conn, cache, table, scoring, phrases)
        if read and _state(conn, table) != cache.state:
            # A write landed between the state read above and a list read: that list is the
            # new store's, the others the old one's. Drop them all; the caller runs the query.
            _renew(conn, (store_file(conn), table, scoring), cache.state)
            return None
        return top_k(lists, k)


def held_docs(
    conn: sqlite3.Connection, table: str, phrases: tuple[str, ...]
) -> tuple[tuple[object, ...], list[array[int]]] | None:
    """The store's key and state, and the rows of each phrase's list (rowid order), when this
    process keeps lists and holds every one of them at the store's state (any ranking expression:
    the rows are the same); None otherwise. A list is never changed once read: the rows may be
    read after the lock is let go (``match_counts``)."""
    lock = _LOCK
    if lock is None or not phrases or len(phrases) > MAX_PHRASES or conn.in_transaction:
        return None
    with lock:
        path = store_file(conn)
        state = _state(conn, table)
        for (held_path, held_table, _), cache in _CACHES.items():
            if held_path != path or held_table != table or cache.state != state:
                continue
            lists = [cache.lists.get(cache.key(p)) for p in phrases]
            if all(p is not None for p in lists):
                return (path, table, *state), [p.docs for p in lists if p is not None]
    return None


def top_k(lists: list[Posting], k: int) -> list[tuple[int, float]]:
    """The best ``k`` rows of the sum of ``lists`` (``impact_sum.top_k``; numpy when ``USE_NUMPY``)."""
    return impact_sum.top_k(lists, k, use_numpy=USE_NUMPY)


def _cache(conn: sqlite3.Connection, table: str, scoring: str) -> _Cache | None:
    """This store's lists for ``scoring``, emptied when the store moved; None for a store
    without a file (nothing to key the lists on)."""
    path = store_file(conn)
    if not path:
        return None
    state = _state(conn, table)
    key = (path, table, scoring)
    cache = _CACHES.get(key)
    if cache is None or cache.state != state:
        cache = _renew(conn, key, state)
        if cache is not None and key in _WARM:
            _start_warm(key)  # the store moved: read its common words' lists again
    return cache


def store_key(conn: sqlite3.Connection, table: str) -> tuple[object, ...] | None:
    """What an answer read from ``table`` depends on: the store's file, its write counter and the
    table's averages record (a store rebuilt in place starts its counter again); None for a
    store without a file (nothing to key on)."""
    path = store_file(conn)
    return (path, table, *_state(conn, table)) if path else None


def _state(conn: sqlite3.Connection, table: str) -> tuple[object, ...]:
    """What the lists depend on: the store's write counter and the table's averages record."""
    return tuple(
        conn.execute(
            f"SELECT (SELECT version FROM store_version WHERE id = 1), (SELECT block FROM {table}_data WHERE id = 1)"
        ).fetchone()
    )


def _renew(conn: sqlite3.Connection, key: tuple[str, str, str], state: tuple[object, ...]) -> _Cache | None:
    """An empty cache for ``key`` at ``state``, replacing the one before (caller holds the lock)."""
    tokenizer = fts_tokens.of_table(conn, key[1])
    old = _CACHES.pop(key, None)
    if old is not None:
        _HELD[0] -= sum(len(p) for p in old.lists.values())
    if tokenizer is None:
        return None
    cache = _CACHES[key] = _Cache(state, tokenizer)
    return cache


def _lists(
    conn: sqlite3.Connection, cache: _Cache, table: str, scoring: str, phrases: tuple[str, ...]
) -> tuple[list[Posting], bool]:
    """The lists of ``phrases`` (repeats kept), and whether any had to be read from the store."""
    keys = [cache.key(p) for p in phrases]
    read = False
    found: dict[tuple[str, ...], Posting] = {}
    for key in dict.fromkeys(keys):
        posting = cache.lists.pop(key, None)
        if posting is not None:
            cache.lists[key] = found[key] = posting  # moved to the most recently used end
    for phrase, key in zip(phrases, keys, strict=True):
        if key not in found:  # read once: about what scoring its rows in the query costs
            found[key] = _read(conn, table, scoring, phrase)
            _store(cache, key, found[key])
            read = True
    return [found[k] for k in keys], read


def _store(cache: _Cache, key: tuple[str, ...], posting: Posting) -> None:
    cache.lists[key] = posting
    _HELD[0] += len(posting)
    while _HELD[0] > MAX_POSTINGS:
        oldest = min((c for c in _CACHES.values() if c.lists), key=lambda c: c is cache)  # others first
        dropped = oldest.lists.pop(next(iter(oldest.lists)))
        _HELD[0] -= len(dropped)
        if dropped is posting:
            break


def clear() -> None:
    """Forget every list, and stop reading lists in the background (tests, benchmarks)."""
    lock = _LOCK
    if lock is None:
        _forget()
        return
    with lock:
        _forget()


def _forget() -> None:
    _CACHES.clear()
    _WARM.clear()
    _HELD[0] = 0


def cached_postings() -> int:
    """Postings held by this process."""
    return _HELD[0]


def _read(conn: sqlite3.Connection, table: str, scoring: str, phrase: str) -> Posting:
    docs: array[int] = array("q")
    impacts: array[float] = array("d")
    sql = f"SELECT rowid, {scoring} FROM {table} WHERE {table} MATCH ? ORDER BY rowid"  # FTS5's own order
    for doc, score in conn.execute(sql, (phrase,)):
        docs.append(doc)
        impacts.append(-score)
    return Posting(docs, impacts)


class Warm:
    """A warm-up of one store's lists: what it reads, and what its last pass did."""

    __slots__ = ("skip", "budget", "from_rows", "running", "again", "passes", "lists", "postings", "seconds", "done")

    def __init__(self, skip: tuple[str, ...], budget: int, from_rows: int) -> None:
        self.skip, self.budget, self.from_rows = skip, budget, from_rows
        self.running = self.again = False
        self.passes = self.lists = self.postings = 0
        self.seconds = 0.0
        self.done: Any = None  # threading.Event: set when no pass is running


_WARM: dict[tuple[str, str, str], Warm] = {}


def warm(
    path: str,
    table: str,
    scoring: str,
    *,
    skip: tuple[str, ...] = (),
    budget: int | None = None,
    from_rows: int | None = None,
) -> Warm | None:
    """Read, in a background thread, the lists of the words of ``table`` found in at least
    ``from_rows`` rows (:data:`WARM_FROM`), most common first, up to ``budget`` postings
    (:data:`WARM_POSTINGS`; never past
    :data:`MAX_POSTINGS`, never dropping a list asked for); again each time the store moves.
    Words whose tokens are those of a ``skip`` word (stop words: never asked) are left out.

    A question asked meanwhile is answered as without it: a list enters the cache whole,
    read in one read transaction at the cache's state, and a question reads what it lacks
    itself. None when this process keeps no lists or ``path`` is not a readable store."""
    lock = _LOCK
    if lock is None:
        return None
    try:
        conn = _read_only(path)
    except sqlite3.Error:
        return None
    try:
        key = (store_file(conn), table, scoring)
    finally:
        conn.close()
    with lock:
        task = _WARM[key] = Warm(
            skip, WARM_POSTINGS if budget is None else budget, WARM_FROM if from_rows is None else from_rows
        )
        _start_warm(key)
    return task


def _start_warm(key: tuple[str, str, str]) -> None:
    """Start the warm-up thread of ``key``, or have the running one pass again (caller holds the lock)."""
    task = _WARM[key]
    if task.running:
        task.again = True
        return
    import threading  # start-up time: only the servers pay for it

    task.running, task.again = True, False
    task.done = threading.Event()
    args = (key, task, _LOCK)
    threading.Thread(target=_warm_loop, args=args, name="kenning-warm-lists", daemon=True).start()


def _warm_loop(key: tuple[str, str, str], task: Warm, lock: Any) -> None:
    import time

    try:
        while True:
            started = time.perf_counter()
            try:
                lists, held = _warm_pass(key, task, lock)
            except sqlite3.Error:  # the store went away or cannot be read: questions read on demand
                lists, held = 0, 0
            with lock:
                task.passes += 1
                task.lists, task.postings, task.seconds = lists, held, time.perf_counter() - started
                if not task.again or _WARM.get(key) is not task:
                    task.running = False
                    task.done.set()
                    return
                task.again = False
    except BaseException:
        task.running = False
        task.done.set()
        raise


def _warm_pass(key: tuple[str, str, str], task: Warm, lock: Any) -> tuple[int, int]:
    """One pass: ``(lists, postings)`` read. It stops when the store moves (the next
    question, or this thread's next pass, starts over at the new state), or when the lists
    were forgotten (:func:`clear`, ``enable(False)``)."""
    path, table, scoring = key
    conn = _read_only(path)
    try:
        conn.execute(f"CREATE VIRTUAL TABLE temp.warm_vocab USING fts5vocab(main, {table}, row)")
        conn.execute("BEGIN")
        state = _state(conn, table)
        words = conn.execute(
            "SELECT term, doc FROM temp.warm_vocab WHERE doc >= ? ORDER BY doc DESC, term", (task.from_rows,)
        ).fetchall()
        conn.execute("COMMIT")
        with lock:
            if _WARM.get(key) is not task:
                return 0, 0
            cache = _CACHES.get(key)
            if cache is None or cache.state != state:
                cache = _renew(conn, key, state)
                if cache is None:
                    return 0, 0
            skip = {cache.key(_quote(w)) for w in task.skip}
        lists = added = 0
        for word, rows in words:
            if added + rows > task.budget:
                continue
            with lock:
                cache = _CACHES.get(key)
                if _WARM.get(key) is not task or cache is None or cache.state != state:
                    return lists, added
                word_key = (word,)
                # a stem the porter stemmer changes again (``becaus``): read through a word giving it back
                phrase = _quote(word) if cache.key(_quote(word)) == word_key else _surface(cache, word)
                if phrase is None or word_key in skip:
                    continue
                held = cache.lists.get(word_key)  # asked already: counted, kept
                if held is None and _HELD[0] + rows > MAX_POSTINGS:
                    continue
            if held is None:
                conn.execute("BEGIN")  # the state and the list from one snapshot
                try:
                    if _state(conn, table) != state:
                        return lists, added
                    held = _read(conn, table, scoring, phrase)
                finally:
                    conn.execute("COMMIT")
                with lock:
                    cache = _CACHES.get(key)
                    if _WARM.get(key) is not task or cache is None or cache.state != state:
                        return lists, added
                    if word_key in cache.lists or _HELD[0] + len(held) > MAX_POSTINGS:
                        continue
                    _store(cache, word_key, held)
            lists, added = lists + 1, added + len(held)
        return lists, added
    finally:
        conn.close()


# Endings a stem the porter stemmer changes again may have lost (``becaus`` of ``because``,
# ``increas`` of ``increased``, ``databas``, ``respons``): on Django and SciFact every such word
# of 100 rows or more gets its own token back from one of them.
_ENDINGS = ("e", "s", "es", "ed", "ing", "y", "al", "ion", "ate", "ic", "ive", "ous", "ent", "ant", "er", "ize")


def _surface(cache: _Cache, word: str) -> str | None:
    """A phrase whose one token is ``word`` (a stem of the index that the porter stemmer
    changes again: ``"becaus"`` is searched as ``becau``): ``word`` and an ending it lost; None
    when none gives it back (its list is read when asked). Caller holds the lock."""
    for ending in _ENDINGS:
        phrase = _quote(word + ending)
        if cache.key(phrase) == (word,):
            return phrase
    return None


def _read_only(path: str) -> sqlite3.Connection:
    from pathlib import Path  # start-up time: only the servers warm lists

    # resolved: a project opened by a relative root (a server started with `--project .`) has a relative
    # store path, which a file: URI cannot express
    uri = Path(path).resolve().as_uri()
    return sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)


def _quote(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'
