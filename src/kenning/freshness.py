"""Freshness, computed at read and never stored as truth (SPEC §5).

Freshness is per excerpt: each location keeps the fingerprint of its own span. An excerpt
whose file re-reads with the fingerprint the manifest holds is ``current`` — cheap when the
file's size and mtime still equal the manifest's (the same shortcut git uses); otherwise the
file is hashed again. A changed file is re-split as a sync would cut it now, by the
``split`` its caller passes in (``ingest.spans.split``: freshness imports no parser), once per
file content (a process keeps the last ones): a span still
there is ``current``, a span whose key (symbol, section) is there with other text is
``stale``, a span gone is ``source_missing``. A ledger record's source is the record, not the append-only file: it
re-reads as the last version of that record in the ledger (``kenning.ledger``), and a
commit as ``git cat-file -e``. A fact with no re-readable source (a saved note, an oral decision) is never ``current``:
``unverified`` while its last confirmation is at most 270 days old, ``hypothesis`` after.

A PostgreSQL store (level 2) is shared by machines that may not hold the project's files (an
agent host, a second machine with another project's checkout, a cockpit served elsewhere):
when none of the indexed files' top-level entries is under the project's root, the sources
are not on this machine, and a file or commit excerpt is ``unverified`` (``NOT_HERE``: as the
last sync indexed it) instead of ``source_missing`` — which answers hide, and which it is not.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from kenning.bounded import keep
from kenning.clock import from_timestamp, iso, parse_iso
from kenning.files import none_here, read_resolved_inside, stat_inside
from kenning.records import Answer, Fact, Freshness, FreshnessState, Location, Spans, span_key
from kenning.store.db import Connection
from kenning.store.sources import manifest_for

DEMOTE_AFTER_DAYS = 90
HYPOTHESIS_AFTER_DAYS = 270
_LEDGER_PATH = ".kenning/ledger.jsonl"  # kenning.ledger.LEDGER_PATH, not imported (start-up time)
# The spans of changed files, by (path, sha256 of the bytes split): exact whatever the clock,
# and shared by the answers of a long-lived process (MCP server, cockpit). Oldest out first.
SPLIT_CACHE_FILES = 256
# The detail of an excerpt whose sources this machine has not got (see the module doc), and
# the degradation of an answer holding one.
NOT_HERE = "the project's files are not on this machine: not checked, as the last sync indexed it"
NOT_HERE_DEGRADATION = (
    "freshness not checked: the project's files are not on this machine (excerpts as the last sync indexed them)"
)
_SPLIT: dict[tuple[str, str], Spans | None] = {}
_UNSPLIT = object()
_HEX_DIGITS = frozenset("0123456789abcdef")


@dataclass
class FileCheck:
    """Per-read cache: each path is stat-ed (and at most hashed) once per answer. ``split`` cuts
    a changed file's bytes into spans as a sync would (``ingest.spans.split``)."""

    root: Path
    conn: Connection
    split: Callable[[str, bytes], Spans | None]
    _manifest: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    _seen: dict[str, tuple[str | None, float | None]] = field(default_factory=dict)
    _commits: dict[str, bool] = field(default_factory=dict)
    _records: dict[str, dict[str, str]] = field(default_factory=dict)
    _spans: dict[str, Spans | None] = field(default_factory=dict)
    _stamp: tuple[datetime, str] | None = None
    _elsewhere: bool | None = None

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
            self._commits[sha] = commit_reads(self._root, sha)
        return self._commits[sha]

    def preload_commits(self, shas: Iterable[str]) -> None:
        """Ask git once whether each of ``shas`` (commit ids) reads, before ``commit_exists``
        asks them one by one (a process each: 384 of them, half a second, for gin's "how to test
        a handler" at ``limit`` 100)."""
        wanted = sorted({sha for sha in shas if sha not in self._commits and _is_hex_id(sha)})
        if len(wanted) > 1:
            self._commits.update(commits_reading(self._root, wanted))

    def elsewhere(self, missing: str | None = None) -> bool:
        """True when the indexed files are not on this machine (a PostgreSQL store whose
        files' top-level entries are all absent from the root; the module doc). Asked only once
        a file (``missing``) or a commit reads missing; never of a SQLite store, whose index
        was written from this root. Told without a query when a file of this answer read, or
        when the missing file's own top-level entry is there (a file deleted in a checkout);
        else the manifest's paths are read once per answer (60,000 paths: about 50 ms)."""
        if self._elsewhere is None:
            if any(found is not None for path, (found, _) in self._seen.items() if path != _LEDGER_PATH):
                return False  # a file read here: the checkout is here (not kept: cheap to ask again)
            top = missing.split("/", 1)[0] if missing else None
            if top and os.path.lexists(os.path.join(self._root, top)):
                return False
            self._elsewhere = files_elsewhere(self.root, self.conn)
        return self._elsewhere

    def preload(self, paths: Iterable[str]) -> None:
        wanted = [p for p in set(paths) if p not in self._manifest]
        for path, row in manifest_for(self.conn, wanted).items():
            self._manifest[path] = (row.size, row.mtime_ns, row.fingerprint)

    def changed(self, path: str) -> bool:
        """True when the file no longer reads with its manifest fingerprint."""
        if path not in self._manifest:
            self.preload([path])
        known = self._manifest.get(path)
        return known is None or self._read(path)[0] != known[2]

    def spans(self, path: str) -> Spans | None:
        """The spans a changed file gives now (re-split once per answer); None when unknown."""
        if path not in self._spans:
            self._spans[path] = self._split(path)
        return self._spans[path]

    def _split(self, path: str) -> Spans | None:
        try:
            data = read_resolved_inside(self._root_real, os.path.join(self._root, path))
        except OSError:
            return None
        import hashlib  # here: only a changed file is re-split (start-up time)

        key = (path, hashlib.sha256(data).hexdigest())
        cached = _SPLIT.get(key, _UNSPLIT)
        if cached is not _UNSPLIT:
            return cached  # type: ignore[return-value]
        found = self.split(path, data)
        keep(_SPLIT, key, found, SPLIT_CACHE_FILES)
        return found

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
            st = stat_inside(self._root_real, path)
            if st is None:  # a link out of the project: never read
                raise FileNotFoundError(full)
        except OSError:
            result: tuple[str | None, float | None] = (None, None)
        else:
            known = self._manifest.get(path)
            if known and known[0] == st.st_size and known[1] == st.st_mtime_ns:
                result = (known[2], st.st_mtime)
            else:
                try:
                    import hashlib  # here: only a file whose mtime moved is hashed (start-up time)

                    data = read_resolved_inside(self._root_real, full)
                    result = (hashlib.sha256(data).hexdigest(), st.st_mtime)
                except OSError:
                    result = (None, None)
        self._seen[path] = result
        return result


def files_elsewhere(root: Path, conn: Connection) -> bool:
    """True when ``conn`` is a PostgreSQL store whose indexed files are not under ``root``:
    none of their top-level entries (``docs``, ``src``, ``README.md``…) is there. A SQLite
    store's index was written from this root: never."""
    from kenning.store.lookups import manifest_paths  # only when a source reads missing, or a sync
    from kenning.store.postgres.connection import is_pg

    if not is_pg(conn):
        return False
    return none_here(os.fspath(root), manifest_paths(conn))


def commit_reads(root: str, sha: str) -> bool:
    """Whether commit ``sha`` reads in the git repository at or above ``root``."""
    import subprocess  # here: only when a commit fact is served (start-up time)

    try:
        proc = subprocess.run(
            ["git", "-C", root, "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def _is_hex_id(sha: str) -> bool:
    """Whether ``sha`` is a commit id as a sync stores it (lower-case hexadecimal): one line of
    ``git cat-file --batch-check``'s input, which nothing else in it can break."""
    return 4 <= len(sha) <= 64 and _HEX_DIGITS.issuperset(sha)


def commits_reading(root: str, shas: list[str]) -> dict[str, bool]:
    """Whether each of ``shas`` (hexadecimal ids) reads as a commit in the git repository at or
    above ``root``, in one ``git cat-file --batch-check``; each False when git cannot be asked.
    (``ingest.git_history`` asks git the same for a sync; freshness imports nothing of ingest.)"""
    import subprocess  # here: only when commit facts are served (start-up time)

    lines = "".join(f"{sha}^{{commit}}\n" for sha in shas)
    try:
        proc = subprocess.run(
            ["git", "-C", root, "cat-file", "--batch-check"],
            input=lines,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return dict.fromkeys(shas, False)
    answers = proc.stdout.splitlines() if proc.returncode == 0 else []
    if len(answers) != len(shas):  # not git's one line per id: none told
        return dict.fromkeys(shas, False)
    return {sha: answer.split(" ")[1:2] == ["commit"] for sha, answer in zip(shas, answers, strict=True)}


def freshness_of(fact: Fact, *, now: datetime, files: FileCheck | None) -> Freshness:
    checked = files.checked(now) if files is not None else iso(now)
    match fact.source.kind:
        case "file" if files is not None and fact.locations:
            found = _file_freshness(fact, files, checked)
            if found.state is FreshnessState.SOURCE_MISSING and files.elsewhere(fact.locations[0].path):
                return _not_here(fact, now, checked)
            return found
        case "commit" if files is not None:
            if files.commit_exists(fact.source.uri):
                return Freshness(FreshnessState.CURRENT, checked)
            if files.elsewhere():
                return _not_here(fact, now, checked)
            return Freshness(
                FreshnessState.SOURCE_MISSING, checked, detail=f"commit {fact.source.uri[:12]} no longer reads"
            )
        case _:
            return _unsourced_freshness(fact, now, checked)


def _file_freshness(fact: Fact, files: FileCheck, checked: str) -> Freshness:
    """``current`` when one location still holds the excerpt's span; else ``stale`` when one
    holds a span of the same key with other text; else ``source_missing``."""
    stale: tuple[str | None, str] | None = None  # (change date, uri) of the first stale location
    missing: str | None = None
    for loc in fact.locations:
        state, why = _location_state(fact, loc, files)
        if state is FreshnessState.CURRENT:
            return Freshness(FreshnessState.CURRENT, checked)
        if state is FreshnessState.STALE and stale is None:
            mtime = files.located(loc.path, loc.uri)[1]
            stale = (from_timestamp(mtime) if mtime is not None else None, loc.uri)
        elif missing is None:
            missing = f"{loc.uri} {why}"
    if stale is not None:
        return Freshness(FreshnessState.STALE, checked, changed=stale[0], detail=f"{stale[1]} changed since indexing")
    return Freshness(FreshnessState.SOURCE_MISSING, checked, detail=missing)


def _location_state(fact: Fact, loc: Location, files: FileCheck) -> tuple[FreshnessState, str]:
    """One location's state, and for a missing one why: its file no longer reads, or its span is gone."""
    current, _ = files.located(loc.path, loc.uri)
    if current is None:
        return FreshnessState.SOURCE_MISSING, "no longer reads"
    if loc.path == _LEDGER_PATH and "#" in loc.uri:  # the record's own fingerprint
        return (FreshnessState.CURRENT if current == loc.fingerprint else FreshnessState.STALE), ""
    if not files.changed(loc.path):
        return FreshnessState.CURRENT, ""
    spans = files.spans(loc.path)
    if spans is None:  # no parser could tell: the file changed, the span may have
        return FreshnessState.STALE, ""
    if loc.fingerprint in spans.fingerprints:
        return FreshnessState.CURRENT, ""
    if span_key(loc.uri[len(loc.path) :], fact.meta.get("symbol"), fact.title) in spans.keys:
        return FreshnessState.STALE, ""
    return FreshnessState.SOURCE_MISSING, "is gone"


def _not_here(fact: Fact, now: datetime, checked: str) -> Freshness:
    """A file or commit excerpt whose sources this machine has not got: unverified since it
    was indexed (or confirmed), as a saved note is, saying why."""
    return replace(_unsourced_freshness(fact, now, checked), detail=NOT_HERE)


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


def not_here(answer: Answer) -> Answer:
    """``answer`` with ``NOT_HERE_DEGRADATION`` (once) when one of its excerpts could not be
    checked on this machine."""
    if NOT_HERE_DEGRADATION in answer.degradations or not any(e.freshness.detail == NOT_HERE for e in answer.excerpts):
        return answer
    return replace(answer, degradations=(*answer.degradations, NOT_HERE_DEGRADATION))
