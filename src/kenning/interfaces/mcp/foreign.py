"""`memory_get` of another project's facts: the records a cross-project search cited.

A cross-project `memory_search` or `memory_ask(scope="all")` cites `kn://beta/4` or
`kn://global/1`; with the cross-project switch on (or, over HTTP, for a token's projects) the
full records are read from that store, read-only, like the search that cited them. One project
per call; a confidential, unregistered or unreadable project is refused with its reason, never
an empty result. With the switch off the call is refused as before (``ScopeDenied``).
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.across.stores import opened
from kenning.citation import cited_project, parse_fact_ref
from kenning.config import kenning_home
from kenning.errors import ScopeDenied
from kenning.interfaces.mcp.context import ALLOWED_PROJECTS, ServerContext
from kenning.interfaces.mcp.scope import cross_entries
from kenning.memory.layers import Detail, details
from kenning.project import Project
from kenning.user_config import cross_project_enabled


def foreign_project(ctx: ServerContext, ids: Sequence[int | str]) -> str | None:
    """The other project every id cites when the server may read it (None: this project's ids,
    read as before, and refused there if some cite another project)."""
    named = {cited_project(raw) or ctx.project.name for raw in ids}
    if len(named) != 1 or ctx.project.name in named:
        return None
    if ALLOWED_PROJECTS.get() is None and not ctx.cross_project and not cross_project_enabled(kenning_home()):
        return None
    return named.pop()


def foreign_details(ctx: ServerContext, name: str, ids: Sequence[int | str]) -> tuple[Project, list[Detail], list[int]]:
    """(the project, its records found, the ids not found) for ids all citing project ``name``."""
    wanted = [parse_fact_ref(raw, name) for raw in ids]
    home, entries, unknown = cross_entries(ctx, [name])
    if ALLOWED_PROJECTS.get() is not None:
        why = "outside this token's projects"
    else:
        why = "not registered on this machine" if unknown else "it has no store yet"
    with opened(entries, ctx.stores, home=home) as scope:
        for entry in scope.excluded:
            raise ScopeDenied(f"project {name!r} is not readable from this server: {entry.reason}")
        for project, conn in scope.stores:
            if project.name == name:
                found, missing = details(conn, project, wanted, now=ctx.clock())
                return project, found, missing
    raise ScopeDenied(
        f"project {name!r} is not readable from this server: {why}",
        hint="read the records a search cited from the projects it searched (scope.projects of its answer)",
    )
