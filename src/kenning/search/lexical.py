"""Level-0 retrieval: FTS5 BM25 over words, a trigram index over titles, identifiers and
paths, fused with reciprocal rank fusion when both speak."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from kenning.errors import InvalidQuery
from kenning.search import topk
from kenning.search.query import CODE_NAME, IDENTIFIER_HINT, ParsedQuery, quote_term as _quote

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

OVERFETCH = 3  # FTS page size as a multiple of the hits wanted, before filtering
# Column weights of the word index (title, keywords, path, body), the same as the table's
# default rank (migration 0005). Calling bm25() with them is about a third faster than
# ORDER BY rank, whose plan re-reads every returned row.
WEIGHTS = (2.0, 1.5, 1.2, 1.0)
_BM25 = f"bm25(facts_fts, {', '.join(map(str, WEIGHTS))})"
_TRIGRAM_BM25 = "bm25(facts_trigram, 4.0, 3.0, 1.0)"  # title, keywords, path


@dataclass(frozen=True)
class Hit:
    """A ranked fact id, with where its score came from."""

    fact_id: int
    score: float
    explain: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Filters:
    """What a search may serve: types, lifecycles, path prefix, memory type."""

    types: tuple[str, ...] = ()
    lifecycles: tuple[str, ...] = ("active",)
    path_prefix: str | None = None
    memory_type: str | None = None

    def sql(self, alias: str = "f") -> tuple[str, list[Any]]:
        clauses = [f"{alias}.lifecycle IN ({','.join('?' * len(self.lifecycles))})"]
        params: list[Any] = list(self.lifecycles)
        if self.types:
            clauses.append(f"{alias}.type IN ({','.join('?' * len(self.types))})")
            params.extend(self.types)
        if self.path_prefix:
            clauses.append(f"substr({alias}.source_uri, 1, ?) = ?")
            params.extend([len(self.path_prefix), self.path_prefix])
        if self.memory_type:
            clauses.append(f"{alias}.memory_type = ?")
            params.append(self.memory_type)
        return " AND ".join(clauses), params


def bm25(conn: sqlite3.Connection, match: str, filters: Filters, limit: int) -> list[tuple[int, float]]:
    """Best ``limit`` facts by weighted BM25 among those passing ``filters``. Ties break on
    the lower id."""
    try:
        return _best_passing(conn, topk.Index("facts_fts", _BM25), match, filters, limit)
    except sqlite3.OperationalError as exc:
        raise InvalidQuery(f"invalid search syntax: {_fts_message(exc)}", hint=_SYNTAX_HINT) from exc


def trigram(conn: sqlite3.Connection, match: str, filters: Filters, limit: int) -> list[tuple[int, float]]:
    return _best_passing(conn, topk.Index("facts_trigram", _TRIGRAM_BM25), match, filters, limit)


def _best_passing(conn: sqlite3.Connection, index: topk.Index, match: str, filters: Filters,
                  limit: int) -> list[tuple[int, float]]:
    """Fast path: rank in the FTS table alone (the best ``limit`` first, then a page
    over-fetched ``OVERFETCH`` times), then filter; when filters removed too many from a full
    page, run the exact joined query.

    ``topk.best`` returns the first rows of the full ranking, at least ``limit`` of them (or
    all); the first ``limit`` passing among them are the first ``limit`` passing of the page.
    """
    page = limit * OVERFETCH
    ranked = topk.best(conn, index, match, limit, spare=page)
    kept = _passing(conn, [r[0] for r in ranked], filters)
    hits = [(r[0], -r[1]) for r in ranked if r[0] in kept]
    if len(hits) >= limit or len(ranked) < limit:
        return hits[:limit]
    if len(ranked) == limit < page:  # only the best `limit` were ranked: rank a page
        ranked = topk.best(conn, index, match, page)
        kept = _passing(conn, [r[0] for r in ranked], filters)
        hits = [(r[0], -r[1]) for r in ranked if r[0] in kept]
    if len(hits) >= limit or len(ranked) < page:
        return hits[:limit]
    where, params = filters.sql()
    rows = conn.execute(
        f"SELECT f.id, {index.scoring} AS s FROM {index.table} JOIN facts f ON f.id = {index.table}.rowid "
        f"WHERE {index.table} MATCH ? AND {where} ORDER BY s, f.id LIMIT ?",
        (match, *params, limit),
    ).fetchall()
    return [(row[0], -row[1]) for row in rows]


def _passing(conn: sqlite3.Connection, ids: list[int], filters: Filters) -> set[int]:
    if not ids:
        return set()
    where, params = filters.sql()
    marks = ",".join("?" * len(ids))
    return {row[0] for row in conn.execute(f"SELECT f.id FROM facts f NOT INDEXED WHERE f.id IN ({marks}) AND {where}",
                                           (*ids, *params))}


def search(conn: sqlite3.Connection, query: ParsedQuery, filters: Filters, limit: int) -> list[Hit]:
    """Ranked hits, best first.

    The word index (BM25) ranks. The trigram index joins in two cases only:
    - the query holds code names (``snake_case``, ``camelCase``) or identifier-like terms
      the word index cannot match at all (``rrf_fu``): a trigram search over those terms
      alone is fused with the words by RRF;
    - the word index finds fewer than ``limit`` hits: trigram hits over every term follow
      the word hits, to fill the list.
    Fusing a trigram search over every term whenever a query looked identifier-like
    (``IL-6``, ``p53``) let title substrings outrank real word matches: SciFact train
    nDCG@10 0.586 with it, 0.691 without (docs/evaluation.md).
    """
    words = bm25(conn, query.fts, filters, limit) if query.fts else []
    names = _substring_terms(conn, query)
    substrings = " OR ".join(_quote(t) for t in names) if names else None
    if substrings:
        subs = trigram(conn, substrings, filters, limit)
        if subs and words:
            from kenning.search.fusion import rrf_fuse  # only code-name queries fuse (start-up time)

            fused = rrf_fuse({"bm25": [i for i, _ in words], "trigram": [i for i, _ in subs]})
            return [Hit(item.key, item.score, item.explain) for item in fused[:limit]]
        if subs:
            return [Hit(i, s, {"trigram": round(s, 4), "trigram_rank": r}) for r, (i, s) in enumerate(subs, 1)]
    hits = [Hit(i, s, {"bm25": round(s, 4), "bm25_rank": r}) for r, (i, s) in enumerate(words, 1)]
    if len(hits) < limit and query.trigram:
        seen = {h.fact_id for h in hits}
        extra = [(i, s) for i, s in trigram(conn, query.trigram, filters, limit) if i not in seen]
        floor = min((h.score for h in hits), default=1.0)
        hits += [
            Hit(i, floor / (2 + r), {"trigram": round(s, 4), "trigram_rank": r, "after_words": True})
            for r, (i, s) in enumerate(extra[: limit - len(hits)], 1)
        ]
    return hits


def _substring_terms(conn: sqlite3.Connection, query: ParsedQuery) -> list[str]:
    """Terms (3+ characters) worth a trigram search: code names (``snake_case``,
    ``camelCase``), and other identifier-like terms (``p53``, ``v2-beta``, ``a/b``) only
    when the word index cannot match them at all."""
    if query.syntax != "natural":
        return []
    chosen = []
    for term in query.original_terms:
        if len(term) < 3 or not IDENTIFIER_HINT.search(term):
            continue
        if CODE_NAME.search(term):
            chosen.append(term.lower())
            continue
        found = conn.execute("SELECT 1 FROM facts_fts WHERE facts_fts MATCH ? LIMIT 1", (_quote(term),)).fetchone()
        if found is None:
            chosen.append(term.lower())
    return list(dict.fromkeys(chosen))


def count_matches(conn: sqlite3.Connection, query: ParsedQuery, filters: Filters) -> int:
    """How many facts match under these filters (used to explain an empty answer)."""
    total = 0
    where, params = filters.sql()
    if query.fts:
        total = conn.execute(
            "SELECT count(*) FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid "
            f"WHERE facts_fts MATCH ? AND {where}",
            (query.fts, *params),
        ).fetchone()[0]
    if not total and query.trigram:
        total = conn.execute(
            "SELECT count(*) FROM facts_trigram JOIN facts f ON f.id = facts_trigram.rowid "
            f"WHERE facts_trigram MATCH ? AND {where}",
            (query.trigram, *params),
        ).fetchone()[0]
    return int(total)


_SYNTAX_HINT = 'FTS syntax: terms, "phrases", prefix*, AND / OR / NOT, parentheses; or drop --syntax fts'


def _fts_message(exc: sqlite3.OperationalError) -> str:
    text = str(exc)
    return text.removeprefix("fts5: ")
