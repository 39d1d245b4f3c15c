"""Commits of a git repository: sha, author date, author, message, files touched (the date of
the last commit that touched each file, the source dates, is ``ingest.git_dates``'s).

Everything is read through ``git`` itself (``rev-parse``, ``log``), run as a subprocess, so
any ref format (loose, packed, reftable), linked worktrees and submodules work, and a project
that lives in a subfolder of a repository reads the commits that touch that subfolder, with
paths relative to the project root. A sync costs one ``git rev-parse`` when no commit is new (none
when no ``.git`` is at or above the project: ``outside_any_repository``),
and one ``git log`` (a fixed record format, at most ``MAX_COMMITS`` commits) when some are.

When history cannot be read (git missing, not a repository, a broken repository, a timeout),
``head`` records why in ``.kenning/cache/git-history.json`` (``problem``); the wording is the
``HistoryProblem`` values, documented in docs/graph.md. Answers list in their ``degradations``
only the problems that ``degrade`` (``degradation``): a project outside any repository has no
history to read, which ``kenning status`` says, but no answer is the worse for it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from kenning.files import write_atomic
from kenning.project import STATE_DIR

MAX_COMMITS = 5000
HEAD_TIMEOUT_S = 10
LOG_TIMEOUT_S = 60
RECORD = "cache/git-history.json"  # under .kenning/
_TASK_ID = re.compile(r"(?<![\w#])(#\d+|[A-Z][A-Z0-9]{0,9}-\d+)\b")
# One record per commit: \x1e, then sha, author date, author, message, each ended by \x1f,
# then the files touched (``--name-only``), one a line.
_FORMAT = "--format=%x1e%H%x1f%aI%x1f%an%x1f%B%x1f"


class HistoryProblem(StrEnum):
    """Why git history was not read: each value is the degradation an answer lists."""

    NO_GIT = "git history not read: git is not installed"  # inside a repository (outside: NOT_A_REPOSITORY)
    NOT_A_REPOSITORY = "git history not read: the project is not in a git repository"
    UNREADABLE = "git history not read: the repository cannot be read"
    TIMED_OUT = "git history not read: git timed out"

    @property
    def degrades(self) -> bool:
        """Whether answers list it: history that exists but could not be read (git missing,
        a repository git refuses, a timeout). A project outside any repository has no history,
        so nothing is missing from its answers."""
        return self is not HistoryProblem.NOT_A_REPOSITORY


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str  # author date, ISO 8601
    author: str
    message: str
    files: tuple[str, ...]  # relative to the project root

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()


@dataclass(frozen=True)
class Head:
    sha: str | None  # None: no commit yet, or history unreadable (then ``problem`` says why)
    problem: HistoryProblem | None = None
    detail: str = ""  # git's own message, for the record


class GitFailed(Exception):
    """git could not run (not installed, timed out, unreadable): the problem to record."""

    def __init__(self, problem: HistoryProblem, detail: str = "") -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.detail = detail


def read_head(root: Path) -> Head:
    """HEAD's commit sha as git resolves it from ``root`` (which may be a subfolder of the work
    tree), or why it cannot be read. A repository without a commit yet is no problem."""
    if outside_any_repository(root):  # what git would say, without starting it
        # No history to miss, git installed or not: a missing git degrades only inside a repository.
        git = "git not run" if shutil.which("git") else "git not installed either"
        return Head(None, HistoryProblem.NOT_A_REPOSITORY, f"no .git at or above the project ({git})")
    try:
        # One process in the usual cases: the git directory (printed once git found a repository)
        # and HEAD's commit (printed when it reads).
        out, error, code = _run(
            root, "rev-parse", "--git-dir", "--verify", "-q", "HEAD^{commit}", timeout=HEAD_TIMEOUT_S
        )
        lines = out.splitlines()
        if code == 0 and len(lines) == 2:
            return Head(lines[1])
        if not lines:  # git found no repository at or above root
            problem = HistoryProblem.UNREADABLE if _dot_git_above(root) else HistoryProblem.NOT_A_REPOSITORY
            return Head(None, problem, error)
        if git_output(root, "rev-parse", "--verify", "-q", "HEAD", timeout=HEAD_TIMEOUT_S)[0] is not None:
            return Head(None, HistoryProblem.UNREADABLE, "HEAD names a commit that cannot be read")
        return Head(None)  # an unborn branch: nothing committed yet
    except GitFailed as failed:
        return Head(None, failed.problem, failed.detail)


def head(root: Path) -> str | None:
    """HEAD's commit sha, or None (no commit, or history unreadable). What the sync calls: it
    also records whether history could be read (see ``problem``)."""
    found = read_head(root)
    kept = _read_record(root)
    if found.problem is None and kept and kept.get("step") == "log" and kept.get("head") == found.sha:
        return found.sha  # ``git log`` failed at this very HEAD: that record still holds
    _record(root, found.problem, found.detail, step="head", at=found.sha)
    return found.sha


def problem(root: Path) -> HistoryProblem | None:
    """Why the last sync could not read git history, or None (read, or never tried)."""
    kept = _read_record(root)
    if not kept:
        return None
    try:
        return HistoryProblem(str(kept.get("problem")))
    except ValueError:
        return None


def degradation(found: HistoryProblem | None) -> str | None:
    """What an answer lists in ``degradations`` for ``found`` (``problem``'s value): its wording
    when it ``degrades``, else None."""
    return found.value if found is not None and found.degrades else None


def commits(root: Path, since: str | None, *, limit: int = MAX_COMMITS) -> list[Commit]:
    """Commits touching ``root`` after ``since`` up to HEAD, oldest first (the newest ``limit``
    when ``since`` is None or no longer an ancestor of HEAD). One ``git log``; when it fails the
    failure is recorded (see ``problem``) and no commit is returned."""
    try:
        span = "HEAD"
        if (
            since
            and git_output(root, "merge-base", "--is-ancestor", since, "HEAD", timeout=LOG_TIMEOUT_S)[0] is not None
        ):
            span = f"{since}..HEAD"
        out, error = git_output(
            root,
            "-c",
            "core.quotePath=false",
            "log",
            "--reverse",
            f"--max-count={limit}",
            "--name-only",
            "--relative",
            "--no-renames",
            _FORMAT,
            span,
            "--",
            ".",
            timeout=LOG_TIMEOUT_S,
        )
        if out is None:
            raise GitFailed(HistoryProblem.UNREADABLE, error)
    except GitFailed as failed:
        _record(root, failed.problem, failed.detail, step="log", at=read_head(root).sha)
        return []
    return parse_log(out)


def commits_named(root: Path, shas: Collection[str]) -> list[Commit] | None:
    """The commits ``shas`` name, read again as ``commits`` reads them (when the way a commit is
    projected changed: ``graph.projections.GIT_PROJECTION``); those git no longer holds (a
    rewritten history) are left out. Two processes whatever the count: ``git cat-file`` says which
    git still holds (``git log`` would stop at the first it does not), then one ``git log
    --no-walk``. None when git fails: the caller tries again at the next sync."""
    if not shas:
        return []
    try:
        out, _ = git_output(
            root, "cat-file", "--batch-check=%(objectname) %(objecttype)", timeout=LOG_TIMEOUT_S, stdin=shas
        )
        if out is None:
            return None
        held = [sha for sha, _, kind in (line.partition(" ") for line in out.splitlines()) if kind == "commit"]
        if not held:
            return []
        out, _ = git_output(
            root,
            "-c",
            "core.quotePath=false",
            "log",
            "--no-walk=unsorted",
            "--stdin",
            "--name-only",
            "--relative",
            "--no-renames",
            _FORMAT,
            "--",
            ".",
            timeout=LOG_TIMEOUT_S,
            stdin=held,
        )
    except GitFailed:
        return None
    return parse_log(out) if out is not None else None


def tags(root: Path) -> list[tuple[str, str]]:
    """(name, commit id) of each tag of the repository at or above ``root``, an annotated tag
    peeled to its commit; none when git cannot say (no repository, no git). One ``git
    for-each-ref``; read when a question asks about a release that no release notes name."""
    try:
        out, _ = git_output(
            root,
            "for-each-ref",
            "--format=%(refname:short) %(objectname) %(*objectname)",
            "refs/tags",
            timeout=LOG_TIMEOUT_S,
        )
    except GitFailed:
        return []
    found = []
    for line in (out or "").splitlines():
        name, _, ids = line.partition(" ")
        target, _, peeled = ids.partition(" ")
        if name and target:
            found.append((name, peeled or target))
    return found


def commits_between(root: Path, newest: str, oldest: str | None, *, limit: int) -> list[str]:
    """The ids of the commits ``newest`` reaches and ``oldest`` does not (all it reaches when None),
    newest first, ``limit`` at most; none when git cannot say."""
    try:
        out, _ = git_output(
            root, "rev-list", f"--max-count={limit}", newest, *([f"^{oldest}"] if oldest else []), timeout=LOG_TIMEOUT_S
        )
    except GitFailed:
        return []
    return (out or "").split()


def _plain_ends(message: str) -> str:
    """A message with ``\\n`` line ends: one written on Windows keeps ``\\r\\n`` in git (httpx has
    hundreds), which the answers would show as ``\\x0d`` at each line's end."""
    return message.replace("\r\n", "\n").replace("\r", "\n").strip()


def parse_log(out: str) -> list[Commit]:
    found = []
    for record in out.split("\x1e")[1:]:
        parts = record.split("\x1f")
        if len(parts) < 5:
            continue
        sha, date, author, message, tail = parts[0].strip(), parts[1], parts[2], _plain_ends(parts[3]), parts[4]
        files = tuple(line for line in (x.strip() for x in tail.splitlines()) if line)
        found.append(Commit(sha, date, author, message, files))
    return found


def exists(root: Path, sha: str) -> bool:
    try:
        return git_output(root, "cat-file", "-e", f"{sha}^{{commit}}", timeout=HEAD_TIMEOUT_S)[0] is not None
    except GitFailed:
        return False


def task_ids(message: str) -> list[str]:
    """Task ids mentioned in a message (``#12``, ``KEN-4``): a heuristic, never a declaration."""
    return sorted(set(_TASK_ID.findall(message)))


def git_output(root: Path, *args: str, timeout: float, stdin: Collection[str] = ()) -> tuple[str | None, str]:
    """(git's output, or None when git exits with an error; git's last error line)."""
    out, error, code = _run(root, *args, timeout=timeout, stdin=stdin)
    return (out if code == 0 else None), error


def _run(root: Path, *args: str, timeout: float, stdin: Collection[str] = ()) -> tuple[str, str, int]:
    """(stdout, last stderr line, exit code) of ``git -C root ARGS``, given ``stdin`` one a line.
    Raises ``GitFailed`` when git cannot run at all."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    given = "".join(f"{line}\n" for line in stdin).encode() if stdin else None
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), *args], input=given, capture_output=True, timeout=timeout, check=False, env=env
        )
    except FileNotFoundError as exc:
        raise GitFailed(HistoryProblem.NO_GIT, str(exc)) from exc
    except subprocess.TimeoutExpired as exc:
        raise GitFailed(HistoryProblem.TIMED_OUT, f"git {args[0]} took over {timeout} s") from exc
    except OSError as exc:
        raise GitFailed(HistoryProblem.UNREADABLE, str(exc)) from exc
    lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    error = lines[-1] if lines else ("" if proc.returncode == 0 else f"git {args[0]} exited with {proc.returncode}")
    return proc.stdout.decode("utf-8", "replace"), error, proc.returncode


def outside_any_repository(root: Path) -> bool:
    """Whether git, run in ``root``, could only answer that it finds no repository: no
    ``.git`` (a folder, or a worktree's or submodule's file) in ``root`` or above it, and no
    ``GIT_DIR`` in the environment. A sync then starts no git process (it started two, a few
    milliseconds each, on a small tree: docs/benchmarks.md, branch smallcold)."""
    return "GIT_DIR" not in os.environ and not _dot_git_above(root)


def _dot_git_above(root: Path) -> bool:
    """Whether ``root`` or a folder above holds a ``.git`` (a folder, or a worktree's or
    submodule's file), whether git takes it for a repository or not."""
    return any((folder / ".git").exists() for folder in (root, *root.resolve().parents))


def _record_path(root: Path) -> Path:
    return root / STATE_DIR / RECORD


def _read_record(root: Path) -> dict[str, str | None] | None:
    try:
        data = json.loads(_record_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _record(root: Path, found: HistoryProblem | None, detail: str, *, step: str, at: str | None) -> None:
    """Write (or clear) the record of an unreadable history; nothing is written while it is unchanged."""
    path = _record_path(root)
    if found is None:
        if path.exists():
            path.unlink(missing_ok=True)
        return
    if not path.parent.parent.is_dir():  # not a kenning project: nowhere to record
        return
    data = {"problem": found.value, "detail": detail, "step": step, "head": at}
    if _read_record(root) != data:
        write_atomic(str(path), (json.dumps(data, sort_keys=True) + "\n").encode())
