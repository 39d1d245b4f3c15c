"""What the long-lived servers (``kenning mcp``, ``kenning serve``) share: the store
connections they keep between requests, and a question answered on one of them.

Opening a store costs about a millisecond (pragmas, the schema check) and starts with a cold
page cache; a server answers every request on a connection it already holds. Requests run in
worker threads, so each running request holds its own connection: taken from the free ones
or opened, and handed back after.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from kenning.answer.ask import ask_project
from kenning.errors import IndexMissing
from kenning.project import Project
from kenning.records import Answer
from kenning.store.db import open_store
from kenning.store.handle import Connection


@dataclass
class Connections:
    """The connections to one project's store a server keeps (see the module doc)."""

    project: Project
    _free: list[Connection] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @contextmanager
    def conn(self, *, create: bool = False) -> Iterator[Connection]:
        """A connection for one request, handed back to the free ones after it."""
        with self._lock:
            taken = self._free.pop() if self._free else None
        if taken is None:
            taken = open_store(self.project, create=create)
        try:
            yield taken
        finally:
            with self._lock:
                self._free.append(taken)


def ask_kept(connections: Connections, question: str, *, now: datetime, limit: int = 10) -> Answer:
    """``ask_project`` on one of the server's kept SQLite connections: the same answer as a
    one-shot ``kenning ask``. On its own for a store it cannot open yet (no index: the answer
    says so) and for a PostgreSQL store (an unreachable server falls back to the local store,
    said in the answer)."""
    project = connections.project
    if project.config.store:
        return ask_project(project, question, now=now, limit=limit)
    try:
        with connections.conn() as conn:
            return ask_project(project, question, now=now, limit=limit, conn=conn)
    except IndexMissing:
        return ask_project(project, question, now=now, limit=limit)
