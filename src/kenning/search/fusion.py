"""Reciprocal rank fusion (Cormack et al., 2009): score = sum over lists of 1 / (k + rank)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

RRF_K = 60


@dataclass(frozen=True)
class Fused:
    """One fused item: its key, RRF score and the ranks it came from."""

    key: Any
    score: float
    explain: dict[str, Any] = field(default_factory=dict)


def rrf_fuse(rankings: Mapping[str, Sequence[Hashable]], k: int = RRF_K) -> list[Fused]:
    """Fuse named rankings (best first). Ties break on the best single rank, then on the
    order the lists were given, so the result is deterministic."""
    scores: dict[Hashable, float] = {}
    ranks: dict[Hashable, dict[str, int]] = {}
    first_seen: dict[Hashable, tuple[int, int]] = {}
    for list_index, (name, ranking) in enumerate(rankings.items()):
        for rank, key in enumerate(ranking, start=1):
            if name in ranks.get(key, {}):
                continue  # a key counts once per list, at its best rank
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            ranks.setdefault(key, {})[name] = rank
            first_seen.setdefault(key, (rank, list_index))
    ordered = sorted(scores, key=lambda key: (-scores[key], min(ranks[key].values()), first_seen[key]))
    return [
        Fused(key, scores[key], {"rrf": round(scores[key], 6), **{f"{n}_rank": r for n, r in ranks[key].items()}})
        for key in ordered
    ]
