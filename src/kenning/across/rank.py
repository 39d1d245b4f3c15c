"""One list from per-project answers: reciprocal rank fusion over per-project ranks.

Scores from different stores are not comparable (BM25 depends on each corpus's statistics),
ranks are. Each excerpt gets ``1 / (K + rank in its project)``; the list is sorted by that
score, then by its score within its project (higher first), then by project name and rank,
so the same stores and question always give the same order. Every excerpt keeps its own
project's citation: nothing is merged, only placed. K = 60 (Cormack et al., 2009), the
constant the lexical fusion of one project uses too.
"""

from __future__ import annotations

from dataclasses import replace

from kenning.records import Answer, Excerpt

K = 60


def fuse(answers: list[Answer], limit: int) -> tuple[Excerpt, ...]:
    """The best ``limit`` excerpts of ``answers`` (each ranked within its project), ranked anew."""
    scored = []
    for answer in answers:
        for position, ex in enumerate(answer.excerpts, start=1):
            scored.append((1.0 / (K + position), ex.score, ex.fact.project, position, ex))
    scored.sort(key=lambda s: (-s[0], -s[1], s[2], s[3]))
    out = []
    for rank, (rrf, own, _, position, ex) in enumerate(scored[:limit], start=1):
        explain = (
            {**ex.explain, "project_rank": position, "project_score": round(own, 6), "rrf": round(rrf, 6)}
            if ex.explain is not None
            else None
        )
        out.append(replace(ex, score=rrf, rank=rank, explain=explain))
    return tuple(out)
