"""Freshness, computed at read and never stored as truth (SPEC §5).

A file source is ``current`` when it re-reads with the fingerprint it had at indexing. The
check is cheap when the file's size and mtime still equal the manifest's (the same shortcut
git uses); otherwise the file is hashed again. A ledger record's source is the record, not
the append-only file: it re-reads as the last version of that record in the ledger
(``kenning.ledger``, below this module; nothing here imports ingest or the sync), and a
commit as ``git cat-file -e``. A fact with no re-readable source (a saved note, an oral decision) is never ``current``:
``unverified`` while its last confirmation is at most 270 days old, ``hypothesis`` after.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from kenning.clock import from_timestamp, iso, parse_iso
from kenning.files import inside_root
from kenning.records import Fact, Freshness, FreshnessState
from kenning.store.db import Connection
from kenning.store.sources import manifest_for

DEMOTE_AFTER_DAYS = 90
HYPOTHESIS_AFTER_DAYS = 270
_LEDGER_PATH = ".kenning/ledger.jsonl"  # kenning.ledger.LEDGER_PATH, not imported (start-up time)


@dataclass
class FileCheck:
    """Per-read cache: each path is stat-ed (and at most hashed) once per answer."""

    root: Path
    conn: Connection
    _manifest: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    _seen: dict[str, tuple[str | None, float | None]] = field(default_factory=dict)
    _commits: dict[str, bool] = field(default_factory=dict)
    _records: dict[str, dict[str, str]] = field(default_factory=dict)
    _stamp: tuple[datetime, str] | None = None

    def __post_init__(self) -> None:
        self._root = os.fspath(self.root)
        self._root_real = os.path.realpath(self._root)

    def checked(self, now: datetime) -> str:
        """``iso(now)``, formatted once for the many facts one answer checks at one now."""
        if self._stamp is None or self._stamp[0] != now:
            self._stamp = (now, iso(now))
        return self._stamp[1]

    def commit_exists(self, sha: str) -> bool:
        """True when the commit still reads in the project's repository (``git cat-file -e``)."""
        if sha not in self._commits:
            self._commits[sha] = _commit_reads(self._root, sha)
        return self._commits[sha]

    def preload(self, paths: Iterable[str]) -> None:
        wanted = [p for p in set(paths) if p not in self._manifest]
        for path, row in manifest_for(self.conn, wanted).items():
            self._manifest[path] = (row.size, row.mtime_ns, row.fingerprint)

    def changed(self, path: str) -> bool:
        """True when the file no longer reads with its manifest fingerprint."""
        known = self._manifest.get(path)
        return known is None or self._read(path)[0] != known[2]

    def located(self, path: str, uri: str) -> tuple[str | None, float | None]:
        """(current fingerprint or None if gone, file mtime in seconds) of one location: the
        file's, or for a ledger record (``.kenning/ledger.jsonl#task/T-1``) the record's."""
        current, mtime = self._read(path)
        if path != _LEDGER_PATH or "#" not in uri or current is None:
            return current, mtime
        if path not in self._records:
            from kenning.ledger import fingerprints  # only when a ledger fact is served (start-up time)

            self._records[path] = fingerprints(self.root / path)
        return (self._records[path].get(uri.split("#", 1)[1]), mtime)

    def _read(self, path: str) -> tuple[str | None, float | None]:
        if path in self._seen:
            return self._seen[path]
        full = os.path.join(self._root, path)
        try:
            if inside_root(self._root_real, full) is None:  # a link out of the project: never read
                raise FileNotFoundError(full)
            st = os.stat(full)
        except OSError:
            result: tuple[str | None, float | None] = (None, None)
        else:
            known = self._manifest.get(path)
            if known and known[0] == st.st_size and known[1] == st.st_mtime_ns:
                result = (known[2], st.st_mtime)
            else:
                try:
                    import hashlib  # here: only a file whose mtime moved is hashed (start-up time)

                    with open(full, "rb") as handle:
                        result = (hashlib.sha256(handle.read()).hexdigest(), st.st_mtime)
                except OSError:
                    result = (None, None)
        self._seen[path] = result
        return result


def _commit_reads(root: str, sha: str) -> bool:
    import subprocess  # here: only when a commit fact is served (start-up time)

    try:
        proc = subprocess.run(
            ["git", "-C", root, "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def freshness_of(fact: Fact, *, now: datetime, files: FileCheck | None) -> Freshness:
    checked = files.checked(now) if files is not None else iso(now)
    match fact.source.kind:
        case "file" if files is not None and fact.locations:
            return _file_freshness(fact, files, checked)
        case "commit" if files is not None:
            if files.commit_exists(fact.source.uri):
                return Freshness(FreshnessState.CURRENT, checked)
            return Freshness(
                FreshnessState.SOURCE_MISSING, checked, detail=f"commit {fact.source.uri[:12]} no longer reads"
            )
        case _:
            return _unsourced_freshness(fact, now, checked)


def _file_freshness(fact: Fact, files: FileCheck, checked: str) -> Freshness:
    states: list[tuple[FreshnessState, str | None, str]] = []
    for loc in fact.locations:
        current, mtime = files.located(loc.path, loc.uri)
        if current is None:
            states.append((FreshnessState.SOURCE_MISSING, None, loc.uri))
        elif current == loc.fingerprint:
            return Freshness(FreshnessState.CURRENT, checked)
        else:
            states.append((FreshnessState.STALE, from_timestamp(mtime) if mtime is not None else None, loc.uri))
    stale = [s for s in states if s[0] is FreshnessState.STALE]
    if stale:
        return Freshness(
            FreshnessState.STALE, checked, changed=stale[0][1], detail=f"{stale[0][2]} changed since indexing"
        )
    return Freshness(FreshnessState.SOURCE_MISSING, checked, detail=f"{states[0][2]} no longer reads")


def _unsourced_freshness(fact: Fact, now: datetime, checked: str) -> Freshness:
    reference = fact.dates.confirmed or fact.dates.indexed
    age = max(0, (now - parse_iso(reference)).days)
    if age > HYPOTHESIS_AFTER_DAYS:
        return Freshness(FreshnessState.HYPOTHESIS, checked, age_days=age, detail="not confirmed for over 270 days")
    return Freshness(FreshnessState.UNVERIFIED, checked, age_days=age, detail="no re-readable source")


def demotion(state: Freshness) -> float:
    """Ranking factor: stale and hypothesis facts go down, old unverified ones a little."""
    match state.state:
        case FreshnessState.STALE:
            return 0.5
        case FreshnessState.HYPOTHESIS:
            return 0.25
        case FreshnessState.UNVERIFIED if (state.age_days or 0) > DEMOTE_AFTER_DAYS:
            return 0.7
        case _:
            return 1.0
