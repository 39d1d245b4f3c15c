"""The vector index: built incrementally after each sync, searched exactly over a numpy matrix.

:func:`update` is the sync's one hook: it runs after the lexical sync has committed, embeds
the active excerpts that have no current vector (prose first, then code as its signature and
docstring), and commits every batch on its own — a killed sync loses one batch at most and
the next sync carries on. It stops after ``[dense] budget_seconds`` — by default
:data:`BUDGET_FACTOR` times the lexical sync's own duration, at least :data:`MIN_BUDGET_SECONDS`
— leaving the index *incomplete*: answers then say so and search lexically, and the next sync
continues (a sync that finds nothing new spends its whole budget embedding). The models share
that budget, the one nearest completion first (:func:`order`). :func:`embed_saved`
embeds a note as it is saved, when it is all a complete index lacks; :func:`embed_notes` keeps
the index of a store that holds notes only (the transverse memory, where no sync runs) whole at
every save. :func:`coverage` says where an index stands (``dense.status`` reports it to
``kenning status``); :func:`similarities` scores every vector against a question, over a matrix
loaded once per process, and :func:`nearest` keeps the best.
"""

from __future__ import annotations

import ctypes
import json
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kenning.clock import iso, utc_now
from kenning.dense import embed
from kenning.dense import manifest as dense_manifest
from kenning.dense import pace as dense_pace
from kenning.errors import UsageError
from kenning.project import CONFIG_HINT, Project
from kenning.store import vectors
from kenning.store.db import transaction
from kenning.store.handle import Connection

Progress = Callable[[str, int, int], None]
Pending = tuple[int, str, str, str, str, str]  # ``vectors.pending``'s rows
BATCH = 8  # MiniLM's peak memory grows with the batch (+200 MB at 16, +60 MB at 8); throughput does not
# Pending excerpts a sync reads at once and embeds shortest first, BATCH at a time: a batch is
# padded to its longest text, and code texts (CODE_CHARS at most) vary in length. This
# repository's whole index (bench/demo_syncs.py, 7,312 excerpts): MiniLM 142.7 s so, against
# 180.8 s in their order; the multilingual model 48.5 against 52.7 s (docs/benchmarks.md).
WINDOW = 64
# Embedding runs at tens of passages a second on 2 cores: an unbounded first sync of a large
# tree would take hours. By default each sync embeds for at most 1.75 times what its lexical
# part took, and at least 15 s (issue 14: a sync with dense ≤ 3× the lexical sync; at 2.0 the
# sync came out at 2.92× and 3.07× a separate lexical sync on a quiet machine, 2026-12-01).
BUDGET_FACTOR = 1.75
MIN_BUDGET_SECONDS = 15.0
# Seconds per excerpt, relative to MiniLM's (a custom model_path counts 1): the multilingual
# model embedded the demo's excerpts 3.6-4.1 times faster, wall and CPU (docs/benchmarks.md, densesave).
COST = {embed.MINILM: 1.0, embed.USE: 0.25}
BODY_CHARS = 1000  # MiniLM reads 128 word pieces, about 500 characters of English; USE reads more
CODE_CHARS = 400

_EMBEDDERS: dict[str, dict[str, embed.Embedder]] = {}
_MATRICES: dict[tuple[str, str], tuple[tuple[str, int], np.ndarray, np.ndarray]] = {}


@dataclass(frozen=True)
class Coverage:
    """How far one embedder's index covers the project's active excerpts."""

    embedder: str
    embedded: int
    total: int
    stored: dict[str, Any] | None

    @property
    def complete(self) -> bool:
        return self.stored is not None and self.embedded >= self.total

    def reason(self, command: str = "kenning sync") -> str:
        return (
            f"dense index incomplete: {self.embedded} of {self.total} excerpts embedded ({self.embedder}); "
            f"run `{command}` to continue"
        )


def settings(project: Project) -> dict[str, Any]:
    raw = project.config.extra.get("dense", {})
    if not isinstance(raw, dict):
        raise UsageError("[dense] in .kenning/config.toml must be a table", hint=CONFIG_HINT)
    return raw


def embedders(project: Project) -> dict[str, embed.Embedder]:
    """The project's embedders, loaded (and their weights verified) once per process."""
    config = settings(project)
    key = json.dumps([config.get("model_path"), bool(config.get("multilingual", True))])
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = embed.select(config)
    return _EMBEDDERS[key]


def text_of(kind: str, title: str, body: str, meta: str) -> str:
    """What an excerpt is embedded from: prose by its title and opening; code by its title,
    docstring and first lines (the signature), never the whole body."""
    if kind != "code":
        return f"{title}\n{body[:BODY_CHARS]}"
    try:
        doc = json.loads(meta or "{}").get("docstring") or ""
    except (ValueError, AttributeError):
        doc = ""
    head = "\n".join(body.splitlines()[:3])
    return f"{title}\n{doc}\n{head}"[:CODE_CHARS]


def update(
    conn: Connection,
    project: Project,
    progress: Progress | None = None,
    *,
    lexical_seconds: float = 0.0,
    command: str = "kenning sync",
    budget_seconds: float | None = None,
) -> dict[str, Any]:
    """Bring the vector index up to date after a sync; a summary for the sync report.
    ``budget_seconds``: this sync's embedding time (``kenning sync --embed-budget``), over
    ``[dense] budget_seconds`` and the default."""
    config = settings(project)
    default = max(MIN_BUDGET_SECONDS, BUDGET_FACTOR * lexical_seconds)
    budget = float(config.get("budget_seconds", default)) if budget_seconds is None else budget_seconds
    started = time.perf_counter()
    summary: dict[str, Any] = {"available": True, "embedders": {}, "notes": []}
    _return_freed_memory()
    chosen = embedders(project)
    dropped: dict[str, int] = {}
    for name, embedder in chosen.items():
        announced, dropped[name] = _prepare(conn, name, embedder)
        summary["notes"].extend(announced)
        summary["embedders"][name] = {}  # the report keeps the configuration's order
    batch_seconds = 0.0
    pace = dense_pace.Pace()
    covered = {name: vectors.coverage(conn, name) for name in chosen}  # one model's work leaves the other's as it was
    for name in order(covered):
        embedder = chosen[name]
        done, total = covered[name]
        phase = f"embedding ({name}, budget {budget:g} s)"
        own_start = time.perf_counter()
        # A batch starts only if it should end within the budget (the last batch's time as the guess).
        if progress and done < total and own_start - started + batch_seconds < budget:
            progress(phase, done, total)
        added = 0
        batches = _pending_batches(conn, name)  # read a window at a time, when the budget allows a batch
        while time.perf_counter() - started + batch_seconds < budget and (batch := next(batches, None)):
            rows, texts = batch
            batch_started = time.perf_counter()
            _embed(conn, name, embedder, rows, texts)
            batch_seconds = time.perf_counter() - batch_started
            pace.record(name, len(rows), batch_seconds)
            added += len(rows)
            if progress:
                progress(phase, done + added, total)
        embedder.release()  # one model in memory at a time
        embedded, total = vectors.coverage(conn, name)
        summary["embedders"][name] = {
            "model": embedder.model_id,
            "embedded": embedded,
            "total": total,
            "added": added,
            "dropped": dropped[name],
            "seconds": round(time.perf_counter() - own_start, 2),
        }
        if embedded < total:
            summary["notes"].append(
                Coverage(name, embedded, total, None).reason(command) + f" (budget of {budget:g} s per sync reached)"
            )
    summary["seconds"] = round(time.perf_counter() - started, 2)
    summary["budget_seconds"] = round(budget, 2)
    measured = pace.measured()
    dense_pace.keep(project.state_dir, measured, {name: e.model_id for name, e in chosen.items()})
    pending = {name: e["total"] - e["embedded"] for name, e in summary["embedders"].items()}
    left = dense_pace.seconds_left(measured, pending, COST)
    if left is not None:
        summary["seconds_left"] = left
        summary["notes"].append(dense_pace.left_note(left, "this sync's", next_budget(project), command))
    return summary


def next_budget(project: Project) -> float:
    """The least a later sync embeds for: ``[dense] budget_seconds``, else :data:`MIN_BUDGET_SECONDS`
    (a sync's default grows with its lexical time, never below it)."""
    return float(settings(project).get("budget_seconds", MIN_BUDGET_SECONDS))


def order(covered: dict[str, tuple[int, int]]) -> list[str]:
    """The embedders (name → ``vectors.coverage``: embedded, total) in the order a sync runs
    them: the one whose index should be complete soonest first (its pending excerpts times
    :data:`COST`), ties in the configuration's order.
    Each index serves its own questions (English ones MiniLM's, others the multilingual one's):
    finishing the shorter job first makes the first of them hybrid soonest, and the other
    waits only that job's time, instead of the multilingual index waiting until MiniLM's
    whole index is done (docs/benchmarks.md, densesave)."""
    remaining = {name: (total - done) * COST.get(name, 1.0) for name, (done, total) in covered.items()}
    return sorted(covered, key=lambda name: remaining[name])  # sorted is stable: ties keep their order


def embed_saved(conn: Connection, project: Project, fact_ids: Collection[int]) -> list[str]:
    """Embed facts just saved (a note, a memory, a session summary) with each of the project's
    models, when they are all its index lacks: one saved note leaves a complete index complete,
    and answers stay hybrid instead of lexical until the next sync. An index not built, built
    by another model, or lacking other excerpts is left to the sync (it is degraded already, and
    says so). Returns the embedders that embedded; a failure raises (the caller reports it)."""
    wanted = set(fact_ids)
    done = []
    for name, embedder in embedders(project).items():
        stored = vectors.manifest(conn, name)
        if stored is None or dense_manifest.differences(stored, embedder):
            continue
        rows = vectors.pending(conn, name, len(wanted) + 1)  # one more: any other excerpt pending shows
        if not rows or any(row[0] not in wanted for row in rows):
            continue
        _embed(conn, name, embedder, rows)
        done.append(name)
    return done


def embed_notes(conn: Connection, project: Project) -> list[str]:
    """Bring the whole index of a store that holds notes only up to date: the transverse memory
    (``KENNING_HOME/global``), which no sync reads, called at each save there and by
    `kenning sync --global`. Each model's index is built where it is not (or was built by another
    model), then every note it lacks is embedded — a backlog too (notes saved with ``--no-embed``,
    or before dense was installed): notes are few and short, so there is no budget. Returns the
    embedders whose index now holds every note; a failure raises (the caller reports it)."""
    done = []
    for name, embedder in embedders(project).items():
        _prepare(conn, name, embedder)
        tried: set[int] = set()
        while (rows := vectors.pending(conn, name, BATCH)) and not tried.issuperset(row[0] for row in rows):
            tried.update(row[0] for row in rows)  # a row still pending after its batch ends the loop
            _embed(conn, name, embedder, rows)
        embedded, total = vectors.coverage(conn, name)
        if embedded >= total:
            done.append(name)
    return done


def _prepare(conn: Connection, name: str, embedder: embed.Embedder) -> tuple[list[str], int]:
    """``name``'s index made ready for ``embedder``, in one transaction: built afresh where there
    is none or another model or configuration built it, then the vectors of retired or changed
    excerpts dropped. Returns the reindex's announcement (none for a first build) and how many
    vectors were dropped."""
    stored = vectors.manifest(conn, name)
    announced = []
    with transaction(conn):
        if stored is None or dense_manifest.differences(stored, embedder):
            if stored is not None:
                announced.append(dense_manifest.announce(stored, embedder))
            vectors.reset(conn, name, dense_manifest.expected(embedder), created=iso(utc_now()))
        dropped = vectors.drop_stale(conn, name)
    return announced, dropped


def _pending_batches(conn: Connection, name: str) -> Iterator[tuple[list[Pending], list[str]]]:
    """``name``'s pending excerpts in batches (``by_length``), :data:`WINDOW` read at a time."""
    while window := by_length(vectors.pending(conn, name, WINDOW)):
        yield from window


def by_length(rows: list[Pending]) -> list[tuple[list[Pending], list[str]]]:
    """``rows`` in batches of at most :data:`BATCH` with the texts they are embedded from, the
    shortest texts first (:data:`WINDOW`)."""
    texts = [text_of(kind, title, body, meta) for _, kind, title, body, meta, _ in rows]
    order = sorted(range(len(rows)), key=lambda i: len(texts[i]))
    return [
        ([rows[i] for i in order[at : at + BATCH]], [texts[i] for i in order[at : at + BATCH]])
        for at in range(0, len(order), BATCH)
    ]


def _embed(
    conn: Connection, name: str, embedder: embed.Embedder, rows: list[Pending], texts: list[str] | None = None
) -> None:
    """Embed pending rows (``vectors.pending``'s) and store their vectors, one transaction;
    ``texts``: theirs, when the caller has them (``text_of``)."""
    if texts is None:
        texts = [text_of(kind, title, body, meta) for _, kind, title, body, meta, _ in rows]
    matrix = embedder.encode(texts)
    with transaction(conn):
        vectors.put(conn, name, ((row[0], row[5], vec) for row, vec in zip(rows, matrix, strict=True)))


def _return_freed_memory() -> None:
    """Hand the heap the lexical sync freed back to the system before a model loads (glibc keeps
    it otherwise: 30 MB on Django, docs/benchmarks.md). A no-op off glibc."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):  # musl and others: no malloc_trim
        return


def coverage(conn: Connection, name: str) -> Coverage:
    embedded, total = vectors.coverage(conn, name)
    return Coverage(name, embedded, total, vectors.manifest(conn, name))


def nearest(
    conn: Connection, project: Project, embedder: embed.Embedder, question: str, k: int
) -> list[tuple[int, float]]:
    """The ``k`` active facts closest to the question, (fact id, cosine), best first. Refuses
    an index from another model or configuration (:func:`kenning.dense.manifest.check`)."""
    return top(*similarities(conn, project, embedder, question, pool=k), k)


def similarities(
    conn: Connection,
    project: Project,
    embedder: embed.Embedder,
    question: str,
    *,
    pool: int | None = None,
    also: Iterable[int] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """(fact ids sorted, cosine of each to the question): one product over the matrix loaded once
    per process. Refuses an index from another model or configuration.

    Given a ``pool``, a store with an approximate index (PostgreSQL with pgvector,
    ``vectors.approximate``) gives only its nearest candidates (at least ``pool``) and the facts
    of ``also``: each scored as the full product scores it (float32, over the same bytes; BLAS
    may sum a row in another order for another matrix shape: a unit in the last place), but a
    fact the index missed is absent."""
    dense_manifest.check(vectors.manifest(conn, embedder.name), embedder)
    if pool is not None and vectors.approximate(conn, embedder.name, embedder.dimension):
        query = embedder.encode([question])[0]
        ids, matrix = vectors.candidates(conn, embedder.name, embedder.dimension, query, pool, also)
        return ids, matrix @ query
    ids, matrix = _matrix(conn, project, embedder)
    if not len(ids):
        return ids, np.zeros(0, dtype=np.float32)
    return ids, matrix @ embedder.encode([question])[0]


def top(ids: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The ``k`` best (fact id, score), best first; ties go to the lower id."""
    k = min(k, len(ids))
    if k <= 0:
        return []
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.lexsort((ids[best], -scores[best]))]
    return [(int(ids[i]), float(scores[i])) for i in best]


def _matrix(conn: Connection, project: Project, embedder: embed.Embedder) -> tuple[np.ndarray, np.ndarray]:
    key = (str(project.db_path), embedder.name)
    token = vectors.state(conn, embedder.name)
    cached = _MATRICES.get(key)
    if cached is None or cached[0] != token:
        ids, matrix = vectors.load(conn, embedder.name, embedder.dimension)
        _MATRICES[key] = (token, ids, matrix)
        return ids, matrix
    return cached[1], cached[2]
