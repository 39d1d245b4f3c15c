"""The speed section of `kenning bench --speed`: figures that vary run to run, kept apart
from the deterministic report. The project's own store is only read: sync throughput is
measured on a copy of its eligible files in a temporary directory (on PostgreSQL, synced
under a throwaway project deleted afterwards: ``store.db.scratch_name``)."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from kenning.answer.search import SearchOptions, search_conn
from kenning.ingest.discover import discover
from kenning.project import Project
from kenning.search.query import parse
from kenning.store.db import Connection, scratch_name
from kenning.sync.run import sync


def measure(project: Project, conn: Connection, questions: list[str], *, now: datetime) -> dict:
    found = discover(project)
    size = sum(c.size for c in found.candidates)
    with tempfile.TemporaryDirectory(prefix="kenning-bench-") as tmp, scratch_name(project) as name:
        copy_root = Path(tmp) / "copy"
        for cand in found.candidates:
            target = copy_root / cand.path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cand.abs_path, target)
        copy = Project(copy_root, replace(project.config, name=name))
        started = time.perf_counter()
        sync(copy, now=now)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        sync(copy, now=now)
        noop = time.perf_counter() - started
    latencies = []
    options = SearchOptions(limit=10)
    for text in questions:
        started = time.perf_counter()
        search_conn(conn, project, parse(text), options, now=now)
        latencies.append((time.perf_counter() - started) * 1000)
    return {
        "files": len(found.candidates),
        "bytes": size,
        "cold_sync_seconds": round(cold, 3),
        "sync_files_per_second": round(len(found.candidates) / cold, 1) if cold > 0 else None,
        "sync_mb_per_second": round(size / 1e6 / cold, 2) if cold > 0 else None,
        "noop_resync_ms": round(noop * 1000, 1),
        "queries": len(latencies),
        "query_ms_p50": round(quantile(latencies, 0.50), 2) if latencies else None,
        "query_ms_p95": round(quantile(latencies, 0.95), 2) if latencies else None,
    }


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0.5, 0.95…) of at least one value, interpolated (the benchmark
    scripts in bench/ use this one too)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]
