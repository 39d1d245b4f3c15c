"""A question about a release — "what changed in the last release", "what's new in 1.10",
"release notes of 5.0.6", "qu'est-ce qui a changé dans la dernière version" — answered by the
release notes themselves, first: the sections of a changelog (``CHANGELOG.md``'s ``Gin v1.12.0``,
its ``Features`` and ``Bug fixes`` below it) or the file of release notes (Django's
``docs/releases/5.0.6.txt``) of the release it names, or of the newest one it finds. Their words
are not the question's ("last", "release"), so the search alone found code named ``Last()``
(gin, walked: docs/benchmarks.md, "walks5"); and "what changed" sent the question to the
freshness report of the index, which is not what it asks.

A release is found by its number in a section's title (its own or a parent's) or in the name of
a file of release notes (``search.history.is_history_path``); the newest is the highest number. A
project without release notes is asked its git tags (``answer.tagged_releases``). A question naming a
number that neither holds gets the search's answer alone: nothing is put first that the notes or
the history do not say."""

from __future__ import annotations

import posixpath
from dataclasses import replace
from datetime import datetime

from kenning.answer.tagged_releases import tagged_release
from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.project import Project
from kenning.records import Answer, Excerpt, Fact, Lifecycle
from kenning.search.history import (
    RELEASE_NUMBER,
    Release,
    is_history_path,
    release_asked,
    release_name,
    version_of,
)
from kenning.search.snippet import make_snippet
from kenning.store import facts as fact_store
from kenning.store import lookups, sources
from kenning.store.handle import Connection

# Release notes put first at most: the release's sections in the notes' order, then those of the
# releases before it (the newest asked) or of its fixes (``1.10``: 1.10.0's, then 1.10.1's).
MAX_SECTIONS = 5
_PROSE = (".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc")


def with_release_notes(
    conn: Connection,
    project: Project,
    question: str,
    answer: Answer,
    *,
    now: datetime,
    limit: int,
    explain: bool = False,
) -> Answer:
    """``answer`` with the release notes of the release ``question`` asks about first (its own
    excerpts after them, each once, within ``limit``); ``answer`` itself when it asks about none or
    the notes say nothing of it."""
    release = release_asked(question)
    if release is None:
        return answer
    version, notes = _release_notes(conn, project, release)
    where = notes[0].locations[0].path if notes and notes[0].locations else ""
    if not notes:  # no release notes: the release's tag, and its commits since the tag before it
        version, notes, where = tagged_release(conn, project, release)
    if not notes:
        return answer
    files = FileCheck(project.root, conn, split_spans)
    files.preload(loc.path for fact in notes for loc in fact.locations)
    first = [Excerpt(f, freshness_of(f, now=now, files=files), make_snippet(f.body, ()), 0.0, 0) for f in notes]
    if explain:
        first = [replace(e, explain={"release_notes": version}) for e in first]
    shown = {e.fact.id for e in first}
    merged = [*first, *(e for e in answer.excerpts if e.fact.id not in shown)][:limit]
    ranked = tuple(replace(e, rank=rank) for rank, e in enumerate(merged, start=1))
    if release.since and release.number is not None:
        which = f"the releases after {release_name(release.number)}, the newest first"
    else:
        which = "newest release" if release.number is None else "release asked"
    note = f"release notes first: {where or notes[0].title} for {version} ({which})"
    return replace(answer, excerpts=ranked, empty_reason=None, notes=(*answer.notes, note))


def _release_notes(conn: Connection, project: Project, release: Release) -> tuple[str, list[Fact]]:
    """The version found ("v1.12.0") and the notes' excerpts put first: its own, in their files'
    order, then the releases' before it (the newest asked) or its fixes' (``MAX_SECTIONS``)."""
    paths = [p for p in lookups.manifest_paths(conn) if is_history_path(p)]
    if not paths:
        return "", []
    named = {p: _file_version(p) for p in paths}
    per_file = [p for p, v in named.items() if v is None]  # changelogs: a release per section
    by_name = {p: v for p, v in named.items() if v is not None}  # a release per file
    wanted = [p for p, v in by_name.items() if release.matches(v)]
    if release.number is None or release.since:  # the newest files, enough for the sections put first
        wanted = sorted(wanted if release.since else by_name, key=lambda p: by_name[p], reverse=True)[:MAX_SECTIONS]
    located = sources.facts_located_in(conn, [*per_file, *wanted])
    ids = [fact_id for path in (*per_file, *wanted) for _, fact_id in located.get(path, ())]
    facts = fact_store.get_many(conn, project.name, list(dict.fromkeys(ids)))
    found: list[tuple[str, tuple[int, ...], Fact]] = []  # (file, release, section)
    for fact_id in dict.fromkeys(ids):
        fact = facts.get(fact_id)
        if fact is None or fact.lifecycle is not Lifecycle.ACTIVE or fact.type != "doc" or not fact.locations:
            continue
        path = fact.locations[0].path
        version = by_name.get(path) or _title_version(fact.title)
        if version is not None:
            found.append((path, version, fact))
    if release.number is None:  # the newest: of the project's own changelog where packages keep theirs
        main = _main_changelog({path for path, _, _ in found if path not in by_name}, {project.name, project.root.name})
        if main is not None:
            kept = {main, *by_name}
            found = [item for item in found if item[0] in kept]
    groups: dict[tuple[int, ...], list[Fact]] = {}
    for _, version, fact in found:
        groups.setdefault(version, []).append(fact)
    if release.number is None:  # the newest, then the ones before it
        chosen = sorted(groups, reverse=True)
    elif release.since:  # the releases after it, the newest first
        chosen = sorted((v for v in groups if release.matches(v)), reverse=True)
    else:  # the release named, else its line in order (``1.10``: 1.10.0, its fixes)
        chosen = sorted((v for v in groups if release.matches(v)), key=lambda v: (v != release.number, v))
    if not chosen:
        return "", []
    if release.since:  # each later release's first section: which came after it, and what each says first
        notes = [groups[version][0] for version in chosen][:MAX_SECTIONS]
    else:
        notes = [fact for version in chosen for fact in groups[version]][:MAX_SECTIONS]
    return release_name(chosen[0]), notes


def _main_changelog(paths: set[str], names: set[str]) -> str | None:
    """Of the changelogs of several packages (``paths``: each holding releases; axum's five crates,
    a JavaScript monorepo's ``packages/*/CHANGELOG.md``), the project's own: the one in a folder
    named as the project is (``names``: its name, its folder's; ``axum/CHANGELOG.md`` in axum), else
    the one nearest the root alone;
    None when there is one changelog, or nothing tells which (their numbers are then compared:
    the highest is the newest). axum's "what changed in the last release" answered axum-extra's
    0.12.6 before axum's 0.8.9: numbers of two packages, not comparable (walked, docs/benchmarks.md,
    "axum")."""
    if len(paths) < 2:
        return None
    wanted = {name.lower() for name in names}
    named = [p for p in paths if not wanted.isdisjoint(part.lower() for part in p.split("/")[:-1])]
    if len(named) == 1:
        return named[0]
    depth = {p: p.count("/") for p in paths}
    nearest = [p for p in paths if depth[p] == min(depth.values())]
    return nearest[0] if len(nearest) == 1 else None


def _file_version(path: str) -> tuple[int, ...] | None:
    """The release a file of release notes is named after (``docs/releases/5.0.6.txt``), or None
    (``CHANGELOG.md``: its sections name theirs)."""
    name = posixpath.basename(path)
    stem, extension = posixpath.splitext(name)
    if extension.lower() not in _PROSE:  # ``docs/releases/5.0``: no extension, the whole name
        stem = name
    match = RELEASE_NUMBER.fullmatch(stem.lower().removeprefix("release-").removeprefix("release_"))
    return version_of(match.group(1)) if match else None


def _title_version(title: str) -> tuple[int, ...] | None:
    """The release a section is about: the number in its own title or its closest parent's
    (``ChangeLog > Gin v1.12.0 > Features``: 1.12.0)."""
    for part in reversed(title.split(" > ")):
        match = RELEASE_NUMBER.search(part)
        if match:
            return version_of(match.group(1))
    return None
