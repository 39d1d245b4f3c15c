"""How long the dense indexes still need, from the pace one sync embedded at: what the sync's
report offers as ``kenning sync --embed-budget SECONDS`` when its budget left them incomplete.

A model's first batch in a sync also loads it (about a second here), so its pace is read from
the batches after the first, and the first batch's surplus counts once per model the next sync
must load again. Too few batches to read a pace from, and no estimate is given rather than a
guess."""

from __future__ import annotations

import math
from collections.abc import Mapping

# Batches after a model's first needed to read its pace.
STEADY_BATCHES = 2
MARGIN = 1.1  # a tenth more: a batch starts only when it should end within the budget
ROUND_TO = 5.0  # seconds


class Pace:
    """The batches each model embedded in one sync (``record``), and ``seconds_left``."""

    def __init__(self, cost: Mapping[str, float]) -> None:
        self.cost = cost  # seconds per excerpt relative to MiniLM's, by model
        self._first: dict[str, tuple[int, float]] = {}
        self._steady: dict[str, list[tuple[int, float]]] = {}

    def record(self, name: str, count: int, seconds: float) -> None:
        if name not in self._first:
            self._first[name] = (count, seconds)
        else:
            self._steady.setdefault(name, []).append((count, seconds))

    def seconds_left(self, pending: Mapping[str, int]) -> float | None:
        """The embedding time that should complete every index (``pending``: excerpts left by
        model), a tenth more and rounded up to 5 s; None when none is pending or no model
        embedded enough batches in this sync to read a pace from."""
        pending = {name: count for name, count in pending.items() if count > 0}
        paces = {
            name: sum(s for _, s in batches) / sum(n for n, _ in batches)
            for name, batches in self._steady.items()
            if len(batches) >= STEADY_BATCHES and sum(n for n, _ in batches) > 0
        }
        if not pending or not paces:
            return None
        unit = min(pace / self.cost.get(name, 1.0) for name, pace in paces.items())  # MiniLM's seconds per excerpt
        loads = {name: max(0.0, self._first[name][1] - paces[name] * self._first[name][0]) for name in paces}
        load = max(loads.values())  # a model not timed here loads in about what the others took
        need = sum(
            loads.get(name, load) + count * paces.get(name, unit * self.cost.get(name, 1.0))
            for name, count in pending.items()
        )
        return ROUND_TO * math.ceil(need * MARGIN / ROUND_TO)
