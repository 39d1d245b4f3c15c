"""Source dates of files a sync does not re-read: a file dated by its mtime (modified or
untracked when it was read) whose bytes a new commit made HEAD's is dated by that commit.

Checked only when HEAD moved since the last sync; each such file is read (not parsed) to
compare its bytes with HEAD's, then one ``git ls-tree`` and one ``git log`` date them all
(``ingest.git_history.commit_dates``)."""

from __future__ import annotations

import os
from pathlib import Path

from kenning.files import inside_root
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
        full = os.path.join(root, path)
        if inside_root(root_real, full) is None:
            continue
        try:
            with open(full, "rb") as handle:
                blobs[path] = git_history.blob_id(handle.read())
        except OSError:
            continue
    return git_history.commit_dates(root, blobs)


def apply(conn: Connection, dates: dict[str, str]) -> int:
    """Write the dates (inside the sync's transaction); the number of facts re-dated."""
    return sum(fact_store.date_from_commit(conn, path, date) for path, date in sorted(dates.items()))
