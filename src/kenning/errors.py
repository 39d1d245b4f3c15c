"""Typed errors. Interfaces turn them into exit codes (``interfaces/exit_codes.py``), MCP error
results or HTTP statuses."""

from __future__ import annotations


class KenningError(Exception):
    """Base of every error kenning raises on purpose. ``hint`` says what to do next."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(KenningError):
    """The caller asked for something malformed; nothing was changed."""


class InvalidQuery(UsageError):
    """A query that cannot be run: bad FTS syntax, too long, empty."""


class QueryTooCostly(InvalidQuery):
    """A query refused before it runs (its terms would read too much of the index) or
    stopped by the per-query time budget; nothing was changed."""


class ValidationError(UsageError):
    """An argument outside its documented bounds."""


class SourceOwned(UsageError):
    """A gesture (supersede, forget) on an excerpt of a project file: the file is the truth."""


class NotFound(KenningError):
    """An id, project or file that does not exist."""


class ProjectNotFound(NotFound):
    """No kenning project at or above the given path."""


class IndexMissing(KenningError):
    """The project exists but has never been synced."""


class StoreOutdated(KenningError):
    """The database was written by a newer kenning than this one."""


class ScopeDenied(KenningError):
    """A request outside the caller's allowed projects or paths."""


class Unauthorized(KenningError):
    """Missing, unknown, revoked or expired credentials (HTTP 401)."""


class CrossProjectOff(ScopeDenied):
    """A cross-project request to a server not started with the cross-project switch."""


class StoreUnreadable(KenningError):
    """A registered project's store exists but cannot be read (damaged, not a database, no access)."""


class StoreBusy(KenningError):
    """Another process holds the store's write lock longer than the busy timeout."""


class StoreUnavailable(KenningError):
    """A server store (PostgreSQL) cannot be reached, or its client library is not installed."""


class TokenRequired(ScopeDenied):
    """Serving or calling beyond loopback without a valid access token."""


class InternalError(KenningError):
    """A fault of kenning itself (a bug), reported as a typed error rather than a traceback."""


class DenseRefused(KenningError):
    """The dense engine refuses to serve: weights whose sha256 does not match the pinned one,
    or a vector index built by another model or configuration. Nothing is read from it."""
