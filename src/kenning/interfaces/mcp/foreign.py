"""Reads of another project's citations: the records, the chronology and the graph a
cross-project search cited.

A cross-project `memory_search` or `memory_ask(scope="all")` cites `kn://beta/4` or
`kn://global/1`. With the cross-project switch on (or, over HTTP, for a token's projects) a
tool that takes such a citation — `memory_get`, `memory_timeline`, the graph tools — answers
from that project's store, read-only, like the search that cited it: its freshness, its
level. One project per call; a confidential, unregistered or unreadable project is refused
with its reason (``ScopeDenied``), never an empty result. With the switch off the citation is
refused as before (``ScopeDenied`` from the citation parser, ``kenning.citation``).

:func:`cited_store` is the one way in: the tools call it with the citations they were given
and work on the store it yields, whichever project that is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from kenning.across.cited import named_store
from kenning.citation import cited_project, parse_fact_ref
from kenning.config import kenning_home
from kenning.errors import NotFound, ScopeDenied
from kenning.interfaces.mcp.context import ALLOWED_PROJECTS, ServerContext
from kenning.interfaces.mcp.scope import cross_entries
from kenning.project import Project
from kenning.store.handle import Connection
from kenning.user_config import cross_project_enabled


def _foreign_project(ctx: ServerContext, refs: Sequence[int | str]) -> str | None:
    """The other project every reference cites when the server may read it (None: this
    project's references, read as before, and refused there if some cite another project)."""
    named = {cited_project(raw) or ctx.project.name for raw in refs}
    if len(named) != 1 or ctx.project.name in named:
        return None
    if ALLOWED_PROJECTS.get() is None and not ctx.cross_project and not cross_project_enabled(kenning_home()):
        return None
    return named.pop()


@contextmanager
def cited_store(ctx: ServerContext, refs: Sequence[int | str]) -> Iterator[tuple[Project, Connection]]:
    """(the project, a connection to its store) that ``refs`` are read from: the other
    project they all cite when :func:`_foreign_project` allows it, else this server's own
    store (where a citation of another project is then refused by its parser)."""
    other = _foreign_project(ctx, refs)
    if other is None:
        for raw in refs:  # a malformed id or another project's citation is refused before the store
            parse_fact_ref(raw, ctx.project.name)  # is opened: "run `kenning sync`" would not help
        with ctx.conn() as conn:
            yield ctx.project, conn
        return
    with _foreign_store(ctx, other) as found:
        yield found


@contextmanager
def _foreign_store(ctx: ServerContext, name: str) -> Iterator[tuple[Project, Connection]]:
    """Project ``name``'s store, read-only, opened as a cross-project search opens it (the core
    ``across.cited``, which `kenning get` shares); a project left out is refused there with its
    reason."""
    home, entries, unknown = cross_entries(ctx, [name])
    reading = False
    try:
        with named_store(name, entries, ctx.stores, home=home) as found:
            reading = True
            yield found
    except NotFound:  # over HTTP, a project outside the token is not told apart from an unknown one
        if reading:  # the caller's own NotFound (an unknown id), not the project's
            raise
        if ALLOWED_PROJECTS.get() is not None:
            why = "outside this token's projects"
        else:
            why = "not registered on this machine" if unknown else "it has no store yet"
        raise ScopeDenied(
            f"project {name!r} is not readable from this server: {why}",
            hint="read the records a search cited from the projects it searched (scope.projects of its answer)",
        ) from None
