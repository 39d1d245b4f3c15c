"""One list from per-project answers: reciprocal rank fusion over per-project ranks, each store's
ranks weighed by how much the question's words belong to it and by how much of the question its
first excerpts hold (``answered``).

Scores from different stores are not comparable (BM25 depends on each corpus's statistics),
ranks are. Each excerpt gets ``weight / (K + rank in its project)``; the list is sorted by that
score, then by its score within its project (higher first), then by project name and rank,
so the same stores and question always give the same order. Every excerpt keeps its own
project's citation: nothing is merged, only placed. K = 60 (Cormack et al., 2009), the
constant the lexical fusion of one project uses too.

A store's weight is its CORI belief (Callan, Lu and Croft, 1995, with their constants) that it
holds the question, over the best store's: for each word of the question, how many of the
store's excerpts hold it (against the store's size beside the others') and in how few stores
it is at all, averaged over the words. Plain RRF put every store's first excerpt before any
store's second: over httpx, Flask, Django and click, another project's first excerpt came first
for 59 % of each project's own questions and recall@5 fell from 0.963 (each project alone) to
0.831; weighed, 0.88; on six other projects' docs questions, 0.500 plain and 0.621 weighed
(``bench/cross_questions.py``, docs/benchmarks.md "crossrank"). With the first excerpts read
(``answered``): 0.897, another project first for 30 % instead of 39 %; on the six, 0.621 and 16 %
instead of 20 % ("crosscover").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from kenning.records import Answer, Excerpt

K = 60
CORI_BELIEF_BASE = 0.4  # b: a store's belief for a word it does not hold
CORI_DF_BASE = 50  # a word's excerpts are weighed against df + 50 + 150 × size / mean size
CORI_DF_FACTOR = 150
# The power of a store's weight relative to the best (``answered``): chosen on httpx, Flask, Django
# and click's questions (0.05 to 1 tried), then run once on six other projects' (docs/benchmarks.md,
# "crosscover").
SPREAD = 0.1

# A store's vocabulary as a question reads it: its excerpts, and how many hold each word asked
# (None: unknown, the store could not be read; it then weighs as much as the best).
Vocabulary = tuple[int, Mapping[str, int]] | None


def weights(vocabularies: Mapping[str, Vocabulary]) -> dict[str, float]:
    """Each store's weight (by project name): its CORI belief over the highest one; 1.0 for every
    store when the question has no word some store holds, or for a store whose vocabulary is
    unknown."""
    known = {name: v for name, v in vocabularies.items() if v is not None}
    words = sorted({w for _, held in known.values() for w, df in held.items() if df > 0})
    if not words or not known:
        return dict.fromkeys(vocabularies, 1.0)
    mean_size = sum(size for size, _ in known.values()) / len(known) or 1.0
    stores = len(known)
    holding = {w: sum(1 for _, held in known.values() if held.get(w, 0) > 0) for w in words}
    belief = {}
    for name, (size, held) in known.items():
        total = 0.0
        for w in words:
            df = held.get(w, 0)
            t = df / (df + CORI_DF_BASE + CORI_DF_FACTOR * size / mean_size)
            i = math.log((stores + 0.5) / holding[w]) / math.log(stores + 1.0)
            total += CORI_BELIEF_BASE + (1 - CORI_BELIEF_BASE) * t * i
        belief[name] = total / len(words)
    best = max(belief.values())
    return {name: belief[name] / best if name in belief else 1.0 for name in vocabularies}


def answered(beliefs: Mapping[str, float], covered: Mapping[str, float]) -> dict[str, float]:
    """Each store's weight once it answered: its belief (``weights``) times (1 + the share of
    the question its first excerpts hold, ``across.coverage``), over the highest, to the power
    ``SPREAD``. Weighed by its belief alone, a store at 0.9 of the best placed its first excerpt
    after the best one's seventh (K = 60): the best store filled the answer, right or wrong. At
    the power 0.1, a store half as likely places its first excerpt after the best one's fifth,
    one at 0.9 after its first."""
    raw = {name: belief * (1.0 + covered.get(name, 0.0)) for name, belief in beliefs.items()}
    best = max(raw.values(), default=0.0)
    if best <= 0.0:
        return dict.fromkeys(beliefs, 1.0)
    return {name: (value / best) ** SPREAD for name, value in raw.items()}


def shares(store_weights: Sequence[float], limit: int) -> list[int]:
    """How many excerpts each store (in order) gives to the merged top ``limit`` when every store
    has that many: the ``limit`` highest ``weight / (K + rank)``, counted by store (at least one
    each, so that every store is asked)."""
    scored = sorted(
        ((-w / (K + rank), index) for index, w in enumerate(store_weights) for rank in range(1, limit + 1)),
    )
    counts = [0] * len(store_weights)
    for _, index in scored[:limit]:
        counts[index] += 1
    return [max(1, c) for c in counts]


def fuse(answers: list[Answer], limit: int, store_weights: Mapping[str, float] | None = None) -> tuple[Excerpt, ...]:
    """The best ``limit`` excerpts of ``answers`` (each ranked within its project), ranked anew;
    ``store_weights``: by project name (``weights``), 1.0 where not given."""
    given = store_weights or {}
    scored = []
    for answer in answers:
        for position, ex in enumerate(answer.excerpts, start=1):
            weight = given.get(ex.fact.project, 1.0)
            scored.append((weight / (K + position), ex.score, ex.fact.project, position, weight, ex))
    scored.sort(key=lambda s: (-s[0], -s[1], s[2], s[3]))
    out = []
    for rank, (rrf, own, _, position, weight, ex) in enumerate(scored[:limit], start=1):
        explain = (
            {
                **ex.explain,
                "project_rank": position,
                "project_score": round(own, 6),
                "store_weight": round(weight, 6),
                "rrf": round(rrf, 6),
            }
            if ex.explain is not None
            else None
        )
        out.append(replace(ex, score=rrf, rank=rank, explain=explain))
    return tuple(out)
