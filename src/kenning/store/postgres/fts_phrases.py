"""A phrase scored as one unit on PostgreSQL, as FTS5's ``bm25()`` scores it (``store.postgres.fts``).

FTS5 counts a phrase of several words (``"articles slug"``) as one term: its inverse document
frequency from the facts that hold its words in that order, its hits those places, by column. The
word postings (PostgreSQL migration 0008) know each word's facts and hits, not their order. So:

- the facts holding a phrase are those that match it (``@@``: the GIN index, each candidate's
  positions checked by the server; a lexeme no query holds sits between two columns, migration
  0005, so no phrase spans two); their count is its document frequency;
- its weighted hits in a fact are ``ts_rank_cd`` of the phrase with the column weights and no
  normalisation: a place where the phrase stands, its words one position apart in one column,
  adds that column's weight (the weights are divided by the largest, as ``ts_rank_cd`` takes
  them at most 1, and multiplied back), overlapping places each, as FTS5 counts them;
- the fact's length in words is its posting's (``lens``) under the phrase's rarest word.

Then a phrase is scored by a word's formula. Reading every fact of a common phrase costs: Django's
"def test" is in 15,717 excerpts (measured in docs/benchmarks.md).
"""

from __future__ import annotations

from typing import Any

from kenning.store.postgres.fts_syntax import lexemes

Phrase = tuple[list[str], str]  # (its words, its tsquery text: in the columns its filter leaves it)


def phrase(words: list[str], columns: str) -> Phrase:
    return words, lexemes(" ".join(words), False, columns)


def phrase_ctes(k1: float, b: float, idf: str) -> str:
    """The CTEs after ``store.postgres.fts``'s (``stats`` among them) that give ``phrase_scores``
    (id, s): each phrase's BM25 in each fact holding it. Parameters: ``phrase_params``'s."""
    return f""",
phrase_words AS MATERIALIZED (  -- its rarest word: the shortest postings holding every fact of the phrase
    SELECT q.i, q.tsq, (SELECT u.lexeme FROM unnest(to_tsvector('kenning_simple', q.phrase)) AS u
            ORDER BY (SELECT sum(cardinality(w.ids)) FROM word_postings w WHERE w.project = %s AND w.lexeme = u.lexeme),
                u.lexeme
            LIMIT 1) AS first
    FROM unnest(%s::int[], %s::text[], %s::text[]) AS q(i, phrase, tsq)),
phrase_hits AS MATERIALIZED (
    SELECT p.i, p.first, f.id,
        %s::float8 * ts_rank_cd(%s::float4[], f.words, to_tsquery('kenning_simple', p.tsq), 0) AS f
    FROM phrase_words p JOIN facts f ON f.project = %s AND f.words @@ to_tsquery('kenning_simple', p.tsq)),
phrase_boosts AS MATERIALIZED (
    SELECT c.i, {idf} * {k1 + 1}::float8 AS boost
    FROM (SELECT i, count(*)::float8 AS n FROM phrase_hits GROUP BY i) AS c CROSS JOIN stats s,
        LATERAL ln(greatest((s.docs - c.n + 0.5) / (c.n + 0.5), 1e-9)) AS x),
phrase_lens AS MATERIALIZED (
    SELECT DISTINCT p.first, x.id, x.n::float8 AS n
    FROM (SELECT DISTINCT first FROM phrase_words) AS p
        JOIN word_postings w ON w.project = %s AND w.lexeme = p.first, unnest(w.ids, w.lens) AS x(id, n)),
phrase_scores AS (
    SELECT h.id, k.boost * h.f / (h.f + {k1 * (1 - b)}::float8 + (SELECT per_word FROM stats) * l.n) AS s
    FROM phrase_hits h JOIN phrase_boosts k USING (i) JOIN phrase_lens l USING (first, id))"""


def phrase_params(phrases: list[Phrase], project: str, weights: tuple[float, ...]) -> list[Any]:
    """``phrase_ctes``'s parameters: each phrase's first word and tsquery, then the column weights
    in ``ts_rank_cd``'s order (body, path, keywords, title), scaled to at most 1."""
    top = max(max(weights), 1e-9)
    return [
        project,
        list(range(len(phrases))),
        [" ".join(words) for words, _ in phrases],
        [tsq for _, tsq in phrases],
        top,
        [w / top for w in reversed(weights)],
        project,
        project,
    ]
