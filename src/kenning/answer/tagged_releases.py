"""A release asked about in a project that keeps no release notes, only git tags (many Go and
JavaScript projects publish theirs on their forge): the release is the tag whose name holds its
number (``v2.0.9``), the newest the highest number, and what changed in it the commits its tag
reaches and the tag before it does not — newest first, as the store holds them (their facts, their
freshness). bubbletea's "what changed in the last release" answered commits saying "last render"
(walked: docs/benchmarks.md, "bubbletea"). "since 1.10" is what HEAD reaches and 1.10's tag does not.
Pre-releases' tags (``v2.0.0-rc.1``) are none. Git is asked at read (two processes); a store read
where its repository is not (PostgreSQL on another machine) finds no tag, and says nothing."""

from __future__ import annotations

from kenning.ingest import git_history
from kenning.project import Project
from kenning.records import Fact, Lifecycle
from kenning.search.history import RELEASE_NUMBER, Release, release_name, version_of
from kenning.store import facts as fact_store
from kenning.store.graph_lookup import commit_facts
from kenning.store.handle import Connection

# Commits put first at most, newest first (as many release notes' sections as ``answer.releases``).
MAX_COMMITS = 5
# Commits read from git for one release: enough to find the first five the store holds.
READ_COMMITS = 200


def tagged_release(conn: Connection, project: Project, release: Release) -> tuple[str, list[Fact], str]:
    """(the version found, the facts of its commits put first, where they come from), or
    ``("", [], "")`` when no tag names the release asked."""
    versions: dict[tuple[int, ...], str] = {}  # a release's number -> its commit
    for name, commit in git_history.tags(project.root):
        match = RELEASE_NUMBER.search(name)
        if match:
            versions.setdefault(version_of(match.group(1)), commit)
    if not versions:
        return "", [], ""
    oldest: str | None
    if release.since:  # from the newest release at or before the number asked to HEAD
        upto = [v for v in versions if not release.matches(v)]
        if not upto:
            return "", [], ""
        version, newest, oldest = "HEAD", "HEAD", versions[max(upto)]
        where = f"the commits after {release_name(max(upto))}'s tag"
    else:
        if release.number is None:
            chosen = max(versions)
        else:
            named = sorted((v for v in versions if release.matches(v)), key=lambda v: (v != release.number, v))
            if not named:
                return "", [], ""
            chosen = named[0]
        before = max((v for v in versions if v < chosen), default=None)
        version, newest, oldest = release_name(chosen), versions[chosen], versions[before] if before else None
        where = f"the commits of {version}'s tag" + (f" since {release_name(before)}'s" if before else "")
    shas = git_history.commits_between(project.root, newest, oldest, limit=READ_COMMITS)
    held = commit_facts(conn, shas)
    ids = [held[sha] for sha in shas if sha in held]
    facts = fact_store.get_many(conn, project.name, ids)
    found = [facts[i] for i in ids if i in facts and facts[i].lifecycle is Lifecycle.ACTIVE][:MAX_COMMITS]
    return (version, found, where) if found else ("", [], "")
