"""Typed errors: the one vocabulary of failures. Each type has a name (the class name, shown as
``type`` in JSON and MCP results), a message, and a hint saying what to do next (the class's
``default_hint`` when the raiser gives none; an interface may word a default in its own terms,
``KenningError.hint_for``: the core never knows which interface calls it). Interfaces turn them into exit codes
(``interfaces/exit_codes.py``), MCP error results or HTTP statuses; docs/errors.md lists them
all (tests/test_error_contract.py checks the list)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Mapping


class KenningError(Exception):
    """Base of every error kenning raises on purpose. ``hint`` says what to do next."""

    default_hint = "read the message, change the request, and retry"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint or type(self).default_hint
        self.hint_given = bool(hint)  # the raiser's own hint: no interface rewords it

    def hint_for(self, hints: Mapping[type[KenningError], str] | None) -> str:
        """The hint as an interface shows it: the raiser's own, else ``hints``' wording for the
        nearest class of this error (an interface's terms: `kenning search --help`, a tool's
        inputSchema), unless a nearer class has a default hint of its own."""
        if self.hint_given or not hints:
            return self.hint
        for cls in type(self).__mro__:
            if cls in hints:
                return hints[cls]
            if "default_hint" in vars(cls):
                break
        return self.hint

    def to_json(self, hints: Mapping[type[KenningError], str] | None = None) -> dict[str, str]:
        """``{"type", "message", "hint"}``: what every interface shows of it (CLI ``--json``,
        MCP ``structuredContent.error``, web API), the hint worded by ``hints`` (``hint_for``)."""
        return {"type": type(self).__name__, "message": self.message, "hint": self.hint_for(hints)}


class UsageError(KenningError):
    """The caller asked for something malformed; nothing was changed."""

    default_hint = "fix the request, then retry"


class InvalidQuery(UsageError):
    """A query that cannot be run: bad FTS syntax, too long, empty."""

    default_hint = "rewrite the query: plain words always work; FTS syntax needs balanced quotes and parentheses"


class QueryTooCostly(InvalidQuery):
    """A query refused before it runs (its terms would read too much of the index) or
    stopped by the per-query time budget; nothing was changed."""

    default_hint = "narrow it: more specific terms, longer prefixes, a type or path filter"


class ValidationError(UsageError):
    """An argument outside its documented bounds."""

    default_hint = "fix the value named in the message, then retry"


class SourceOwned(UsageError):
    """A gesture (supersede, forget) on an excerpt of a project file: the file is the truth."""

    default_hint = "change the file (the next sync follows it), or record the decision in an ADR"


class CursorRejected(UsageError):
    """A guided-search continuation the flow cannot accept (the subclasses below say why);
    ``hint`` is the Next: instruction."""

    default_hint = "start the guided search again from its first step (the same query, no continuation)"


class SkippedStep(CursorRejected):
    """A guided-search step called out of order."""


class UndisclosedId(CursorRejected):
    """A selected id that no earlier step of this guided search showed."""


class OptionsChanged(CursorRejected):
    """A continuation whose query or options differ from those the search started with."""


class ScopeChanged(CursorRejected):
    """A continuation whose project or filters differ from those the search started with."""


class CursorTampered(CursorRejected):
    """A continuation token that was modified (its signature does not match)."""


class CursorExpired(CursorRejected):
    """A continuation older than its time to live."""


class CursorUnknown(CursorRejected):
    """A continuation this store never issued (or purged)."""


class ResultsChanged(CursorRejected):
    """The facts a continuation disclosed changed since (edited, superseded, forgotten)."""


class SearchEnded(CursorRejected):
    """A continuation of a guided search that already ended."""


class NotFound(KenningError):
    """An id, project or file that does not exist."""

    default_hint = "check the id or name, then retry"


class ProjectNotFound(NotFound):
    """No kenning project at or above the given path; or, across projects, none to search."""

    default_hint = "run `kenning init` in the project root, or pass --project PATH"


class IndexMissing(KenningError):
    """The project exists but has never been synced."""

    default_hint = "run `kenning sync` in the project, then retry"


class StoreOutdated(KenningError):
    """The database was written by a newer kenning than this one."""

    default_hint = "upgrade kenning (or run `kenning sync` if the store is the older one)"


class ScopeDenied(KenningError):
    """A request outside the caller's allowed projects or paths."""

    default_hint = "stay within this project (and, over HTTP, your token's projects and paths)"


class Unauthorized(KenningError):
    """Missing, unknown, revoked or expired credentials (HTTP 401)."""

    default_hint = "send a valid bearer token in the Authorization header (`kenning token list` shows them)"


class CrossProjectOff(ScopeDenied):
    """A cross-project request to a server not started with the cross-project switch."""

    default_hint = "restart the server with `kenning mcp --cross-project`"


class TokenRequired(ScopeDenied):
    """Serving or calling beyond loopback without a valid access token."""

    default_hint = "serve on loopback (the default) and reach it through an SSH tunnel"


class StoreUnreadable(KenningError):
    """A store exists but cannot be read (damaged, not a database, no access)."""

    default_hint = (
        "keep a copy of .kenning/kenning.db first (saved notes live only there); then move it aside "
        "and run `kenning sync` to rebuild the index from the files"
    )


class StoreReadOnly(KenningError):
    """A store kenning may read but not write (file, folder or file system read-only)."""

    default_hint = "make .kenning/ and its kenning.db* files writable by this user, then retry"


class StoreBusy(KenningError):
    """Another process holds the store's lock longer than the busy timeout."""

    default_hint = "retry when it finishes (a sync holds the store while it writes)"


class StoreUnavailable(KenningError):
    """A server store (PostgreSQL) cannot be reached, or its client library is not installed;
    or the disk holding a store is full or failing."""

    default_hint = "check the store's disk or server, then retry"


class InternalError(KenningError):
    """A fault of kenning itself (a bug), reported as a typed error rather than a traceback."""

    default_hint = "retry once; if it fails again, report the message as a kenning bug"


class DenseRefused(KenningError):
    """The dense engine refuses to serve: weights whose sha256 does not match the pinned one,
    or a vector index built by another model or configuration. Nothing is read from it."""

    default_hint = "run `kenning sync` to reindex with the installed model, or reinstall 'kenning[dense]'"
