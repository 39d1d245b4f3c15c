"""Fusion sweeps for the public benchmarks (train material only): each question's lexical and
dense lists are gathered once through the product's own code, then every fusion setting of
:data:`GRID` is replayed on them with the product's fusion functions
(``kenning.search.hybrid.fuse`` / ``fuse_convex``) and the product's ranking factors
(freshness, superseded, test files), computed once per candidate by ``rank_hits``.

``replay(lists, fusion)`` gives exactly the order ``hybrid.search`` would serve with
``fusion`` (``tests/bench`` has no test of it: ``bench/scifact.py --mode hybrid`` with the
chosen setting reproduces the sweep's figure, which the docs record).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_POOL = 200  # the deepest pool tried


@dataclass
class Lists:
    lexical: list[tuple[int, float]]  # the engine's lexical ranking (fact id, score), best first
    dense: list[tuple[int, float]]  # the dense top MAX_POOL (fact id, cosine), best first
    cosine: dict[int, float]  # every candidate's cosine
    factor: dict[int, float]  # every candidate's ranking factor (freshness, test files…)
    neighbours: dict[int, tuple[int | None, int | None]]  # a session memory's previous and next memory


def grid():
    from kenning.search.hybrid import Fusion

    found = [Fusion()]
    for k in (10, 30, 60, 100):
        for weight in (0.3, 0.5, 0.7, 1.0, 1.5):
            for pool in (20, 50, 100, 200):
                found.append(Fusion("rrf", k=k, dense_weight=weight, lexical_pool=pool, dense_pool=pool))
    for alpha in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        for lexical_pool, dense_pool in ((20, 20), (50, 20), (50, 50), (100, 50), (100, 100), (200, 100), (200, 200)):
            found.append(Fusion("convex", alpha=alpha, lexical_pool=lexical_pool, dense_pool=dense_pool))
    for alpha in (0.4, 0.5, 0.6):  # session neighbours (docs/evaluation.md, "Level 1: session neighbours")
        for share in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0):
            found.append(Fusion("convex", alpha=alpha, lexical_pool=100, dense_pool=50, neighbour=share))
    return found


def label(fusion) -> str:
    neighbour = f" neighbour={fusion.neighbour}" if fusion.neighbour else ""
    if fusion.method == "convex":
        return f"convex alpha={fusion.alpha} pools={fusion.lexical_pool}/{fusion.dense_pool}{neighbour}"
    return (
        f"rrf k={fusion.k} dense_weight={fusion.dense_weight} pools={fusion.lexical_pool}/{fusion.dense_pool}"
        + neighbour
    )


def collect(conn, project, embedder, parsed, options, now) -> Lists:
    """One question's lists, deep enough for every pool of :func:`grid`."""
    from dataclasses import replace

    from kenning.dense import index as dense_index
    from kenning.search import lexical
    from kenning.search.hybrid import _cosines_of
    from kenning.search.ranker import rank_hits
    from kenning.search.serve import filters_of
    from kenning.store import memory as memory_store

    hits = lexical.ranking(conn, parsed, filters_of(options), MAX_POOL).hits[:MAX_POOL]
    lexical_list = [(hit.fact_id, hit.score) for hit in hits]
    ids, cosines = dense_index.similarities(conn, project, embedder, parsed.text)
    dense = dense_index.top(ids, cosines, MAX_POOL)
    cosine = dict(dense)
    cosine.update(_cosines_of(ids, cosines, [key for key, _ in lexical_list]))
    union = list(dict.fromkeys([*cosine, *(k for k, _ in lexical_list)]))
    neutral = [lexical.Hit(key, 1.0, {}) for key in union]
    excerpts, _ = rank_hits(conn, project, neutral, parsed.terms, replace(options, limit=len(union)), now=now)
    neighbours = memory_store.session_neighbours(conn, union)
    return Lists(lexical_list, dense, cosine, {e.fact.id: e.score for e in excerpts}, neighbours)


def replay(lists: Lists, fusion) -> list[int]:
    """The fact ids ``hybrid.search`` serves with ``fusion`` (no filter: the benchmarks use none)."""
    from kenning.search.hybrid import boost_neighbours, fuse, fuse_convex

    lexical = lists.lexical[: fusion.lexical_pool]
    dense = lists.dense[: fusion.dense_pool]
    if fusion.method == "convex":
        fused = fuse_convex(lexical, dense, lists.cosine, fusion.alpha)
    else:
        rankings = {"lexical": [k for k, _ in lexical], "dense": [k for k, _ in dense]}
        fused = fuse(rankings, {"lexical": 1.0, "dense": fusion.dense_weight}, fusion.k)
    fused = boost_neighbours(fused, lists.neighbours, fusion.neighbour)
    served = [(score * lists.factor.get(key, 0.0), order, key) for order, (key, score, _) in enumerate(fused)]
    served = [s for s in served if s[2] in lists.factor]  # a candidate the ranking filters out is not served
    served.sort(key=lambda s: (-s[0], s[1]))
    return [key for _, _, key in served]
