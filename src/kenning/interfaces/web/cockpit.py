"""What every cockpit handler shares: the served project, the registry, the clock, the
templates, and the form token."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from kenning import registry
from kenning.across.stores import StorePool, global_project
from kenning.auth.tokens import WRITE, TokenRecord
from kenning.config import CONFIG_NAME, STATE_DIR, Project, load_project
from kenning.errors import NotFound, ScopeDenied
from kenning.interfaces.render import (
    DATA_FRAME,
    badge,
    hidden_text,
    is_commit_id,
    line_range,
    method_owner,
    source_text,
    where_text,
)
from kenning.interfaces.serve import Connections
from kenning.records import Answer, Fact
from kenning.registry import Entry
from kenning.store.db import SERVER_LEVEL, connect, open_for_reading, open_store
from kenning.store.handle import Connection

HERE = Path(__file__).parent
TOKEN_KEY = "kenning.token"  # the request scope's verified token, when the cockpit is token-gated


@dataclass
class Cockpit:
    """What every handler needs: the project served, the registry home, the clock, and the
    token that proves a form was served by this process (no cross-site form posts)."""

    project: Project
    home: Path
    clock: Callable[[], datetime]
    form_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    bench_cache: dict[str, Any] = field(default_factory=dict)
    stores: StorePool = field(default_factory=lambda: StorePool(load_project))  # read-only connections for scope "all"
    connections: Connections = field(init=False, repr=False)  # this store's, kept between questions

    def __post_init__(self) -> None:
        self.connections = Connections(self.project)

    def close(self) -> None:
        """Close every store connection the cockpit keeps: its project's and the other
        projects' read-only ones (the server stops: ``app.create_app``'s lifespan)."""
        self.connections.close()
        self.stores.close()

    def registered(self, allowed: frozenset[str] | None) -> list[Entry]:
        """The registered projects, cut to a token's projects (``allowed``) when there is one."""
        return [e for e in registry.list_entries(self.home) if allowed is None or e.name in allowed]

    def project_named(self, name: str, allowed: frozenset[str] | None = None) -> Project:
        """This project, a registered non-confidential one, or the transverse memory (``global``): a
        source link from "all projects". With a token (``allowed``), only the token's projects."""
        if allowed is not None and name not in allowed:
            raise ScopeDenied(f"scope divergence: the token is bound to project(s) {', '.join(sorted(allowed))}")
        if name == self.project.name:
            return self.project
        if name == registry.GLOBAL_NAME:
            return global_project(self.home)
        for entry in registry.list_entries(self.home):
            if entry.name != name:
                continue
            if not (Path(entry.path) / STATE_DIR / CONFIG_NAME).is_file():
                raise NotFound(f"project {name!r} is registered but unreadable at {entry.path}")
            project = load_project(Path(entry.path))
            if project.config.confidential:
                raise ScopeDenied(f"project {name!r} is confidential: it is served only from its own cockpit")
            return project
        raise NotFound(f"no project named {name!r} in the registry", hint="see /status for the projects known here")

    @contextmanager
    def store(self, project: Project | None = None, *, write: bool = False) -> Iterator[Connection]:
        """The project's own store for one request: its SQLite file, or its PostgreSQL server
        (level 2). A write (a memory gesture) never lands anywhere but the server; a read of an
        unreachable server uses the local level-0 store when one exists, as the CLI does — pages
        read through ``reading`` instead, to show that degradation (``fallback`` in the page)."""
        with self.reading(project, write=write) as (conn, _):
            yield conn

    @contextmanager
    def reading(
        self, project: Project | None = None, *, write: bool = False
    ) -> Iterator[tuple[Connection, str | None]]:
        """``store``, and the degradation an answer read from it lists (None: served as asked)."""
        served = project or self.project
        if not served.config.store:
            conn, fallback = connect(served.db_path), None
        elif write:
            conn, fallback = open_store(served), None
        else:
            conn, fallback = open_for_reading(served)
        try:
            yield conn, fallback
        finally:
            conn.close()

    def labelled(self, answer: Answer, fallback: str | None) -> Answer:
        """An answer read through ``reading`` labelled as the CLI labels it: level 2 when the
        server served it, the degradation when the local store stood in for it."""
        if fallback is not None:
            return replace(answer, degradations=(*answer.degradations, fallback))
        return replace(answer, level=SERVER_LEVEL) if self.project.config.store else answer


def cockpit_of(request: Request) -> Cockpit:
    return request.app.state.cockpit


def token_of(request: Request) -> TokenRecord | None:
    return request.scope.get(TOKEN_KEY)


def allowed_of(request: Request) -> frozenset[str] | None:
    """The projects a token-gated request may read (None: no token, every registered one)."""
    token = token_of(request)
    return None if token is None else frozenset(token.projects)


def templates() -> Jinja2Templates:
    found = Jinja2Templates(directory=str(HERE / "templates"))
    env = found.env
    env.filters["day"] = lambda stamp: stamp[:10] if stamp else "-"
    env.filters["badge"] = badge
    env.filters["line_range"] = line_range
    env.filters["source_text"] = source_text
    env.filters["where_text"] = where_text
    env.filters["hidden_text"] = hidden_text
    env.filters["method_owner"] = method_owner
    env.tests["commit_id"] = is_commit_id
    env.globals["DATA_FRAME"] = DATA_FRAME
    env.globals["source_href"] = source_href
    return found


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> Response:
    cockpit = cockpit_of(request)
    token = token_of(request)
    base = {
        "project": cockpit.project,
        "form_token": cockpit.form_token,
        "path": request.url.path,
        "token": token,
        "gated": getattr(request.app.state, "gated", False),
        "can_write": token is None or WRITE in token.scopes,
    }
    return request.app.state.templates.TemplateResponse(request, name, {**base, **context}, status_code=status_code)


def source_href(fact: Fact) -> str:
    """The cockpit link that opens a fact's excerpt in its file, at its first line."""
    first = fact.locations[0] if fact.locations else None
    anchor = f"#L{first.line_start}" if first is not None and first.line_start else ""
    return f"/source/{fact.project}/{fact.id}{anchor}"
