"""Which registered stores a cross-project question reads, opened read-only, and why the
others are left out.

Every registered project is checked in name order: its ``.kenning/config.toml`` must be
where the registry says (never a parent project instead), it must not be confidential, and
its store must open read-only with this kenning's schema (a project served by PostgreSQL is
read from its server, never from its local file; an unreachable server leaves it out). A project that fails a check is
listed in the answer's ``scope.excluded`` with its reason, never counted as empty. The
transverse memory (``KENNING_HOME/global``) is read as one more store, labelled ``global``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from kenning.errors import IndexMissing, KenningError, StoreOutdated
from kenning.project import CONFIG_NAME, STATE_DIR, Project, ProjectConfig
from kenning.records import ScopeEntry
from kenning.registry import GLOBAL_NAME, Entry
from kenning.store.db import open_store
from kenning.store.handle import Connection, engine_errors, still_open, typed_error
from kenning.store.readonly import StoreSummary, open_readonly, summary
from kenning.store.status import index_size

GLOBAL_DIR = "global"
CONFIDENTIAL = "confidential (confidential = true in .kenning/config.toml)"

# How a registered project's ``.kenning/config.toml`` is read: passed in by the interfaces
# (``config.load_project``), which alone read configuration.
Loader = Callable[[Path], Project]


def global_project(home: Path) -> Project:
    """The transverse memory: a store of its own under ``KENNING_HOME``, named ``global``."""
    return Project(root=home / GLOBAL_DIR, config=ProjectConfig(name=GLOBAL_NAME))


@dataclass
class Opened:
    """The stores a question reads (project, read-only connection) and the projects left out."""

    stores: list[tuple[Project, Connection]] = field(default_factory=list)
    excluded: list[ScopeEntry] = field(default_factory=list)


@dataclass(frozen=True)
class State:
    """One registered project as `kenning projects list` shows it."""

    name: str
    path: Path
    state: str  # ok, missing, unreadable, outdated, not_synced
    reason: str | None
    confidential: bool | None
    last_sync: str | None = None
    facts: int | None = None
    size_bytes: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": str(self.path),
            "state": self.state,
            "reason": self.reason,
            "readable": self.state not in ("missing", "unreadable"),
            "confidential": self.confidential,
            "last_sync": self.last_sync,
            "facts": self.facts,
            "size_bytes": self.size_bytes,
        }


def load_registered(entry: Entry, load: Loader) -> Project:
    """The project at a registry entry's own path; ``KenningError`` when it is not there."""
    root = Path(entry.path)
    if not (root / STATE_DIR / CONFIG_NAME).is_file():
        raise _Missing(f"no {STATE_DIR}/{CONFIG_NAME} at {root}")
    return load(root)


class _Missing(KenningError):
    """The registered directory no longer holds a kenning project."""


def state_of(entry: Entry, load: Loader) -> State:
    """Open the entry's store read-only and report its state; nothing is written."""
    try:
        project = load_registered(entry, load)
    except _Missing as exc:
        return State(entry.name, entry.path, "missing", exc.message, None)
    except (KenningError, OSError) as exc:
        return State(entry.name, entry.path, "unreadable", _message(exc), None)
    confidential = project.config.confidential
    try:
        conn = open_store(project, read_only=True)
    except IndexMissing:
        return State(entry.name, entry.path, "not_synced", "no index: run `kenning sync` there", confidential)
    except StoreOutdated as exc:
        return State(entry.name, entry.path, "outdated", _message(exc), confidential)
    except (KenningError, OSError) as exc:
        return State(entry.name, entry.path, "unreadable", _message(exc), confidential)
    try:
        if project.config.store:  # its server's counts; no local file to size
            held = index_size(conn)
            found = StoreSummary(held.by_lifecycle.get("active", 0), held.last_sync)
        else:
            found = summary(conn)
    except engine_errors() as exc:  # a damaged file; a server refusing the query (privileges, a broken schema)
        where = f"the PostgreSQL store of {project.name}" if project.config.store else str(project.db_path)
        return State(entry.name, entry.path, "unreadable", typed_error(exc, where).message, confidential)
    finally:
        conn.close()
    size = (
        None
        if project.config.store
        else sum(p.stat().st_size for p in project.state_dir.glob("kenning.db*") if p.is_file())
    )
    return State(entry.name, entry.path, "ok", None, confidential, found.last_sync, found.facts, size)


class StorePool:
    """Read-only connections kept open between questions by a long-lived process (the MCP
    server, the cockpit), so a question pays for its searches, not for 20 opens.

    Every question re-checks each registered project: its ``config.toml`` is parsed again
    when its size, mtime or inode moved (a project made confidential is left out from the
    next question on), and its connection is reopened when the database file is another
    file (same device and inode, else reopened). One question at a time holds the pool."""

    def __init__(self, load: Loader) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._projects: dict[Path, tuple[tuple[int, ...], Project]] = {}
        # a store file's path, or ``url#project`` for a project served by PostgreSQL
        self._conns: dict[Path | str, tuple[tuple[int, ...], Connection]] = {}

    def project(self, entry: Entry) -> Project:
        root = Path(entry.path)
        config = root / STATE_DIR / CONFIG_NAME
        try:
            st = os.stat(config)
        except OSError:
            raise _Missing(f"no {STATE_DIR}/{CONFIG_NAME} at {root}") from None
        signature = (st.st_mtime_ns, st.st_size, st.st_ino)
        kept = self._projects.get(root)
        if kept is None or kept[0] != signature:
            kept = (signature, load_registered(entry, self._load))
            self._projects[root] = kept
        return kept[1]

    def connection(self, project: Project) -> Connection:
        if project.config.store:
            return self._on_server(project)
        path = project.db_path
        try:
            st = os.stat(path)
        except OSError:
            self._drop(path)
            raise IndexMissing(f"no index at {path}", hint="run `kenning sync` in that project") from None
        signature = (st.st_dev, st.st_ino)
        kept = self._conns.get(path)
        if kept is not None and kept[0] == signature:
            return kept[1]
        self._drop(path)
        conn = open_readonly(path)
        self._conns[path] = (signature, conn)
        return conn

    def _on_server(self, project: Project) -> Connection:
        """A project served by PostgreSQL: its server connection, kept while it stays usable
        (``still_open``; its signature slot holds when it was last handed out, in ns)."""
        key = f"{project.config.store}#{project.name}"
        kept = self._conns.get(key)
        now = time.monotonic_ns()
        if kept is not None and still_open(kept[1], idle=(now - kept[0][0]) / 1e9):
            self._conns[key] = ((now,), kept[1])
            return kept[1]
        self._drop(key)
        conn = open_store(project, read_only=True)  # no migration; no index there yet: IndexMissing
        self._conns[key] = ((now,), conn)
        return conn

    def _drop(self, path: Path | str) -> None:
        kept = self._conns.pop(path, None)
        if kept is not None:
            kept[1].close()  # a read-only SQLite one releases the -wal/-shm it needed (store.readonly)

    def close(self) -> None:
        with self._lock:
            for path in list(self._conns):
                self._drop(path)


class OneShot:
    """No pool: every store opened for one question and closed after it (the CLI)."""

    def __init__(self, load: Loader) -> None:
        self._load = load
        self.opened: list[Connection] = []

    def project(self, entry: Entry) -> Project:
        return load_registered(entry, self._load)

    def connection(self, project: Project) -> Connection:
        conn = open_store(project, read_only=True)
        self.opened.append(conn)
        return conn


# Where a question's stores come from: a pool kept between questions, or opened for one.
Stores = StorePool | OneShot


@contextmanager
def opened(entries: Iterable[Entry], source: Stores, *, home: Path | None = None) -> Iterator[Opened]:
    """Every readable, non-confidential registered store, read-only (and the transverse
    memory under ``home`` when it exists). From a ``OneShot`` the stores are closed on exit;
    from a ``StorePool``, they stay open in it for the next question."""
    out = Opened()
    lock = source._lock if isinstance(source, StorePool) else contextlib.nullcontext()
    with lock:
        try:
            for entry in sorted(entries, key=lambda e: e.name):
                reason = _open_into(out, source, entry)
                if reason is not None:
                    out.excluded.append(ScopeEntry(entry.name, reason))
            if home is not None:
                glob = global_project(home)
                if glob.db_path.exists():
                    try:
                        out.stores.append((glob, source.connection(glob)))
                    except (KenningError, OSError) as exc:
                        out.excluded.append(ScopeEntry(GLOBAL_NAME, f"unreadable: {_message(exc)}"))
            yield out
        finally:
            if isinstance(source, OneShot):
                for conn in source.opened:
                    conn.close()
                source.opened.clear()


def _open_into(out: Opened, source: Stores, entry: Entry) -> str | None:
    """Add the entry's store to ``out``; else return why it is left out."""
    try:
        project = source.project(entry)
    except (KenningError, OSError) as exc:
        return f"unreadable: {_message(exc)}"
    if project.config.confidential:
        return CONFIDENTIAL
    try:  # a project served by PostgreSQL is read there, never from its local file
        out.stores.append((project, source.connection(project)))
    except IndexMissing:
        return "index missing: run `kenning sync` in that project"
    except StoreOutdated as exc:
        return f"outdated schema: {_message(exc)}"
    except (KenningError, OSError) as exc:
        return f"unreadable: {_message(exc)}"
    return None


def _message(exc: BaseException) -> str:
    text = getattr(exc, "message", None) or str(exc)
    hint = getattr(exc, "hint", None)
    specific = hint and hint != getattr(type(exc), "default_hint", None)  # a type's usual advice is noise here
    return f"{text}; {hint}" if specific else text  # a hint may hold parentheses: never nested in ours
