"""Source dates from git. Of the files a sync reads (``ReadDates``): a file whose bytes are HEAD's
is dated by the last commit that touched it. Of the files a sync does not re-read: a file dated
by its mtime (modified or untracked when it was read) whose bytes a new commit made HEAD's is
dated by that commit.

Checked only when HEAD moved since the last sync; each such file is read (not parsed) to
compare its bytes with HEAD's, then one ``git ls-tree`` and one ``git log`` date them all
(``ingest.git_dates.commit_dates``)."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from pathlib import Path

from kenning.files import read_resolved_inside
from kenning.ingest import git_dates, git_history
from kenning.ingest.read import Parsed
from kenning.store import fact_sources
from kenning.store.db import Connection

_NO_HISTORY = (git_history.HistoryProblem.NOT_A_REPOSITORY, git_history.HistoryProblem.NO_GIT)


class ReadDates:
    """The commit dates of the files a sync reads, asked of git once (``git_dates.head_dates``:
    two processes), before the first batch that holds a file with excerpts is written: the sync
    writes files as they are parsed, before every file's bytes are known."""

    def __init__(self, root: Path, paths: Collection[str]) -> None:
        self._root, self._paths = root, paths
        self._head: dict[str, tuple[str, str]] | None = None

    def prepare(self, items: Iterable[Parsed]) -> None:
        """Ask git now (outside the write transaction) if one of ``items`` will need a date;
        not when this sync found no repository or no git (``git_history.head``, read before
        the first batch, recorded why: two more processes would fail the same way)."""
        if self._head is None and any(item.rows for item in items):
            no_history = git_history.problem(self._root) in _NO_HISTORY
            self._head = {} if no_history else git_dates.head_dates(self._root, self._paths)

    def of(self, item: Parsed) -> str | None:
        """The date of the last commit that touched the file, when the bytes read are HEAD's."""
        if not item.rows or self._head is None:
            return None
        entry = self._head.get(item.candidate.path)
        return entry[1] if entry is not None and entry[0] == item.blob else None


def commit_dates_of_unread(conn: Connection, root: Path, read: set[str]) -> dict[str, str]:
    """``path -> commit date`` for the mtime-dated files outside ``read`` that are HEAD's now."""
    root_real = os.path.realpath(root)
    blobs: dict[str, str | None] = {}
    for path in fact_sources.mtime_dated_paths(conn):
        if path in read:
            continue
        try:
            blobs[path] = git_dates.blob_id(read_resolved_inside(root_real, os.path.join(root, path)))
        except OSError:  # gone, unreadable, or a link out of the root (never read)
            continue
    return git_dates.commit_dates(root, blobs)


def apply(conn: Connection, dates: dict[str, str]) -> int:
    """Write the dates (inside the sync's transaction); the number of facts re-dated."""
    return sum(fact_sources.date_from_commit(conn, path, date) for path, date in sorted(dates.items()))
