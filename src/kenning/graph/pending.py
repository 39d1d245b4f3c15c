"""Which sources other than the files changed since the last sync (the ledger, git's HEAD, a cold
sync's references left unresolved): what a sync with no file to read must still do. Cheap, and
light to import: a no-op ``kenning sync`` asks it without importing the graph's build
(``graph.build``, ``sync.plan``)."""

from __future__ import annotations

from dataclasses import dataclass

from kenning import ledger
from kenning.ingest import git_history
from kenning.project import Project
from kenning.store import graph as graph_store
from kenning.store.db import Connection

# The version of a commit's projection (its fact, node and references), kept in the ``git`` row of
# ``graph_sources``: when it moves, the next sync reads the commits a store holds again
# (``apply_git``), as a parser's version re-reads its files. 2: a message's Windows line ends
# read as plain ones (branch walk4's fix; the stores synced before had no version).
GIT_PROJECTION = "git/2"

# A cold sync (the graph empty when it begins) resolves no reference until its last batch, then
# all of them once, against every node: each batch would otherwise resolve its own references,
# then again the earlier ones naming what it defines (Django: 57,930 re-resolutions in 10
# batches). Meanwhile this row of ``graph_sources`` says that no reference is resolved yet, so
# that the next sync resolves them if this one is stopped between two batches.
DEFERRED = "resolve"


@dataclass(frozen=True)
class Pending:
    ledger: bool = False
    git_head: str | None = None
    resolve: bool = False  # a cold sync stopped before resolving its references (``DEFERRED``)

    def __bool__(self) -> bool:
        return self.ledger or self.git_head is not None or self.resolve


def pending(conn: Connection, project: Project) -> Pending:
    """Which non-file sources changed since the last sync (cheap: no file is read)."""
    rows = graph_store.source_states(conn)
    try:
        st = (project.state_dir / ledger.LEDGER_NAME).stat()
        current = (st.st_size, st.st_mtime_ns)
    except OSError:
        current = None
    known = rows.get("ledger")
    ledger_changed = (current is not None or known is not None) and (
        known is None or (known.size, known.mtime_ns) != current
    )
    head = git_history.head(project.root)
    git_known = rows.get("git")
    git_head = (
        head
        if head is not None
        and (git_known is None or git_known.cursor != head or git_known.fingerprint != GIT_PROJECTION)
        else None
    )
    return Pending(ledger=bool(ledger_changed), git_head=git_head, resolve=DEFERRED in rows)
