"""Source dates of files a sync does not re-read: a file dated by its mtime (modified or
untracked when it was read) whose bytes a new commit made HEAD's is dated by that commit.

Checked only when HEAD moved since the last sync; each such file is read (not parsed) to
compare its bytes with HEAD's, then one ``git ls-tree`` and one ``git log`` date them all
(``ingest.git_history.commit_dates``)."""

from __future__ import annotations

import os
from pathlib import Path

from kenning.files import read_resolved_inside
from kenning.ingest import git_history
from kenning.store import facts as fact_store
from kenning.store.db import Connection


def commit_dates_of_unread(conn: Connection, root: Path, read: set[str]) -> dict[str, str]:
    """``path -> commit date`` for the mtime-dated files outside ``read`` that are HEAD's now."""
    root_real = os.path.realpath(root)
    blobs: dict[str, str | None] = {}
    for path in fact_store.mtime_dated_paths(conn):
        if path in read:
            continue
        try:
            blobs[path] = git_history.blob_id(read_resolved_inside(root_real, os.path.join(root, path)))
        except OSError:  # gone, unreadable, or a link out of the root (never read)
            continue
    return git_history.commit_dates(root, blobs)


def apply(conn: Connection, dates: dict[str, str]) -> int:
    """Write the dates (inside the sync's transaction); the number of facts re-dated."""
    return sum(fact_store.date_from_commit(conn, path, date) for path, date in sorted(dates.items()))
