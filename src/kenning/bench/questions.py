"""Questions generated from the store with a fixed seed, each with the excerpts that answer it.

Templates (SPEC §14): a section title gives "what does it say about X?", a symbol "where is X
defined?", a decision "why X?", a declared edge "what links X to Y?". A question accepts
every active excerpt carrying the same title or symbol, so a name used twice does not count
against the search.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass

from kenning.bench.optional import DeclaredEdge
from kenning.store import bench as bench_store
from kenning.store.handle import Connection

KINDS = ("section", "symbol", "decision", "edge")
_PART = re.compile(r"\s+\(part \d+\)$")


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    expected: int  # the excerpt the question was generated from
    accepted: tuple[int, ...]  # every excerpt that answers it, sorted
    edge: tuple[str, str, str] | None = None  # (source, target, type) of an edge question


def generate(conn: Connection, seed: int, per_kind: int, edges: list[DeclaredEdge] | None) -> list[Question]:
    """Up to ``per_kind`` questions of each kind, sampled with ``random.Random(seed)`` from
    candidates in a stable order; same store and seed, same questions."""
    rng = random.Random(seed)
    questions: list[Question] = []
    questions += _sample(rng, _section_candidates(conn), per_kind, "section", "what does it say about {}?")
    questions += _sample(rng, _symbol_candidates(conn), per_kind, "symbol", "where is {} defined?")
    questions += _sample(rng, _decision_candidates(conn), per_kind, "decision", "why {}?")
    if edges:
        questions += _edge_questions(rng, edges, per_kind)
    return questions


def _section_candidates(conn: Connection) -> dict[str, list[int]]:
    return _by_title(bench_store.section_titles(conn))


def _decision_candidates(conn: Connection) -> dict[str, list[int]]:
    return _by_title(bench_store.decision_titles(conn))


def _by_title(titles: list[tuple[int, str]]) -> dict[str, list[int]]:
    """Fact ids grouped by the last part of their title (the heading)."""
    by_name: dict[str, list[int]] = defaultdict(list)
    for fact_id, title in titles:
        name = _PART.sub("", title).split(" > ")[-1].strip()
        if _usable(name):
            by_name[name].append(fact_id)
    return by_name


def _symbol_candidates(conn: Connection) -> dict[str, list[int]]:
    by_name: dict[str, list[int]] = defaultdict(list)
    for fact_id, meta in bench_store.code_metas(conn):
        info = json.loads(meta or "{}")
        if info.get("kind") in (None, "module") or not info.get("symbol"):
            continue
        name = str(info["symbol"]).split(".")[-1]
        if _usable(name):
            by_name[name].append(fact_id)
    return by_name


def _usable(name: str) -> bool:
    return bool(re.search(r"\w", name)) and len(name) <= 200


def _sample(
    rng: random.Random, candidates: dict[str, list[int]], per_kind: int, kind: str, template: str
) -> list[Question]:
    names = sorted(candidates, key=lambda n: (min(candidates[n]), n))
    chosen = rng.sample(names, min(per_kind, len(names)))
    out = []
    for name in chosen:
        ids = sorted(candidates[name])
        out.append(Question(kind, template.format(name), ids[0], tuple(ids)))
    return out


def _edge_questions(rng: random.Random, edges: list[DeclaredEdge], per_kind: int) -> list[Question]:
    usable = sorted(
        (e for e in edges if e.fact_ids and _usable(e.source) and _usable(e.target)),
        key=lambda e: (e.source, e.target, e.type),
    )
    chosen = rng.sample(usable, min(per_kind, len(usable)))
    return [
        Question(
            "edge",
            f"what links {e.source} to {e.target}?",
            min(e.fact_ids),
            tuple(sorted(set(e.fact_ids))),
            (e.source, e.target, e.type),
        )
        for e in chosen
    ]
