"""The measures of SPEC §14 over one project store. Each rate is ``None`` when its
denominator is zero; counts are always given beside it."""

from __future__ import annotations

import hashlib
import subprocess
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from kenning import ledger
from kenning.bench.questions import Question
from kenning.ingest.discover import discover
from kenning.ingest.encoding import decode_source
from kenning.project import Project
from kenning.records import Excerpt, FreshnessState, Lifecycle
from kenning.store import bench as bench_store
from kenning.store import lookups
from kenning.store.handle import Connection

KS = (1, 5, 10)


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def coverage(project: Project, conn: Connection) -> dict:
    """Eligible files (a fresh discovery) against the manifest, and orphan excerpts: active
    file excerpts with no location left."""
    found = discover(project)
    eligible = {c.path for c in found.candidates}
    manifest = set(lookups.manifest_paths(conn))
    orphans = bench_store.orphan_count(conn)
    active = bench_store.active_count(conn)
    indexed = len(eligible & manifest)
    return {
        "eligible_files": len(eligible),
        "indexed_files": indexed,
        "rate": rate(indexed, len(eligible)),
        "not_indexed": sorted(eligible - manifest)[:20],
        "not_indexed_count": len(eligible - manifest),
        "indexed_no_longer_eligible": len(manifest - eligible),
        "skipped": dict(sorted(found.skipped.items())),
        "active_excerpts": active,
        "orphan_excerpts": orphans,
        "orphan_rate": rate(orphans, active),
    }


def served_checks(project: Project, conn: Connection, served: dict[int, Excerpt]) -> dict:
    """Attribution, served freshness and superseded served, over the distinct excerpts the
    bench questions were served. Each is checked again independently of the search path:
    the source file is re-read and hashed, the lifecycle re-read from the store."""
    states: Counter[str] = Counter()
    verified = 0
    unverifiable = 0
    wrongly_current = 0
    missing_served = 0
    superseded_served = 0
    hashes: dict[str, tuple[str, str] | None] = {}
    records: dict[str, dict[str, str]] = {}
    lifecycles = bench_store.lifecycles(conn, list(served))
    for fact_id in sorted(served):
        excerpt = served[fact_id]
        states[excerpt.freshness.state.value] += 1
        ok = _source_verifies(project.root, excerpt, hashes, records)
        if ok is None:
            unverifiable += 1
        elif ok:
            verified += 1
        if excerpt.freshness.state is FreshnessState.CURRENT and ok is False:
            wrongly_current += 1
        if excerpt.freshness.state is FreshnessState.SOURCE_MISSING:
            missing_served += 1
        if lifecycles.get(fact_id) != Lifecycle.ACTIVE.value:
            superseded_served += 1
    total = len(served)
    return {
        "attribution": {
            "served_excerpts": total,
            "verified": verified,
            "without_rereadable_source": unverifiable,
            "rate": rate(verified, total),
        },
        "served_freshness": {
            "served_excerpts": total,
            "by_state": dict(sorted(states.items())),
            "stale_or_missing_served_as_current": wrongly_current,
            "source_missing_served": missing_served,
            "rate": rate(wrongly_current, total),
            "target": 0,
        },
        "superseded_served": {
            "served_excerpts": total,
            "not_active": superseded_served,
            "rate": rate(superseded_served, total),
            "target": 0,
        },
    }


def _source_verifies(
    root: Path,
    excerpt: Excerpt,
    hashes: dict[str, tuple[str, str] | None],
    records: dict[str, dict[str, str]],
) -> bool | None:
    """True when some location re-reads as indexed — the cited file with the source's sha256,
    or any location's file still holding the excerpt's text word for word (a location keeps
    its span's fingerprint, not its file's); a ledger record (``.kenning/ledger.jsonl#task/T-1``)
    when the record's last version in the ledger still has the location's fingerprint (the
    fingerprint of the record, not of the append-only file); a commit: when git still has it;
    None without a re-readable source."""
    fact = excerpt.fact
    if fact.source.kind == "commit":
        probe = subprocess.run(
            ["git", "-C", str(root), "cat-file", "-e", f"{fact.source.uri}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        return probe.returncode == 0
    if fact.source.kind != "file" or not fact.locations:
        return None
    for loc in fact.locations:
        if loc.path == ledger.LEDGER_PATH and "#" in loc.uri:
            if loc.path not in records:
                records[loc.path] = ledger.fingerprints(root / loc.path)
            if records[loc.path].get(loc.uri.split("#", 1)[1]) == loc.fingerprint:
                return True
            continue
        if loc.path not in hashes:
            try:
                data = (root / loc.path).read_bytes()
            except OSError:
                hashes[loc.path] = None
            else:
                hashes[loc.path] = (hashlib.sha256(data).hexdigest(), decode_source(data))
        found = hashes[loc.path]
        if found is not None and (
            (loc.uri == fact.source.uri and found[0] == fact.source.fingerprint)
            or (fact.body and fact.body in found[1])
        ):
            return True
    return False


def retrieval(questions: Sequence[Question], ranked: Sequence[Sequence[int]]) -> dict:
    """Recall@k (an accepted excerpt among the first k) and MRR, overall and per kind."""
    groups: dict[str, list[tuple[Question, Sequence[int]]]] = {"all": []}
    for question, ids in zip(questions, ranked, strict=True):
        groups["all"].append((question, ids))
        groups.setdefault(question.kind, []).append((question, ids))
    return {name: _scores(rows) for name, rows in groups.items()}


def _scores(rows: list[tuple[Question, Sequence[int]]]) -> dict:
    first: list[int | None] = []
    for question, ids in rows:
        accepted = set(question.accepted)
        first.append(next((rank for rank, i in enumerate(ids, 1) if i in accepted), None))
    n = len(rows)
    out: dict[str, object] = {"questions": n}
    for k in KS:
        out[f"recall@{k}"] = rate(sum(1 for r in first if r is not None and r <= k), n)
    out["mrr"] = round(sum(1 / r for r in first if r is not None) / n, 4) if n else None
    return out
