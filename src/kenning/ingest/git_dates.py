"""Source dates from git: the date of the last commit that touched each file whose bytes are
HEAD's (``commit_dates``, ``head_dates``), and git's blob id of bytes read (``blob_id``). Two
processes for a whole sync, none per file; read through ``git`` itself, as ``ingest.git_history``
reads the commits.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from collections.abc import Collection, Mapping
from pathlib import Path

from kenning.clock import iso, parse_iso
from kenning.ingest.git_history import LOG_TIMEOUT_S, GitFailed, git_output


def blob_id(data: bytes) -> str:
    """git's object id of ``data`` as a blob (SHA-1 repositories): equal to HEAD's entry when
    the work-tree bytes are the committed ones."""
    digest = hashlib.sha1(b"blob %d\x00" % len(data), usedforsecurity=False)
    digest.update(data)
    return digest.hexdigest()


def commit_dates(root: Path, blobs: Mapping[str, str | None]) -> dict[str, str]:
    """Source dates from history: ``path -> committer date`` (ISO 8601) of the last commit that
    touched each file whose work-tree bytes are HEAD's (``blobs``: path -> git blob id of the
    bytes read, relative to ``root``). A file modified, untracked or ignored by git, and every
    file when history cannot be read, is left out (its date stays the file's mtime).

    Two processes for the whole sync, none per file: ``git ls-tree -r HEAD`` (which files are
    HEAD's, byte for byte), then one ``git log --name-only`` read newest first and stopped once
    every wanted file has its date (at worst the whole history, for a file unchanged since the
    first commit)."""
    if not blobs:
        return {}
    try:  # no repository, no commit yet, no git: ls-tree fails, and nothing is dated from history
        head = _head_blobs(root)
        wanted = {path for path, blob in (head or {}).items() if path in blobs and blobs[path] == blob}
        return _last_commits(root, wanted) if wanted else {}
    except GitFailed:
        return {}


def head_dates(root: Path, paths: Collection[str]) -> dict[str, tuple[str, str]]:
    """``path -> (blob id, committer date)`` at HEAD for those of ``paths`` HEAD holds: what
    ``commit_dates`` answers, asked before the files are read (a sync writes each file as soon
    as it is parsed); a file is HEAD's when the blob id of the bytes read is this one. The same
    two processes; the log may read further back, for files modified since their last commit."""
    if not paths:
        return {}
    try:
        head = _head_blobs(root)
    except GitFailed:
        return {}
    if head is None:
        return {}
    wanted = {path for path in paths if path in head}
    dates = _last_commits(root, wanted) if wanted else {}
    return {path: (head[path], date) for path, date in dates.items()}


def _head_blobs(root: Path) -> dict[str, str] | None:
    """``path -> blob id`` of every file at HEAD (``git ls-tree -r``); None without a HEAD."""
    out, _ = git_output(root, "-c", "core.quotePath=false", "ls-tree", "-r", "-z", "HEAD", timeout=LOG_TIMEOUT_S)
    if out is None:
        return None
    blobs: dict[str, str] = {}
    for entry in out.split("\0"):
        meta, _, path = entry.partition("\t")
        if path:
            blobs[path] = meta.rpartition(" ")[2]
    return blobs


def _last_commits(root: Path, wanted: set[str]) -> dict[str, str]:
    """``path -> committer date`` of the newest commit touching each of ``wanted``: one
    ``git log`` read as it streams, stopped as soon as every path is dated."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    args = ["git", "-C", str(root), "-c", "core.quotePath=false", "log", "--name-only", "--relative"]
    args += ["--no-renames", "--format=%x1e%cI", "HEAD", "--", "."]
    try:
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return {}
    timer = threading.Timer(LOG_TIMEOUT_S, proc.kill)
    timer.start()
    found: dict[str, str] = {}
    date = ""
    try:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("\x1e"):
                date = line[1:]
            elif line and line in wanted and line not in found:
                found[line] = date
                if len(found) == len(wanted):
                    break
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
    dates: dict[str, str] = {}
    for path, when in found.items():
        try:
            dates[path] = iso(parse_iso(when))
        except ValueError:
            continue
    return dates
