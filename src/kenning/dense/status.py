"""The dense engine as ``kenning status`` reports it: the installed models' weights, each index's
coverage and who built it, which questions are answered hybrid already when one index is complete
and the other not (``partly``), and how long the rest should take at the pace the last sync on this
machine kept (``seconds_left``, ``left``: ``dense.pace``)."""

from __future__ import annotations

from typing import Any

from kenning.dense import embed
from kenning.dense import manifest as dense_manifest
from kenning.dense import pace as dense_pace
from kenning.dense.index import COST, coverage, embedders, next_budget
from kenning.errors import DenseRefused
from kenning.project import Project
from kenning.store.db import Connection


def status(conn: Connection | None, project: Project) -> dict[str, Any]:
    """The dense engine for ``kenning status``: weights verified, each index's model and coverage;
    ``available`` only when every index is complete and built by the installed models."""
    try:
        chosen = embedders(project)
    except DenseRefused as exc:
        return {"available": False, "reason": f"dense refused: {exc.message}"}
    if conn is None:
        return {"available": False, "reason": "dense index not built: no index"}
    found: dict[str, Any] = {}
    reasons = []
    built: set[str] = set()  # the indexes the installed models built
    for name, embedder in chosen.items():
        cover = coverage(conn, name)
        found[name] = {
            "model": embedder.model_id,
            "weights_sha256": embedder.weights_sha256,
            "embedded": cover.embedded,
            "total": cover.total,
            "questions": embed.questions_of(name, chosen),
            "complete": False,
        }
        if cover.stored is None:
            reasons.append(f"dense index not built ({name}): run `kenning sync` (a sync with --no-embed builds none)")
            continue
        if dense_manifest.differences(cover.stored, embedder):
            reasons.append(
                f"dense index refused ({name}): built by {cover.stored['model_id']}; run `kenning sync` to reindex"
            )
            continue
        built.add(name)
        if not cover.complete:
            reasons.append(cover.reason())
        else:
            found[name]["complete"] = True  # the questions it embeds are answered hybrid (search.hybrid.serving)
    if reasons:
        partial = _partly_serving(found)
        return (
            {"available": False, "reason": "; ".join(reasons), "embedders": found}
            | partial
            | _left(project, found, built)
        )
    return {"available": True, "embedders": found}


def _left(project: Project, found: dict[str, Any], built: set[str]) -> dict[str, Any]:
    """``seconds_left`` and its sentence (``left``): the excerpts every index lacks, priced at the
    pace the last sync on this machine kept for the indexes the installed models built
    (``built``; one built by another model is rebuilt first); empty when none was kept."""
    paces = dense_pace.kept(project.state_dir, {name: found[name]["model"] for name in built})
    pending = {name: e["total"] - (e["embedded"] if name in built else 0) for name, e in found.items()}
    seconds = dense_pace.seconds_left(paces, pending, COST)
    if seconds is None:
        return {}
    return {"seconds_left": seconds, "left": dense_pace.left_note(seconds, "the last sync's", next_budget(project))}


def _partly_serving(found: dict[str, Any]) -> dict[str, str]:
    """``{"partly": sentence}`` when one model's index is complete and another's not: its
    questions are answered hybrid already (each question needs its own model's index), which a
    bare "dense off" would hide; empty otherwise."""
    done = [name for name, e in found.items() if e["complete"]]
    if not done or len(done) == len(found):
        return {}
    served = " and ".join(f"{found[name]['questions']} ({name})" for name in done)
    waiting = "; ".join(
        f"{e['questions']} questions lexical until {name}'s index is complete ({e['embedded']} of {e['total']})"
        for name, e in found.items()
        if not e["complete"]
    )
    return {"partly": f"questions in {served} answered hybrid; {waiting}"}
