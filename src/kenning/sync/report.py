"""What one sync did, as ``kenning sync`` reports it (and ``sync_runs`` logs it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

GRAPH_FAILED_NAMED = 20  # the files ``to_json`` names among those whose graph failed (path order)


@dataclass
class SyncReport:
    project: str
    discovery: str
    eligible: int = 0
    indexed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)  # reason -> the first paths (discovery's)
    unsupported: Counter[str] = field(default_factory=Counter)  # unsupported_type's suffixes (discovery's)
    files_new: int = 0
    files_changed: int = 0
    files_touched: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    added: int = 0
    replaced: int = 0
    retired: int = 0
    kept: int = 0
    deduplicated: int = 0
    # The ledger's records, apart from the files' excerpts: graph.projections.LedgerChanges's counts,
    # copied by the last batch (importing that class here would load the store's writing half
    # before the parsing pool starts: tests/ingest/test_sync_start.py).
    ledger_added: int = 0
    ledger_changed: int = 0
    ledger_retired: int = 0
    ledger_kept: int = 0
    writes: int = 0
    batches: int = 0  # write transactions committed (sync.batches)
    retired_uris: list[str] = field(default_factory=list)
    graph: dict[str, int] = field(default_factory=dict)
    # path -> the error raised while the graph took in or resolved its relations: kenning's bug on
    # that file, which the sync outlived (its excerpts indexed, its references without edges)
    graph_failed: dict[str, str] = field(default_factory=dict)
    dense: dict[str, Any] = field(default_factory=dict)  # level 1: kenning.dense.update's summary

    def skip(self, reason: str, path: str) -> None:
        """Count ``path`` as skipped for ``reason`` (a file discovery kept, its reading refused),
        and name it among the first (``ingest.discover.SKIPPED_NAMED``)."""
        from kenning.ingest.discover import note_skip

        note_skip(self.skipped, self.skipped_paths, reason, path)

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "discovery": self.discovery,
            "coverage": {
                "eligible": self.eligible,
                "indexed": self.indexed,
                "skipped": dict(sorted(self.skipped.items())),
                "skipped_paths": {reason: sorted(self.skipped_paths[reason]) for reason in sorted(self.skipped_paths)},
                "unsupported_suffixes": dict(sorted(self.unsupported.items(), key=lambda item: (-item[1], item[0]))),
            },
            "files": {
                "new": self.files_new,
                "changed": self.files_changed,
                "touched": self.files_touched,
                "unchanged": self.files_unchanged,
                "removed": self.files_removed,
            },
            "excerpts": {
                "added": self.added,
                "replaced": self.replaced,
                "retired": self.retired,
                "kept": self.kept,
                "deduplicated": self.deduplicated,
            },
            "ledger": {
                "added": self.ledger_added,
                "changed": self.ledger_changed,
                "retired": self.ledger_retired,
                "kept": self.ledger_kept,
            },
            "retired_uris": self.retired_uris,
            "graph": dict(self.graph),
            "graph_failed": {
                "files": len(self.graph_failed),
                "first": {path: self.graph_failed[path] for path in sorted(self.graph_failed)[:GRAPH_FAILED_NAMED]},
            },
            "writes": self.writes,
            "batches": self.batches,
            "dense": self.dense,
        }
