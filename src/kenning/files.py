"""Writing a file so that readers see the old bytes or the new, never half of them.

And the sync's advisory lock file. Only ``os`` and ``fcntl`` (both built in): the
session-start hook imports this on every agent start.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Iterable

try:
    import fcntl
except ImportError:  # not POSIX: no advisory lock, a second sync relies on SQLite's lock alone
    fcntl = None  # type: ignore[assignment]  # typeshed has no "module or None" for a platform module

SYNC_LOCK_NAME = "sync.lock"
BINARY_PROBE = 8192  # a NUL in a file's first bytes makes it binary: the sync does not read it


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    folder, name = os.path.split(path)
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def inside_root(root_real: str, path: str) -> str | None:
    """``path`` with every link resolved, when that stays inside ``root_real`` (itself a
    ``realpath``); None when it leaves the root.

    The one root-and-link rule: the sync skips such a file (``link_outside_root``), and
    everything that reads a file for an answer (the pack's context, freshness checks)
    treats it as unreadable, so no byte from outside the project is read or served.
    """
    real = os.path.realpath(path)
    if real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep):
        return real
    return None


def stat_inside(root_real: str, rel: str) -> os.stat_result | None:
    """The ``stat`` of ``rel`` (relative, POSIX separators) under ``root_real`` (a
    ``realpath``) when it resolves inside the root, else None; ``OSError`` when it does not read.

    :func:`inside_root` then ``os.stat``, without resolving the root's own components again:
    each component below the root is ``lstat``-ed once, and the last one's ``lstat`` is the
    file's ``stat`` when nothing on the way is a link. A link, ``.`` or ``..`` on the way takes
    the general rule (``realpath``), so the answer is :func:`inside_root`'s.
    """
    current = root_real
    info: os.stat_result | None = None
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            break
        current = os.path.join(current, part)
        info = os.lstat(current)  # OSError: a component is missing or unreadable
        if stat.S_ISLNK(info.st_mode):
            break
    else:
        if info is not None:
            return info
    full = os.path.join(root_real, rel)
    if inside_root(root_real, full) is None:
        return None
    return os.stat(full)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in must not block the open


def read_regular_inside(root_real: str, rel: str) -> bytes:
    """The bytes of the regular file ``rel`` (relative, POSIX separators) under ``root_real``
    (a ``realpath``), with no link followed on the way.

    Each folder is opened under its parent's descriptor with ``O_NOFOLLOW``, then the file,
    and the descriptor opened is checked (``fstat``) to be a regular file: a file or a folder
    swapped for a link (or a FIFO, a device) after it was listed is refused, never followed —
    what was checked is what is read. ``OSError`` for anything refused or unreadable. Where
    the system has no ``O_NOFOLLOW`` or ``dir_fd``, the path is resolved and checked instead.
    """
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise OSError(errno.EINVAL, "not a plain relative path", rel)
    if not _NOFOLLOW or os.open not in os.supports_dir_fd:
        real = inside_root(root_real, os.path.join(root_real, *parts))
        if real is None:
            raise OSError(errno.ELOOP, "a link leads out of the project root", rel)
        with open(real, "rb") as handle:
            return handle.read()
    folder = os.open(root_real, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=folder)
            os.close(folder)
            folder = inner
        fd = os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK, dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", rel)
        return handle.read()


def read_resolved_inside(root_real: str, path: str) -> bytes:
    """The bytes of ``path`` (a link inside the root is followed to its target, checked by
    :func:`inside_root`), then read with :func:`read_regular_inside`, so a file swapped for a
    link between the check and the read is refused. ``OSError`` for anything refused."""
    real = inside_root(root_real, path)
    if real is None or real == root_real:
        raise OSError(errno.ELOOP, "a link leads out of the project root", path)
    return read_regular_inside(root_real, os.path.relpath(real, root_real).replace(os.sep, "/"))


def none_here(root: str, paths: Iterable[str]) -> bool:
    """True when ``paths`` (a store's indexed files, relative) name something and none of
    their top-level entries (``docs``, ``src``, ``README.md``…; ``.kenning`` aside) is under
    ``root``: the project's files are on another machine (a level-2 store is shared)."""
    tops = {path.split("/", 1)[0] for path in paths} - {".kenning"}
    return bool(tops) and not any(os.path.lexists(os.path.join(root, top)) for top in tops)


class ExclusiveLock:
    """An advisory ``flock`` held while the ``with`` block runs (a second holder waits for it).

    The kernel releases it when the holder dies, SIGKILL included: it never goes stale."""

    _MODE = "LOCK_EX"

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> ExclusiveLock:
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            fcntl.flock(self._fd, getattr(fcntl, self._MODE))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


class SharedLock(ExclusiveLock):
    """A shared ``flock``: any number hold it at once; ``lock_in_use`` sees them."""

    _MODE = "LOCK_SH"


def lock_in_use(path: str) -> bool:
    """True when some process holds a lock, shared or exclusive, at ``path`` right now (never waits)."""
    return _probe(path, "LOCK_EX")


def lock_held(path: str) -> bool:
    """True when some process holds the ``ExclusiveLock`` at ``path`` right now (never waits)."""
    return _probe(path, "LOCK_SH")


def _probe(path: str, mode: str) -> bool:
    """True when a non-blocking ``flock`` of ``mode`` at ``path`` is refused: an exclusive probe
    is refused by any holder, a shared one only by an exclusive holder."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, getattr(fcntl, mode) | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
