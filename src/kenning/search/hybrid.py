"""Hybrid search (level 1): the lexical ranking and the dense ranking fused by weighted RRF.

score(fact) = Σ over lists of weight(list) / (k + rank in list); k = 60 (SPEC §6). The weights
were tuned on SciFact *train* only (bench/scifact.py --split train --sweep); test was run
once with them (docs/benchmarks.md). With ``explain`` every excerpt carries each list's rank
and contribution. Both lists are cut at ``POOL`` before fusion.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from kenning import dense
from kenning.dense import index as dense_index
from kenning.dense import manifest as dense_manifest
from kenning.dense.embed import Embedder, for_query
from kenning.errors import DenseRefused
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Lifecycle
from kenning.search.lexical import Hit
from kenning.search.query import CODE_NAME, ParsedQuery
from kenning.search.serve import SearchOptions, rank_hits, search_conn
from kenning.store import facts as fact_store
from kenning.store.handle import Connection

LEVEL = 1
RRF_K = 60
POOL = 50
WEIGHTS = {"lexical": 1.0, "dense": 1.0}
_TEST_WORDS = frozenset({"test", "tests", "testing", "pytest", "fixture", "fixtures", "spec", "specs"})


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


def serving(conn: Connection, project: Project, question: str) -> tuple[Embedder | None, str]:
    """The embedder that serves this question in hybrid mode, or ``None`` and why not (the
    answer's degradation): disabled, weights refused, index not built, from another model
    (refused), or incomplete for the project's active excerpts."""
    if not dense.enabled(project):
        return None, dense.DISABLED
    try:
        embedder = for_query(dense_index.embedders(project), question)
    except DenseRefused as exc:
        return None, f"dense refused: {exc.message}"
    cover = dense_index.coverage(conn, embedder.name)
    if cover.stored is None:
        return None, f"dense index not built ({embedder.name}): run `kenning sync`"
    try:
        dense_manifest.check(cover.stored, embedder)
    except DenseRefused as exc:
        return None, f"dense index refused: {exc.message}; run `kenning sync` to reindex"
    if not cover.complete:
        return None, cover.reason()
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
    weights: dict[str, float] | None = None,
    pool: int = POOL,
    mode: str = "hybrid",
) -> Answer:
    """``mode`` hybrid fuses both lists; ``dense`` serves the dense list alone (benchmarks)."""
    weights = weights or WEIGHTS
    lexical = (
        search_conn(conn, project, parsed, replace(options, limit=max(pool, options.limit), explain=False), now=now)
        if mode == "hybrid"
        else None
    )
    lexical_ids = [e.fact.id for e in lexical.excerpts] if lexical else []
    dense = dense_ranking(conn, project, embedder, parsed.text, pool)
    cosine = dict(dense)
    dense_ids = _admitted(conn, project, [fact_id for fact_id, _ in dense], options)
    rankings = {"lexical": lexical_ids, "dense": dense_ids} if lexical else {"dense": dense_ids}
    fused = fuse(rankings, weights)
    hits = []
    for fact_id, score, parts in fused:
        if "dense" in parts:
            parts["dense"]["cosine"] = round(cosine[fact_id], 4)
        hits.append(
            Hit(fact_id, score, {"fusion": f"weighted RRF, k={RRF_K}", "model": embedder.model_id, "lists": parts})
        )
    symbols = frozenset(t.lower() for t in parsed.original_terms if CODE_NAME.search(t))
    about_tests = any(w in _TEST_WORDS for t in parsed.terms for w in re.split(r"[\W_]+", t))
    excerpts, filtered = rank_hits(
        conn, project, hits, parsed.terms, options, now=now, symbols=symbols, demote_tests=not about_tests
    )
    if lexical:
        filtered.update(lexical.filtered)
    empty = None if excerpts else (EmptyReason.ALL_FILTERED if filtered else EmptyReason.NO_MATCH)
    return Answer(
        parsed.text,
        mode,
        None,
        LEVEL,
        (project.name,),
        excerpts=tuple(excerpts),
        empty_reason=empty,
        filtered=dict(filtered),
    )


def _admitted(conn: Connection, project: Project, ids: list[int], options: SearchOptions) -> list[int]:
    """The dense candidates that pass the same filters as the lexical ones (the matrix is cached
    per process: a fact retired or superseded since it was loaded is dropped here)."""
    facts = fact_store.get_many(conn, project.name, ids)
    lifecycles = (Lifecycle.ACTIVE, Lifecycle.SUPERSEDED) if options.include_superseded else (Lifecycle.ACTIVE,)
    kept = []
    for fact_id in ids:
        fact = facts.get(fact_id)
        if fact is None or fact.lifecycle not in lifecycles or (options.types and fact.type not in options.types):
            continue
        if options.memory_type and fact.memory_type != options.memory_type:
            continue
        if options.path_prefix and not any(loc.path.startswith(options.path_prefix) for loc in fact.locations):
            continue
        kept.append(fact_id)
    return kept
