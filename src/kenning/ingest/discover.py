"""Which files of a project are eligible, and why the others are skipped.

Discovery only lists and ``stat``s: it never opens a file, so a no-op resync stays cheap.
Binary detection happens when a changed file is read (see ``sync``).
"""

from __future__ import annotations

import bisect
import errno
import os
import stat
import subprocess
from collections import Counter, namedtuple
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from kenning.files import inside_root
from kenning.ingest.git_history import outside_any_repository
from kenning.ingest.ignore_rules import Matcher, gitignore_matcher
from kenning.ingest.parsers import PLAIN_DOCUMENTS, SCRIPT_PARSER, parser_for, size_cap
from kenning.project import CONFIG_NAME, STATE_DIR, Project

ALWAYS_IGNORED_DIRS = {STATE_DIR, ".git", ".hg", ".svn"}
# Outside git, folders that hold other people's code or a tool's output, never the project's own
# files, are not walked (in a git repository, git's listing decides): installed packages, caches,
# build metadata, and a virtual environment (a folder holding ``pyvenv.cfg``, whatever its name).
# A project folder without git or ``.gitignore`` otherwise indexed its ``node_modules`` or
# ``.venv`` (tens of thousands of files) and answered from them. Counted as
# ``dependency_folder``, one per folder (its files are never listed).
DEPENDENCY_DIRS = frozenset(
    {
        "node_modules",
        "bower_components",
        "__pycache__",
        ".tox",
        ".nox",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".gradle",
        ".terraform",
    }
)
_VENV_MARKER = "pyvenv.cfg"
_EXECUTABLE = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
# A path is stored, cited and printed as text: a name that is not valid UTF-8 (kept by the
# file system as bytes, decoded here with surrogate escapes) or that holds a control character
# (a newline would split a citation or a report line) is skipped with a reason, never indexed.
_CONTROL = frozenset(chr(c) for c in range(32)) | {chr(127)}
# A path git still lists (``--cached``) that is gone from the work tree — deleted without
# ``git rm``, or its folder now a file — is no file to read: it is left out, never counted
# ``unreadable``; a file the manifest knew is then retired as removed (``sync.changes``).
_ABSENT = frozenset({errno.ENOENT, errno.ENOTDIR})


# A candidate per eligible file (60,000 on a large tree, every sync): a named tuple, built about
# three times faster than a frozen dataclass, smaller to send to the parsing pool. At run time
# its fields come from ``collections`` (no ``typing`` import); type checkers read the typed ones.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import NamedTuple

    class _CandidateFields(NamedTuple):
        path: str  # relative, POSIX separators
        root: str  # the project root as the project names it (``Project.root``, links not resolved)
        size: int
        mtime_ns: int
        parser: str
        root_real: str = ""  # the project root, every link resolved: reads stay under it
        target: str | None = None  # a link's target inside the root (relative), resolved here
else:
    _CandidateFields = namedtuple(
        "_CandidateFields", "path root size mtime_ns parser root_real target", defaults=("", None)
    )


class Candidate(_CandidateFields):
    """An eligible file as discovery found it: where it is and its ``stat`` (no file opened)."""

    __slots__ = ()

    @property
    def abs_path(self) -> Path:
        """``Project.root / path``, built when asked: discovery keeps text alone, because a
        ``Path`` per file was most of a no-op sync's time on a large tree (docs/benchmarks.md,
        branch discover) and a no-op sync never opens a file."""
        return Path(self.root, self.path)


# The scripts a build tool writes into a project to fetch and run itself (Gradle's and Maven's
# wrappers): some 250 lines of shell each, the same in every project, whose words (``java``,
# ``home``, ``path``, ``class``) crowded how and where answers (spring-petclinic, walked:
# ``gradlew (part 4)`` fifth for a question on telephone numbers). Skipped as ``build_wrapper``.
BUILD_WRAPPERS = frozenset({"gradlew", "gradlew.bat", "mvnw", "mvnw.cmd"})
# Android's Baseline Profiles, which a profiler writes for the build to compile ahead (thousands of
# JVM method signatures, ``HSPLcom/app/data/AppDatabase;-><init>()V``): their class names crowded
# answers (android/sunflower, walked: ``baseline-prof.txt (part 121)`` second for how the database is
# created). Skipped as ``build_profile``.
BUILD_PROFILES = frozenset({"baseline-prof.txt", "startup-prof.txt"})
# The lockfiles package managers write: every resolved package with its version and checksum, no
# prose. pnpm's is YAML, which kenning reads: a small Next.js app's ``pnpm-lock.yaml`` is 123 kB of
# ``'@next/swc-linux-x64-gnu@15.1.4': resolution: {integrity: sha512-…}``, whose package names (react,
# eslint, next) are a question's words. The others have suffixes kenning does not read; named here,
# they are counted as what they are. Skipped as ``lockfile`` (``package.json``, ``Cargo.toml``,
# ``pyproject.toml`` say which packages a project asks for, and are read).
LOCKFILES = frozenset(
    {
        "pnpm-lock.yaml",
        "conda-lock.yml",
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "bun.lock",
        "deno.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "Pipfile.lock",
        "Cargo.lock",
        "composer.lock",
        "Gemfile.lock",
        "go.sum",
        "mix.lock",
        "pubspec.lock",
        "Podfile.lock",
        "Package.resolved",
        "flake.lock",
        "packages.lock.json",
        "gradle.lockfile",
    }
)

# The paths a sync names for each reason it skipped files (``SyncReport.skipped_paths``): the first
# ones in path order; the count says how many there were.
SKIPPED_NAMED = 20


@dataclass
class Discovery:
    candidates: list[Candidate] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    method: str = "walk"
    nested: list[str] = field(default_factory=list)  # subfolders that are projects of their own
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)  # reason -> the first ones
    unsupported: Counter[str] = field(default_factory=Counter)  # the suffixes of ``unsupported_type``'s

    def skip(self, reason: str, path: str) -> None:
        note_skip(self.skipped, self.skipped_paths, reason, path)
        if reason == "unsupported_type":  # which kinds of files: ``.html``, ``.css``…
            name = path.rpartition("/")[2]
            self.unsupported["." + name.rpartition(".")[2] if "." in name else "(no suffix)"] += 1


def note_skip(skipped: Counter[str], named: dict[str, list[str]], reason: str, path: str) -> None:
    """Count ``path`` as skipped for ``reason``, and name it among the first ``SKIPPED_NAMED`` in
    path order (whatever order they come in: a sync skips some unread, others once read)."""
    skipped[reason] += 1
    first = named.setdefault(reason, [])
    if len(first) < SKIPPED_NAMED:
        bisect.insort(first, path)
    elif path < first[-1]:
        first[-1] = path
        first.sort()


def discover(project: Project) -> Discovery:
    root = project.root
    listed = _git_files(root)
    result = Discovery(method="git" if listed is not None else "walk")
    if listed is not None:
        paths, nested = listed, nested_projects(root, listed)
    else:
        paths, nested, dependencies = _walk(root)
        if dependencies:
            result.skipped["dependency_folder"] = dependencies
    include = _spec(project.config.include)
    exclude = _spec(project.config.exclude)
    root_real = os.path.realpath(root)
    root_text = os.fspath(root)
    prefix = os.path.join(root_text, "")  # the root and one separator: a file's path is ``prefix + rel``
    result.nested = sorted(nested)
    for rel in paths:
        top = rel.split("/", 1)[0]
        if top in ALWAYS_IGNORED_DIRS:
            continue
        name_problem = _name_problem(rel)
        if name_problem is not None:
            result.skip(name_problem, rel)
            continue
        if nested and _inside_any(rel, nested):
            result.skip("nested_project", rel)
            continue
        if include is not None and not include(rel):
            result.skip("not_included", rel)
            continue
        if exclude is not None and exclude(rel):
            result.skip("excluded", rel)
            continue
        name = rel.rpartition("/")[2]
        if name in BUILD_WRAPPERS:
            result.skip("build_wrapper", rel)
            continue
        if name in BUILD_PROFILES:
            result.skip("build_profile", rel)
            continue
        if name in LOCKFILES:
            result.skip("lockfile", rel)
            continue
        parser = parser_for(rel)
        if parser is None and "." in name:  # a suffix kenning does not read
            result.skip("unsupported_type", rel)
            continue
        abs_text = prefix + rel
        target: str | None = None
        try:
            st = os.lstat(abs_text)  # one system call a file: the link test reads its mode
            if stat.S_ISLNK(st.st_mode):
                target = inside_root(root_real, abs_text)
                if target is None:
                    result.skip("link_outside_root", rel)
                    continue
                st = os.stat(target)
                target = os.path.relpath(target, root_real).replace(os.sep, "/")
        except OSError as exc:
            if exc.errno in _ABSENT and target is None:
                continue  # listed by git but deleted from the work tree (not staged): not a file now
            result.skip("link_loop" if exc.errno == errno.ELOOP else "unreadable", rel)
            continue
        if not _is_regular(st.st_mode):
            result.skip("not_a_file", rel)
            continue
        executable = st.st_mode & _EXECUTABLE
        if parser is None or executable and name.lower() in PLAIN_DOCUMENTS:
            # no suffix: a script when it is executable (``bin/deploy``, fzf's ``install``), else
            # unread, but for a document's customary name (``LICENSE``: ``parsers.PLAIN_DOCUMENTS``)
            if not executable:
                result.skip("unsupported_type", rel)
                continue
            parser = SCRIPT_PARSER
        if st.st_size > size_cap(rel, parser, project.config.max_file_bytes):
            result.skip("too_large", rel)
            continue
        result.candidates.append(Candidate(rel, root_text, st.st_size, st.st_mtime_ns, parser, root_real, target))
    result.candidates.sort(key=_path_of)
    return result


_path_of = attrgetter("path")


def nested_projects(root: Path, paths: list[str]) -> set[str]:
    """Subfolders (relative) holding their own ``.kenning/config.toml``: another project,
    maybe a confidential one, whose files are never indexed as this project's."""
    folders: set[str] = set()
    for rel in paths:
        folder = rel.rpartition("/")[0]
        while folder and folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    return {f for f in folders if os.path.isfile(os.path.join(root, f, STATE_DIR, CONFIG_NAME))}


def _inside_any(rel: str, folders: set[str]) -> bool:
    folder = rel.rpartition("/")[0]
    while folder:
        if folder in folders:
            return True
        folder = folder.rpartition("/")[0]
    return False


def _is_regular(mode: int) -> bool:
    return stat.S_ISREG(mode)


def _name_problem(rel: str) -> str | None:
    """The skip reason for a path kenning cannot store as text, or None."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return "undecodable_name"
    if not _CONTROL.isdisjoint(rel):
        return "control_character_in_name"
    return None


def _spec(globs: tuple[str, ...]) -> Matcher | None:
    return gitignore_matcher(globs) if globs else None


def _git_files(root: Path) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files, when ``root`` is inside a git work tree."""
    if outside_any_repository(root):
        return None
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    names = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({n for n in names if n})


def _walk(root: Path) -> tuple[list[str], set[str], int]:
    """Every file below ``root``, honouring each directory's ``.gitignore``, the folders
    holding a project of their own (``.kenning/config.toml``), and how many dependency folders
    (``DEPENDENCY_DIRS``, ``*.egg-info``, virtual environments) were left unwalked. Links to
    directories are neither followed nor listed. Each directory is read once with ``scandir``,
    whose entries know their type: no further system call per directory or link test."""
    found: list[str] = []
    nested: set[str] = set()
    dependencies = 0
    pending: list[tuple[str, str, list[tuple[str, Matcher]]]] = [("", os.fspath(root), [])]
    while pending:
        rel_dir, abs_dir, specs = pending.pop()
        try:
            with os.scandir(abs_dir) as listing:
                entries = list(listing)
        except OSError:
            continue  # unreadable or gone: as os.walk, skipped
        names = {entry.name for entry in entries}
        if ".gitignore" in names:
            try:
                lines = Path(abs_dir, ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
                specs = [*specs, (rel_dir, gitignore_matcher(lines))]
            except OSError:
                pass
        if rel_dir and STATE_DIR in names and os.path.isfile(os.path.join(abs_dir, STATE_DIR, CONFIG_NAME)):
            nested.add(rel_dir)
        if rel_dir and _VENV_MARKER in names:
            dependencies += 1
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir = entry.is_dir()  # follows a link, as os.walk sorts names
            except OSError:
                is_dir = False
            if not is_dir:
                if not _ignored(specs, rel, False):
                    found.append(rel)
            elif entry.name not in ALWAYS_IGNORED_DIRS and not entry.is_symlink() and not _ignored(specs, rel, True):
                if entry.name in DEPENDENCY_DIRS or entry.name.endswith(".egg-info"):
                    dependencies += 1  # never listed
                else:
                    pending.append((rel, entry.path, specs))
    return sorted(found), nested, dependencies


def _ignored(specs: list[tuple[str, Matcher]], rel: str, is_dir: bool) -> bool:
    """Whether a ``.gitignore`` of ``rel``'s folder or of a folder above it (``specs``) ignores it."""
    for base, matches in specs:
        local = rel[len(base) + 1 :] if base else rel
        if matches(local + ("/" if is_dir else "")):
            return True
    return False
