"""How long the dense indexes still need, from the pace a sync embedded at: what the sync's
report offers as ``kenning sync --embed-budget SECONDS`` when its budget left them incomplete,
and what ``kenning status`` offers later from the pace the last sync kept in
``.kenning/cache/dense-pace.json`` (:func:`keep`, :func:`kept`): a file beside the store, not a
row in it, as the pace is this machine's (a PostgreSQL store is shared by machines of other
speeds, whose status then gives no estimate rather than another machine's).

A model's first batch in a sync also loads it (about a second here), so its pace is read from
the batches after the first, and the first batch's surplus counts once per model the next sync
must load again. Too few batches to read a pace from, and no estimate is given rather than a
guess."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from kenning.files import write_atomic

# Batches after a model's first needed to read its pace.
STEADY_BATCHES = 2
MARGIN = 1.1  # a tenth more: a batch starts only when it should end within the budget
ROUND_TO = 5.0  # seconds
KEPT = "cache/dense-pace.json"  # under .kenning/


class Measured(NamedTuple):
    """One model's pace in one sync: seconds per excerpt in its steady batches, and the seconds
    its first batch took beyond that pace (loading the model)."""

    per_excerpt: float
    load: float


class Pace:
    """The batches each model embedded in one sync (``record``), and the pace they give
    (``measured``, which :func:`seconds_left` prices the rest with)."""

    def __init__(self) -> None:
        self._first: dict[str, tuple[int, float]] = {}
        self._steady: dict[str, list[tuple[int, float]]] = {}

    def record(self, name: str, count: int, seconds: float) -> None:
        if name not in self._first:
            self._first[name] = (count, seconds)
        else:
            self._steady.setdefault(name, []).append((count, seconds))

    def measured(self) -> dict[str, Measured]:
        """The models that embedded enough batches in this sync to read a pace from."""
        found = {}
        for name, batches in self._steady.items():
            count = sum(n for n, _ in batches)
            if len(batches) >= STEADY_BATCHES and count > 0:
                per_excerpt = sum(s for _, s in batches) / count
                first_count, first_seconds = self._first[name]
                found[name] = Measured(per_excerpt, max(0.0, first_seconds - per_excerpt * first_count))
        return found


def seconds_left(
    measured: Mapping[str, Measured], pending: Mapping[str, int], cost: Mapping[str, float]
) -> float | None:
    """The embedding time that should complete every index (``pending``: excerpts left by model),
    a tenth more and rounded up to 5 s; a model with no pace of its own is priced from the others'
    by ``cost`` (seconds per excerpt relative to MiniLM's). None when none is pending or no model
    has a pace."""
    pending = {name: count for name, count in pending.items() if count > 0}
    if not pending or not measured:
        return None
    unit = min(m.per_excerpt / cost.get(name, 1.0) for name, m in measured.items())  # MiniLM's seconds per excerpt
    load = max(m.load for m in measured.values())  # a model not timed loads in about what the others took
    need = sum(
        (m.load + count * m.per_excerpt if (m := measured.get(name)) else load + count * unit * cost.get(name, 1.0))
        for name, count in pending.items()
    )
    return ROUND_TO * math.ceil(need * MARGIN / ROUND_TO)


def left_note(left: float, whose: str, budget: float, command: str = "kenning sync") -> str:
    """The sentence offering ``left`` seconds as one sync's budget (``whose``: the pace's sync); the
    plain command when the next sync's own ``budget`` covers them."""
    said = f"about {left:g} s of embedding left at {whose} pace: "
    if left <= budget:
        return said + f"`{command}` completes the index (its budget: {budget:g} s)"
    return said + f"`{command} --embed-budget {left:g}` completes the index in one sync"


def keep(state_dir: Path, measured: Mapping[str, Measured], models: Mapping[str, str]) -> None:
    """Keep this sync's paces (``models``: embedder → the model id that embedded) for ``kenning
    status``, over the last sync's for the same embedders. A project folder that cannot take the
    file (read-only) keeps nothing: the sync's report gave the estimate already."""
    if not measured or not state_dir.is_dir():
        return
    found = _read(state_dir)
    for name, pace in measured.items():
        found[name] = {"model": models[name], "per_excerpt": pace.per_excerpt, "load": pace.load}
    try:
        write_atomic(str(state_dir / KEPT), (json.dumps(found, sort_keys=True) + "\n").encode())
    except OSError:
        return


def kept(state_dir: Path, models: Mapping[str, str]) -> dict[str, Measured]:
    """The paces kept for the embedders of ``models`` (embedder → model id) by a sync of the same
    model; none for one another model embedded."""
    found = {}
    for name, pace in _read(state_dir).items():
        if name in models and isinstance(pace, dict) and pace.get("model") == models[name]:
            try:
                found[name] = Measured(float(pace["per_excerpt"]), float(pace["load"]))
            except (KeyError, TypeError, ValueError):
                continue
    return found


def _read(state_dir: Path) -> dict:
    try:
        data = json.loads((state_dir / KEPT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
