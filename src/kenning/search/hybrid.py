"""Hybrid search (level 1): the lexical ranking and the dense ranking fused into one list.

Two fusions (:class:`Fusion`): weighted RRF, Σ weight / (k + rank) (SPEC §6), and the convex
combination alpha × lexical score + (1 − alpha) × cosine, each min-max normalised over the
candidates. The English model fuses by the convex combination, alpha 0.5, chosen on train
material only (``bench/scifact.py --split train --sweep``, ``bench/locomo.py --conversations
1-5 --sweep``); the test sets were run once with it (docs/evaluation.md). The multilingual
model (French questions) fuses the same way, alpha 0.6, chosen on the French train set
(``bench/questions/flask.fr.jsonl`` at level 1).
For English questions a memory saved in an agent session then gains a share of its session
neighbours' fused score (:func:`boost_neighbours`; LoCoMo 1-5 R@10 78.9 → 81.1). With
``explain`` every excerpt carries each list's rank and contribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from kenning import dense
from kenning.dense import index as dense_index
from kenning.dense import manifest as dense_manifest
from kenning.dense.embed import Embedder, for_query
from kenning.errors import DenseRefused
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Lifecycle
from kenning.registry import GLOBAL_NAME
from kenning.search import lexical, prefix, translate
from kenning.search.lexical import Hit
from kenning.search.options import SearchOptions, filters_of
from kenning.search.query import ParsedQuery, reads_french
from kenning.search.ranker import query_ranker
from kenning.search.serve import MIN_POOL, search_conn, superseded_left_out
from kenning.store import facts as fact_store
from kenning.store import fts_guard
from kenning.store import memory as memory_store
from kenning.store.handle import Connection

LEVEL = 1
RRF_K = 60
POOL = 50
WEIGHTS = {"lexical": 1.0, "dense": 1.0}


@dataclass(frozen=True)
class Fusion:
    """How the two lists become one.

    ``rrf``: Σ over lists of weight / (k + rank), the lexical list weighing 1 and the dense one
    ``dense_weight``. ``convex``: alpha × the lexical score + (1 − alpha) × the cosine, each
    min-max normalised over the candidates (the lexical top ``lexical_pool`` and the dense top
    ``dense_pool``); a candidate the lexical list did not return counts 0 there, while its
    cosine is always known (the whole matrix is scored). Both lists are cut at their pool.

    ``neighbour``: a memory saved in a session then gains that share of the better fused score
    of the memories saved just before and just after it in the same session, when they are
    candidates (:func:`boost_neighbours`): a conversation's turns answer a question together
    (the question in one, the fact in its reply)."""

    method: str = "rrf"
    k: int = RRF_K
    dense_weight: float = 1.0
    alpha: float = 0.5
    lexical_pool: int = POOL
    dense_pool: int = POOL
    neighbour: float = 0.0

    def describe(self) -> str:
        if self.method == "convex":
            text = f"convex, alpha={self.alpha:g} (lexical), min-max normalised"
        else:
            text = f"weighted RRF, k={self.k}" + (
                f", dense weight {self.dense_weight:g}" if self.dense_weight != 1 else ""
            )
        return text + (f", session neighbours {self.neighbour:g}" if self.neighbour else "")


# The English model's, chosen on train material only (docs/evaluation.md, "Level 1: fusion"):
# SciFact train nDCG@10 0.7303 (plain RRF 0.6956), LoCoMo conversations 1-5 R@10 78.9 (RRF 73.0);
# alpha 0.4-0.6 and pools from 50 up lie on one plateau on both sets; 0.5 is its middle.
# The session-neighbour share, 0.4, chosen on LoCoMo conversations 1-5 only (SciFact holds no
# sessions): R@10 78.9 → 81.1, γ 0.3-0.5 one plateau (docs/evaluation.md, "Level 1: session neighbours").
FUSION = Fusion("convex", alpha=0.5, lexical_pool=100, dense_pool=50, neighbour=0.4)
# The multilingual model's (French questions), chosen on flask.fr at level 1, the French train set
# (docs/evaluation.md, "Level 1: French questions"): MRR@5 0.806 with plain RRF, 0.935 with alpha
# 0.5-0.7 (one plateau; 0.6 its middle), below it 0.887 (0.4) and 0.844 (0.3). No session neighbours:
# no non-English conversation to choose a share on.
FUSION_MULTILINGUAL = Fusion("convex", alpha=0.6, lexical_pool=100, dense_pool=50)


def fusion_for(embedder: Embedder) -> Fusion:
    return FUSION_MULTILINGUAL if embedder.multilingual else FUSION


def fuse(
    rankings: dict[str, list[int]], weights: dict[str, float], k: int = RRF_K
) -> list[tuple[int, float, dict[str, Any]]]:
    """(key, score, explain) best first; ties go to the best single rank, then the lower key."""
    scores: dict[int, float] = {}
    explain: dict[int, dict[str, Any]] = {}
    for name, ranking in rankings.items():
        weight = weights.get(name, 1.0)
        for rank, key in enumerate(ranking, start=1):
            part = weight / (k + rank)
            scores[key] = scores.get(key, 0.0) + part
            explain.setdefault(key, {})[name] = {"rank": rank, "contribution": round(part, 6)}
    best_rank = {key: min(v["rank"] for v in e.values()) for key, e in explain.items()}
    ordered = sorted(scores, key=lambda key: (-scores[key], best_rank[key], key))
    return [(key, scores[key], explain[key]) for key in ordered]


def fuse_convex(
    lexical: list[tuple[int, float]], dense: list[tuple[int, float]], cosine: dict[int, float], alpha: float
) -> list[tuple[int, float, dict[str, Any]]]:
    """(key, score, explain) best first for :attr:`Fusion.method` ``convex``. ``lexical`` and
    ``dense`` are (key, score) best first, already cut; ``cosine`` holds every candidate's
    cosine (the lexical ones included). Ties go to the best single rank, then the lower key."""
    lex_rank = {key: rank for rank, (key, _) in enumerate(lexical, start=1)}
    dense_rank = {key: rank for rank, (key, _) in enumerate(dense, start=1)}
    lex_score = dict(lexical)
    keys = list(dict.fromkeys([*lex_rank, *dense_rank]))
    lex_norm = _minmax(lex_score)
    cos_norm = _minmax({key: cosine[key] for key in keys if key in cosine})
    scores: dict[int, float] = {}
    explain: dict[int, dict[str, Any]] = {}
    for key in keys:
        lex_part = alpha * lex_norm.get(key, 0.0)
        dense_part = (1 - alpha) * cos_norm.get(key, 0.0)
        scores[key] = lex_part + dense_part
        parts: dict[str, Any] = {}
        if key in lex_rank:
            parts["lexical"] = {"rank": lex_rank[key], "contribution": round(lex_part, 6)}
        if key in cosine:
            parts["dense"] = {"rank": dense_rank.get(key), "contribution": round(dense_part, 6)}
        explain[key] = parts
    best_rank = {key: min(lex_rank.get(key, 1 << 30), dense_rank.get(key, 1 << 30)) for key in keys}
    ordered = sorted(keys, key=lambda key: (-scores[key], best_rank[key], key))
    return [(key, scores[key], explain[key]) for key in ordered]


def boost_neighbours(
    found: list[tuple[int, float, dict[str, Any]]], neighbours: dict[int, tuple[int | None, int | None]], share: float
) -> list[tuple[int, float, dict[str, Any]]]:
    """``found`` (key, fused score, parts) re-scored: each key listed in ``neighbours`` (its
    previous and next memory in its session) gains ``share`` × the better fused score of the two
    among the candidates; re-sorted, ties kept in their fused order."""
    if not share or not neighbours:
        return found
    fused_score = {key: score for key, score, _ in found}
    boosted = []
    for order, (key, score, parts) in enumerate(found):
        near = [(fused_score[n], n) for n in neighbours.get(key, ()) if n is not None and n in fused_score]
        if near:
            best, fact = max(near)
            gain = share * best
            score += gain
            parts["neighbour"] = {"fact": fact, "contribution": round(gain, 6)}
        boosted.append((-score, order, key, parts))
    boosted.sort(key=lambda row: row[:2])
    return [(key, -negative, parts) for negative, _, key, parts in boosted]


def _minmax(values: dict[int, float]) -> dict[int, float]:
    if not values:
        return {}
    low, high = min(values.values()), max(values.values())
    if high <= low:
        return {key: 1.0 for key in values}
    return {key: (value - low) / (high - low) for key, value in values.items()}


def serving(conn: Connection, project: Project, question: str) -> tuple[Embedder | None, str]:
    """The embedder that serves this question in hybrid mode, or ``None`` and why not (the
    answer's degradation): disabled, weights refused, index not built, from another model
    (refused), or incomplete for the project's active excerpts."""
    if not dense.enabled(project):
        return None, dense.DISABLED
    try:
        embedder = for_query(dense_index.embedders(project), english=not reads_french(question))
    except DenseRefused as exc:
        return None, f"dense refused: {exc.message}"
    # The transverse memory's notes are embedded as they are saved; one left unembedded
    # (--no-embed, a failure) is embedded by `kenning sync --global`, never by a project's sync.
    command = "kenning sync --global" if project.name == GLOBAL_NAME else "kenning sync"
    cover = dense_index.coverage(conn, embedder.name)
    if cover.stored is None:
        return None, f"dense index not built ({embedder.name}): run `{command}` (a sync with --no-embed builds none)"
    try:
        dense_manifest.check(cover.stored, embedder)
    except DenseRefused as exc:
        return None, f"dense index refused: {exc.message}; run `{command}` to reindex"
    if not cover.complete:
        return None, cover.reason(command)
    return embedder, ""


def dense_ranking(
    conn: Connection, project: Project, embedder: Embedder, question: str, pool: int = POOL
) -> list[tuple[int, float]]:
    return dense_index.nearest(conn, project, embedder, question, pool)


def search(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    options: SearchOptions,
    *,
    now: datetime,
    embedder: Embedder,
    fusion: Fusion | None = None,
    mode: str = "hybrid",
) -> Answer:
    """``mode`` hybrid fuses both lists; ``dense`` serves the dense list alone (benchmarks).

    The lexical list is the engine's ranking (BM25, trigrams) under the answer's filters, cut at
    its pool, or at ``options.limit`` when that is larger; the dense list likewise. The ranking
    features (freshness, superseded, definition boost, test files) then apply once, to the fused
    scores, read only as deep as a later candidate could still enter the answer
    (:class:`~kenning.search.ranker.Ranker`)."""
    fusion = fusion or fusion_for(embedder)
    spelled: tuple[str, ...] = ()
    if mode == "hybrid":
        with fts_guard.time_budget(conn):
            parsed, spelled = translate.searched(conn, parsed, filters_of(options))
    parsed = lexical.with_loose_names(conn, parsed)  # read once, for the ranker and the lexical list
    found, prefix_notes = fused(conn, project, parsed, options, embedder, fusion, mode)
    hits = [
        Hit(fact_id, score, {"fusion": fusion.describe(), "model": embedder.model_id, "lists": parts})
        for fact_id, score, parts in found
    ]
    ranker = query_ranker(conn, project, parsed, options, now=now)
    depth = max(MIN_POOL, 2 * options.limit)
    while True:
        ranker.add(hits[:depth])
        if depth >= len(hits) or ranker.settled(hits[:depth]):
            break
        depth *= 4
    excerpts, filtered = ranker.excerpts(), ranker.filtered
    if not excerpts:  # nothing served: the lexical path says what matched but was hidden
        empty = search_conn(conn, project, parsed, options, now=now)
        filtered.update(empty.filtered)
        reason = empty.empty_reason or EmptyReason.NO_MATCH
        return Answer(
            parsed.text, mode, None, LEVEL, (project.name,), empty_reason=reason, filtered=dict(filtered), notes=spelled
        )
    if mode == "hybrid" and not options.include_superseded:
        with fts_guard.time_budget(conn):
            superseded = superseded_left_out(conn, prefix.read(conn, parsed)[0], options)
        if superseded:
            filtered["superseded"] += superseded
    return Answer(
        parsed.text,
        mode,
        None,
        LEVEL,
        (project.name,),
        excerpts=tuple(excerpts),
        filtered=dict(filtered),
        notes=(*spelled, *prefix_notes),
    )


def fused(
    conn: Connection,
    project: Project,
    parsed: ParsedQuery,
    options: SearchOptions,
    embedder: Embedder,
    fusion: Fusion,
    mode: str = "hybrid",
) -> tuple[list[tuple[int, float, dict[str, Any]]], tuple[str, ...]]:
    """The fused candidates (fact id, score, each list's part), best first, before the ranking
    features; and the notes on the lexical list's prefix terms (``serve.expand_prefixes``)."""
    words: list[tuple[int, float]] = []
    notes: tuple[str, ...] = ()
    if mode == "hybrid":
        pool = max(fusion.lexical_pool, options.limit)
        with fts_guard.time_budget(conn):
            if parsed.fts and prefix.guarded(parsed):
                fts_guard.check_expansion(conn, parsed.fts)
            lexical_query, notes = prefix.read(conn, parsed)
            ranked = lexical.ranking(conn, lexical_query, filters_of(options), pool).hits[:pool]
            words = [(h.fact_id, h.score) for h in ranked]
    # On an approximate index (pgvector) only the dense pool's candidates and the lexical hits
    # are scored, with the cosines the full product gives them.
    dense_pool = max(fusion.dense_pool, options.limit)
    ids, cosines = dense_index.similarities(
        conn, project, embedder, parsed.text, pool=dense_pool, also=[fact_id for fact_id, _ in words]
    )
    dense = dense_index.top(ids, cosines, dense_pool)
    cosine = dict(dense)
    admitted = _admitted(conn, project, [fact_id for fact_id, _ in dense], options)
    dense = [(fact_id, score) for fact_id, score in dense if fact_id in admitted]
    if mode != "hybrid":
        found = fuse({"dense": [fact_id for fact_id, _ in dense]}, {"dense": 1.0}, fusion.k)
    elif fusion.method == "convex":
        cosine.update(_cosines_of(ids, cosines, [fact_id for fact_id, _ in words]))
        found = fuse_convex(words, dense, cosine, fusion.alpha)
        for key, _, parts in found if options.explain else ():
            # Beyond the dense pool: its rank overall (on an approximate index, among the scored candidates).
            if "dense" in parts and parts["dense"]["rank"] is None:
                parts["dense"]["rank"] = int(np.count_nonzero(cosines > cosine[key])) + 1
    else:
        rankings = {"lexical": [fact_id for fact_id, _ in words], "dense": [fact_id for fact_id, _ in dense]}
        found = fuse(rankings, {"lexical": 1.0, "dense": fusion.dense_weight}, fusion.k)
    for key, _, parts in found:
        if "dense" in parts:
            parts["dense"]["cosine"] = round(cosine[key], 4)
    if mode == "hybrid" and fusion.neighbour:
        neighbours = memory_store.session_neighbours(conn, [key for key, _, _ in found])
        found = boost_neighbours(found, neighbours, fusion.neighbour)
    return found, notes


def _cosines_of(ids: np.ndarray, cosines: np.ndarray, wanted: list[int]) -> dict[int, float]:
    """The cosine of each wanted fact id that has a vector (``ids`` is sorted)."""
    if not wanted or not len(ids):
        return {}
    where = np.searchsorted(ids, wanted)
    return {key: float(cosines[at]) for key, at in zip(wanted, where, strict=True) if at < len(ids) and ids[at] == key}


def _admitted(conn: Connection, project: Project, ids: list[int], options: SearchOptions) -> set[int]:
    """The dense candidates that pass the same filters as the lexical ones (the matrix is cached
    per process: a fact retired or superseded since it was loaded is dropped here)."""
    facts = fact_store.get_many(conn, project.name, ids)
    lifecycles = (Lifecycle.ACTIVE, Lifecycle.SUPERSEDED) if options.include_superseded else (Lifecycle.ACTIVE,)
    kept = set()
    for fact_id in ids:
        fact = facts.get(fact_id)
        if fact is None or fact.lifecycle not in lifecycles or (options.types and fact.type not in options.types):
            continue
        if options.memory_type and fact.memory_type != options.memory_type:
            continue
        if options.path_prefix and not fact.source.uri.startswith(options.path_prefix):
            continue
        day = (fact.dates.source or fact.dates.indexed)[:10]
        if (options.since and day < options.since) or (options.until and day > options.until):
            continue
        kept.add(fact_id)
    return kept
