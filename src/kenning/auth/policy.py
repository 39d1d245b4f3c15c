"""What a token may do with one tool call, the failed-attempt limit, and the audit log.

``check_call`` takes plain data (the token, the served project, what the tool needs, its
arguments) and returns a refusal or None. Over MCP (``interfaces/mcp/http.py``) a token not
bound to the served project (``check_project``) or without the scope a called tool needs
(``check_scope``) is the HTTP gate's 403; a call outside the token's binding (``check_binding``)
is a typed ``ScopeDenied`` tool error, and the session goes on.
"""

from __future__ import annotations

import json
import os
import threading
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kenning.auth.tokens import READ, WRITE, TokenRecord
from kenning.clock import iso
from kenning.registry import check_home

AUDIT_FILE = "audit.log"


@dataclass(frozen=True)
class ToolNeeds:
    """What a tool asks of a token: a scope, and whether it can read facts outside a path filter."""

    name: str
    writes: bool
    takes_path_filter: bool
    path_free_ok: bool  # safe for a path-bound token without a path_filter (writes no read, e.g. save_memory)


@dataclass(frozen=True)
class Refusal:
    status: int
    message: str
    needs_path_filter: bool = False  # a path-bound token calling a tool no path_filter limits


def within(path: str, prefixes: tuple[str, ...]) -> bool:
    """A path filter is a literal prefix of source paths (as the search applies it), so it is
    inside a token prefix when it starts with it: ``docs/adr`` is inside ``docs/``; ``doc``
    is not (it would also match ``doc-private/``)."""
    return any(path.startswith(p) for p in prefixes)


def check_project(token: TokenRecord, project: str) -> Refusal | None:
    if project not in token.projects:
        return Refusal(
            403,
            f"scope divergence: token {token.name!r} is bound to project(s) "
            f"{', '.join(token.projects)}; this request reads {project!r}",
        )
    return None


def check_call(token: TokenRecord, served: str, needs: ToolNeeds, arguments: dict[str, Any]) -> Refusal | None:
    """Both checks of one tool call: the token's scope, then its binding."""
    return check_scope(token, needs) or check_binding(token, needs, arguments)


def needed_scope(needs: ToolNeeds) -> str:
    return WRITE if needs.writes else READ


def check_scope(token: TokenRecord, needs: ToolNeeds) -> Refusal | None:
    """Whether the token holds the scope the tool needs (``memory:read``, ``memory:write``)."""
    scope = needed_scope(needs)
    if scope not in token.scopes:
        return Refusal(
            403, f"token {token.name!r} lacks scope {scope} needed by {needs.name} (it has {', '.join(token.scopes)})"
        )
    return None


def check_binding(token: TokenRecord, needs: ToolNeeds, arguments: dict[str, Any]) -> Refusal | None:
    """Whether the call's ``project`` argument (or ``scope="global"``) and ``path_filter`` stay
    within the projects and source paths the token is bound to."""
    project = arguments.get("project")
    if arguments.get("scope") == "global":  # save_memory(scope="global"): the user's transverse memory
        project = "global"
    # "*" (every project) is cut to the token's projects by the tool; each name of "a,b" must be bound
    for name in project.split(",") if isinstance(project, str) else ():
        if name.strip() and name.strip() != "*":
            refusal = check_project(token, name.strip())
            if refusal:
                return refusal
    if token.paths:
        path_filter = arguments.get("path_filter")
        if needs.takes_path_filter:
            if not isinstance(path_filter, str) or not path_filter:
                return Refusal(
                    403,
                    f"scope divergence: token {token.name!r} is bound to path(s) "
                    f"{', '.join(token.paths)}; pass a path_filter inside them",
                )
            if not within(path_filter, token.paths):
                return Refusal(
                    403,
                    f"scope divergence: path_filter {path_filter!r} is outside the token's "
                    f"path(s) {', '.join(token.paths)}",
                )
        elif not needs.path_free_ok:
            return Refusal(
                403,
                f"scope divergence: token {token.name!r} is bound to path(s) "
                f"{', '.join(token.paths)}; {needs.name} cannot be limited to a path — use "
                f"search_memory, recall or recall_context with a path_filter",
                needs_path_filter=True,
            )
    return None


class FailureLimiter:
    """At most ``limit`` failed authentications per client within ``window`` seconds; past it,
    the client is refused (429) until its oldest failure leaves the window."""

    def __init__(self, limit: int = 10, window: float = 60.0) -> None:
        self.limit, self.window = limit, window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._failures.setdefault(client, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def blocked(self, client: str, now: float) -> float | None:
        """Seconds to wait, or None."""
        with self._lock:
            times = self._recent(client, now)
            if len(times) >= self.limit:
                return round(times[0] + self.window - now, 1)
            return None

    def fail(self, client: str, now: float) -> None:
        with self._lock:
            self._recent(client, now).append(now)
            if len(self._failures) > 10_000:  # bound memory: forget clients with no recent failure
                for key in [k for k, v in self._failures.items() if not v]:
                    del self._failures[key]


def _summary(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments for the audit line: ids and short values kept, long text replaced by its length."""
    out: dict[str, Any] = {}
    for key, value in arguments.items():
        if isinstance(value, str) and len(value) > 80:
            out[key] = f"<{len(value)} characters>"
        elif isinstance(value, list) and len(value) > 20:
            out[key] = f"<{len(value)} items>"
        else:
            out[key] = value
    return out


def audit(
    home: Path,
    *,
    token: TokenRecord,
    client: str,
    project: str,
    tool: str,
    arguments: dict[str, Any],
    ok: bool,
    now: datetime,
) -> None:
    """Append one JSON line per write call: who (token id and name, client), what, when, outcome."""
    line = {
        "at": iso(now),
        "token": token.id,
        "name": token.name,
        "client": client,
        "project": project,
        "tool": tool,
        "arguments": _summary(arguments),
        "ok": ok,
    }
    check_home(home)  # a file there: the registry's typed error, not FileExistsError
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(home / AUDIT_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (json.dumps(line, ensure_ascii=False) + "\n").encode())
    finally:
        os.close(fd)
