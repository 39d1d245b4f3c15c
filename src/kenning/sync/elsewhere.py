"""What keeps a sync from emptying a shared project by mistake.

A PostgreSQL store (level 2) is shared by every machine whose config names the project: a sync
from a directory without the project's files (an agent host holding only
``.kenning/config.toml``, a wrong ``--project``) would retire every excerpt of the project for
every machine. Such a sync is refused before anything is written. A project whose files were
all deleted on purpose looks the same from here, so the user says so, and how many:
``kenning sync --retire-missing N`` retires the N indexed files not found here, and is refused
unless exactly N are missing (the refusal said how many; a count that moved since — another
machine synced — writes nothing) and, when the store indexed the project's git history, unless
this directory's repository holds the last commit indexed: a directory that is not the
project's checkout at all cannot empty it.
"""

from __future__ import annotations

from kenning.errors import UsageError
from kenning.files import none_here
from kenning.store import sources
from kenning.store.graph import source_states
from kenning.store.postgres.connection import is_pg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from kenning.project import Project
    from kenning.store.handle import EngineConnection


def check(
    conn: EngineConnection,
    project: Project,
    manifest: Mapping[str, object],
    present: Collection[str],
    vanished: Collection[str],
    retire_missing: int | None,
) -> None:
    """Refuse (``UsageError``, nothing written) a sync that would empty a shared project from
    a directory without its files, unless ``retire_missing`` (``--retire-missing``) names how
    many files go; and a ``retire_missing`` other than the number of indexed files not found
    here (``vanished``), on any store. Told from what the sync read already (``manifest``, the
    files found here: ``present``): a file found here that the manifest indexed says the
    checkout is here, one look-up in the usual case."""
    if retire_missing is not None and retire_missing != len(vanished):
        raise UsageError(
            f"--retire-missing {retire_missing}: {len(vanished)} file(s) indexed for {project.name} "
            f"are not found under {project.root}, not {retire_missing}; nothing written",
            hint=f"`kenning sync --retire-missing {len(vanished)}` retires them, if that directory is the project's "
            "checkout and they were deleted on purpose",
        )
    if not is_pg(conn) or not manifest or any(path in manifest for path in present):
        return
    if not none_here(str(project.root), manifest):
        return
    if retire_missing is None:
        raise UsageError(
            f"none of the {len(manifest)} file(s) indexed for {project.name} is under {project.root}: a sync from "
            f"here would retire every excerpt of their {len(manifest)} file(s) ({sources.manifest_excerpts(conn)} "
            "excerpt(s)) on the shared PostgreSQL store, for every machine",
            hint="run `kenning sync` in a checkout of the project that holds its files; if they were all deleted on "
            f"purpose, `kenning sync --retire-missing {len(manifest)}` there retires them",
        )
    _refuse_another_checkout(conn, project)


def _refuse_another_checkout(conn: EngineConnection, project: Project) -> None:
    """``--retire-missing`` with none of the files here: the directory must be the project's
    checkout, as far as can be told. The last commit the store indexed from the project's git
    history must read in a repository at or above the root (a bare config folder, or a clone of
    another repository, holds none). A project whose history was never indexed (not in git)
    leaves only the count to check."""
    from kenning.freshness import commit_reads  # a rare path: freshness is not a sync's import

    git = source_states(conn).get("git")
    head = git.cursor if git is not None else None
    if head and not commit_reads(str(project.root), head):
        raise UsageError(
            f"{project.root} is not a checkout of {project.name}: the last commit indexed for it ({head[:12]}) "
            "is in no git repository there; nothing written",
            hint="run `kenning sync --retire-missing …` in the project's own checkout",
        )
