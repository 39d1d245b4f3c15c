"""Level-0 retrieval: FTS5 BM25 over words, a trigram index over titles, identifiers and
paths, fused with reciprocal rank fusion when both speak. The candidate rows come from
``store.fts``; the choice of indexes, weights and fusion is made here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from kenning.search import prefix
from kenning.search.query import (
    CODE_NAME,
    IDENTIFIER_HINT,
    ParsedQuery,
    dotted_terms,
    humped_names,
    slashed_words,
    split_choices,
)
from kenning.search.query import quote_term as _quote
from kenning.search.stop_words import ENGLISH_STOP_WORDS
from kenning.store import fts, graph, graph_lookup, lookups, postings
from kenning.store.fts import Filters
from kenning.store.handle import Connection

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

# Column weights of the word index (title, keywords, path, body), the same as the table's
# default rank (migration 0005). Calling bm25() with them is about a third faster than
# ORDER BY rank, whose plan re-reads every returned row.
WEIGHTS = (2.0, 1.5, 1.2, 1.0)
# Depth of each list fused by RRF, whatever the limit: the fused ranking, hence the answer's
# order, does not depend on --limit (up to this many; the CLI allows 100).
FUSION_DEPTH = 100


@dataclass(frozen=True)
class Hit:
    """A ranked fact id, with where its score came from. ``tier`` 1 marks trigram hits that
    follow every word hit (they rank after all of them, whatever their score)."""

    fact_id: int
    score: float
    explain: dict[str, Any] = field(default_factory=dict)
    tier: int = 0


@dataclass(frozen=True)
class Ranking:
    """The first hits of a query's full ranking, best first; ``complete`` when they are all
    of it. The full ranking never depends on how many hits were asked for, so the first ``n``
    hits asked with any depth ``>= n`` are the same."""

    hits: list[Hit]
    complete: bool


def bm25(conn: Connection, match: str, filters: Filters, limit: int) -> list[tuple[int, float]]:
    """Best ``limit`` facts by weighted BM25 among those passing ``filters``. Ties break on
    the lower id."""
    return fts.words(conn, match, filters, limit, WEIGHTS)


def keep_word_lists() -> None:
    """For long-lived processes (the MCP and web servers): rank plain word queries from
    impact lists kept in memory (``store/postings.py``: the same hits, scores and order as
    FTS5, without a statement once the words were asked)."""
    postings.enable()


def warm_word_lists(db_path: Path) -> postings.Warm | None:
    """After :func:`keep_word_lists`: read the lists of the store's most common words in a
    background thread (again after each move of the store), so that a question seldom
    reads a long list itself. English stop words are left out (a question drops them).
    None when the store is not there (a first sync, a project served by PostgreSQL)."""
    if not db_path.is_file():
        return None
    index = fts.word_index(WEIGHTS)
    return postings.warm(str(db_path), index.table, index.scoring, skip=tuple(sorted(ENGLISH_STOP_WORDS)))


def trigram(conn: Connection, match: str, filters: Filters, limit: int) -> list[tuple[int, float]]:
    return fts.trigrams(conn, match, filters, limit)


def search(conn: Connection, query: ParsedQuery, filters: Filters, limit: int) -> list[Hit]:
    """The best ``limit`` hits of :func:`ranking`."""
    return ranking(conn, query, filters, limit).hits[:limit]


def ranking(conn: Connection, query: ParsedQuery, filters: Filters, depth: int) -> Ranking:
    """The first ``depth`` hits (or more) of the query's full ranking.

    The word index (BM25) ranks. The trigram index joins in two cases only:
    - the query holds code names (``snake_case``, ``camelCase``) or identifier-like terms
      the word index cannot match at all (``rrf_fu``): a trigram search over those terms
      alone is fused with the words by RRF, both lists cut at ``FUSION_DEPTH`` whatever the
      depth asked (the fused list is then the whole ranking);
    - after the last word hit, trigram hits over every term follow (tier 1), to fill a list
      the words cannot.
    Neither when the query requires quoted text (``query.quoted``): the word hits alone hold it.
    A pasted error message's phrases (``query.pasted``, ``search.pasted``) are a list of their own,
    fused by RRF with the words' and, with code names, the trigrams' (``_with_pasted``).
    Fusing a trigram search over every term whenever a query looked identifier-like
    (``IL-6``, ``p53``) let title substrings outrank real word matches: SciFact train
    nDCG@10 0.586 with it, 0.691 without (docs/evaluation.md).
    """
    if query.quoted:  # only word hits hold the quoted phrases (search/quoted.py)
        words = bm25(conn, query.fts, filters, depth) if query.fts else []
        return Ranking(_word_hits(words), len(words) < depth)
    names = _substring_terms(conn, query)
    substrings = " OR ".join(_quote(t) for t in names) if names else None
    if query.pasted and query.fts:
        return _with_pasted(conn, query, filters, max(FUSION_DEPTH, depth), substrings)
    if substrings:
        fused_depth = max(FUSION_DEPTH, depth)
        words = bm25(conn, query.fts, filters, fused_depth) if query.fts else []
        subs = trigram(conn, substrings, filters, fused_depth if words else depth)
        if subs and words:
            from kenning.search.fusion import rrf_fuse  # only code-name queries fuse (start-up time)

            fused = rrf_fuse({"bm25": [i for i, _ in words], "trigram": [i for i, _ in subs]})
            return Ranking([Hit(item.key, item.score, item.explain) for item in fused], True)
        if subs:
            hits = [Hit(i, s, {"trigram": round(s, 4), "trigram_rank": r}) for r, (i, s) in enumerate(subs, 1)]
            return Ranking(hits, len(subs) < depth)
        words = words[:depth]
    else:
        words = bm25(conn, query.fts, filters, depth) if query.fts else []
    hits = _word_hits(words)
    if len(words) >= depth:
        return Ranking(hits, False)
    if not query.trigram:
        return Ranking(hits, True)
    seen = {h.fact_id for h in hits}
    wanted = depth - len(hits)
    found = trigram(conn, query.trigram, filters, wanted + len(seen))
    extra = [(i, s) for i, s in found if i not in seen]
    floor = min((h.score for h in hits), default=1.0)
    hits += [
        Hit(i, floor / (2 + r), {"trigram": round(s, 4), "trigram_rank": r, "after_words": True}, tier=1)
        for r, (i, s) in enumerate(extra, 1)
    ]
    return Ranking(hits, len(found) < wanted + len(seen))


def _with_pasted(conn: Connection, query: ParsedQuery, filters: Filters, depth: int, substrings: str | None) -> Ranking:
    """A pasted error message's ranking: the words, the excerpts holding its runs of fixed words
    (``query.pasted``, phrases, ranked among themselves by BM25) and, when the question holds code
    names, the trigram hits, fused by RRF, each list cut at ``depth`` (the fused list is the whole
    ranking). An excerpt that gives the message and says the question's words comes first; one the
    words or a code name alone rank (zod's ``ZodTransform`` type, its name a value the program
    printed) after it (search/pasted.py)."""
    from kenning.search.fusion import rrf_fuse

    assert query.fts is not None  # the caller's check
    lists = {
        "bm25": [i for i, _ in bm25(conn, query.fts, filters, depth)],
        "phrase": [i for i, _ in bm25(conn, " OR ".join(map(_quote, query.pasted)), filters, depth)],
    }
    if substrings:
        lists["trigram"] = [i for i, _ in trigram(conn, substrings, filters, depth)]
    fused = rrf_fuse(lists)
    return Ranking([Hit(item.key, item.score, item.explain) for item in fused], True)


def _word_hits(words: list[tuple[int, float]]) -> list[Hit]:
    return [Hit(i, s, {"bm25": round(s, 4), "bm25_rank": r}) for r, (i, s) in enumerate(words, 1)]


def _substring_terms(conn: Connection, query: ParsedQuery) -> list[str]:
    """Terms (3+ characters) worth a trigram search: code names (``snake_case``,
    ``camelCase``), and other identifier-like terms (``p53``, ``v2-beta``, ``a/b``) only
    when the word index cannot match them at all; never the words of ``loose_names``, which
    are words (``AsciiDoc``, ``GitHub``; a choice, ``bash/zsh``)."""
    if query.syntax != "natural":
        return []
    chosen = []
    loose = loose_names(conn, query)
    for term in query.original_terms:
        if len(term) < 3 or not IDENTIFIER_HINT.search(term) or term in loose:
            continue
        if CODE_NAME.search(term) or not fts.words_match(conn, _quote(term)):
            chosen.append(term.lower())
    return list(dict.fromkeys(chosen))


# A camelCase word no symbol is named is the project's vocabulary when this share of its excerpts hold
# it (asciidoctor's "AsciiDoc" 8 %, black's "GitHub" 14 %; gson's "IllegalArgumentException" 1.6 %,
# "ClassCastException" 0.4 %), and at least this many (a small store).
LOOSE_SHARE = 0.05
LOOSE_MIN = 5


def loose_names(conn: Connection, query: ParsedQuery) -> frozenset[str]:
    """The camelCase and PascalCase words of ``query`` (``query.humped_names``) that no symbol of
    the project's graph is named, as typed, and that ``LOOSE_SHARE`` of its excerpts or more hold
    as a word: the project's own vocabulary, product names (``AsciiDoc`` in asciidoctor,
    ``GitHub`` in black's docs and commits), read as words, not code names. Their trigram search
    matched every title and path holding them (a fifth of asciidoctor's), fused with the words'
    ranking: "convert an AsciiDoc string to HTML with the Ruby API" served its Chinese readme's
    sponsors before the page (walked, docs/benchmarks.md "zodgin"). A name from elsewhere that
    a few excerpts hold (``ClassCastException`` in gson: 26 of 6,386) stays a code name. None
    without a graph: nothing tells them apart then. Read once a question: ``with_loose_names``
    keeps them on the query, and the router, the ranker and each deepening of the ranking read them
    there.

    So are words joined by slashes (``query.slashed_words``: ``bash/zsh``, ``small/medium/large``)
    that name no path (``_names_a_path``): a choice between words. fzf's "the ** trigger
    for fuzzy completion in bash/zsh" went to the identifier rule and searched the phrase ``bash
    zsh``: the section "Customizing fuzzy completion for bash and zsh" was not in the first five
    (docs/benchmarks.md, "choices").

    So are dotted names and file names (``query.dotted_terms``) that no excerpt holds, as words or
    in its path: a value of the asker's example. Sinatra's "make the browser save what my route
    returns as a file called report.csv" went to the identifier rule, lexical at every level, where
    the question without the file's name answers hybrid at level 1 (its "Attachments" section
    second; docs/benchmarks.md, "cppmacros")."""
    if query.loose_names is not None:
        return query.loose_names
    choices = frozenset(w for w in slashed_words(query) if not _names_a_path(conn, w))
    choices |= {name for name in dotted_terms(query) if not _held(conn, name)}
    humped = humped_names(query)
    if not humped or not graph.has_nodes(conn):
        return choices
    named = graph_lookup.symbol_names(conn, humped)
    common = max(LOOSE_MIN, math.ceil(fts.word_rows(conn) * LOOSE_SHARE))
    return choices | {t for t in humped if t not in named and fts.words_held(conn, _quote(t), common) >= common}


def _held(conn: Connection, dotted: str) -> bool:
    """Whether an excerpt holds a dotted name as words (``report.csv``: ``report`` then ``csv``) or in its path."""
    return fts.words_match(conn, _quote(dotted)) or lookups.path_holds(conn, dotted)


def _names_a_path(conn: Connection, slashed: str) -> bool:
    """Whether words joined by slashes name a path of the project: a path holds them as typed
    (``docs/api``), or each of them names a folder (``zod/mini``, a package's subpath that zod
    keeps in ``packages/zod/`` and ``src/v4/mini/``)."""
    if lookups.path_holds(conn, slashed):
        return True
    return all(lookups.path_holds(conn, f"{word}/") for word in slashed.split("/"))


def with_loose_names(conn: Connection, query: ParsedQuery) -> ParsedQuery:
    """``query`` holding its ``loose_names``, read against this store (as they are, when it does),
    its choices between words (``bash/zsh``) searched as any of them (``query.split_choices``)."""
    if query.loose_names is not None:
        return query
    loose = loose_names(conn, query)
    fts_expression = split_choices(query.fts, sorted(w for w in loose if "/" in w))
    return replace(query, loose_names=loose, fts=fts_expression)


def holds_code(conn: Connection, filters: Filters) -> bool:
    """Whether a code excerpt can pass ``filters`` at all (their lifecycles and types)."""
    if filters.types and "code" not in filters.types:
        return False
    return fts.holds_type(conn, "code", filters.lifecycles)


def count_matches(conn: Connection, query: ParsedQuery, filters: Filters) -> int:
    """How many facts match under these filters (used to explain an empty answer)."""
    query = prefix.read(conn, query)[0]
    total = fts.count_words(conn, query.fts, filters) if query.fts else 0
    if not total and query.trigram:
        total = fts.count_trigrams(conn, query.trigram, filters)
    return total
