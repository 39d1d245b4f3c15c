"""Strict search and lenient recall (SPEC §6).

A match is *strong* when every significant term of the query (stop words dropped, see
``search/query.py``) starts a word somewhere in the fact: its title, keywords, path or body,
compared without case or accents ("token" is found in "tokens", not in "detokenize"). A
single-term query has only strong matches. Strict search serves strong matches only and says
how many weak ones (some terms, not all) it withheld among the best ``layers.POOL``
candidates; lenient recall serves the best it has, each with its score.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import datetime

from kenning.ingest.identifiers import keywords_for
from kenning.memory.layers import POOL, Scope, find
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Excerpt
from kenning.search.snippet import fold
from kenning.store.handle import Connection


@dataclass(frozen=True)
class Strict:
    answer: Answer
    withheld: int  # weak matches not served
    pool_full: bool  # the candidate pool was full: more weak matches may exist


def is_strong(ex: Excerpt, terms: tuple[str, ...]) -> bool:
    fact = ex.fact
    paths = " ".join(loc.path for loc in fact.locations)
    text = fold(
        " ".join((fact.title, keywords_for(fact.title), fact.body, paths, fact.source.uri, " ".join(fact.tags)))
    )
    return all(re.search(r"(?<!\w)" + re.escape(fold(term)), text) for term in terms)


def strict(conn: Connection, project: Project, query: str, scope: Scope, limit: int, *, now: datetime) -> Strict:
    answer, parsed = find(conn, project, query, scope, limit, now=now, pool=POOL)
    strong = [ex for ex in answer.excerpts if is_strong(ex, parsed.terms)]
    weak = len(answer.excerpts) - len(strong)
    served = tuple(dataclasses.replace(ex, rank=rank) for rank, ex in enumerate(strong[:limit], start=1))
    notes = list(answer.notes)
    if len(strong) > limit:
        notes.append(f"more strong matches beyond limit {limit}")
    if weak:
        notes.append(f"withheld {weak} weak match(es) that lack some query terms; use recall to see them")
    empty = answer.empty_reason
    if not served and empty is None:
        empty = EmptyReason.NO_MATCH
    filtered = dict(answer.filtered)
    if weak:
        filtered["weak_match"] = weak
    result = dataclasses.replace(
        answer, excerpts=served, mode="strict", notes=tuple(notes), empty_reason=empty, filtered=filtered
    )
    return Strict(result, weak, len(answer.excerpts) >= POOL)


def lenient(conn: Connection, project: Project, query: str, scope: Scope, limit: int, *, now: datetime) -> Answer:
    answer, _ = find(conn, project, query, scope, limit, now=now)
    return dataclasses.replace(answer, mode="lenient")
