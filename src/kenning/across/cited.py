"""The store another store's citation points to: `kn://global/3` (`kenning remember --global`),
`kn://beta/4` (a search across projects).

A reader of such a citation (CLI `kenning get` and `memory get`; MCP `memory_get`,
`memory_timeline` and the graph tools) reads that project's store, read-only and behind the
same boundaries as the search that cited it (``stores.opened``): a confidential, unreadable or
unsynced project is refused with its reason, never answered empty. The caller passes the
registry entries it may read (every one for the CLI, a token's projects over HTTP) and ``home``
when the transverse memory may be read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kenning.across.stores import Stores, opened
from kenning.errors import NotFound, ScopeDenied
from kenning.project import Project
from kenning.registry import GLOBAL_NAME, Entry
from kenning.store.handle import Connection


@contextmanager
def named_store(
    name: str, entries: Iterable[Entry], source: Stores, *, home: Path | None
) -> Iterator[tuple[Project, Connection]]:
    """(project ``name``, a read-only connection to its store).

    ``ScopeDenied`` when the project is left out (confidential, unreadable, no index), with its
    reason; ``NotFound`` when neither the entries nor the transverse memory (under ``home``) is
    called ``name``."""
    wanted = [e for e in entries if e.name == name]
    with opened(wanted, source, home=home if name == GLOBAL_NAME else None) as scope:
        for entry in scope.excluded:
            raise ScopeDenied(
                f"project {name!r} is not readable: {entry.reason}",
                hint=f"read it from inside the project (--project PATH), or ask project {name!r} itself",
            )
        for project, conn in scope.stores:
            if project.name == name:
                yield project, conn
                return
    if name == GLOBAL_NAME:
        raise NotFound("the transverse memory holds no note yet", hint="save one with `kenning remember --global TEXT`")
    raise NotFound(
        f"no project {name!r} is registered on this machine",
        hint="`kenning projects list` lists the registered projects; `kenning projects add PATH` registers one",
    )
