"""A project's history in its files, and the questions that ask for it.

A changelog (``CHANGELOG.md``, ``CHANGES.rst``, ``HISTORY``, ``NEWS``) or a folder of release notes
(Django's ``docs/releases/4.2.txt``) names every feature the project ever touched, in the words of its
docs and code: a question about a feature as it is now ("choose where sessions are stored", "enable
HTTP/2") found those entries before the pages that explain it (docs/benchmarks.md, "historydocs"). A
question that asks about history — when, why, what changed, what was added, removed, renamed or
deprecated — wants them, and the commit log (``search.ranker``: all three weigh half otherwise).
Standard library only: search imports it (start-up time)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from kenning.store.fold import unaccented

_HISTORY_NAMES = frozenset(
    {"changelog", "changes", "history", "news", "releases", "release-notes", "release_notes", "whatsnew", "whats-new"}
)
# A question about history (EN and FR, accents ignored). Only words that ask about the past: not
# "change", "release" or "ajouter" (how to change, release or add something now), not "version"
# ("add a version option"), not "since" ("since the request started"); "when" and "quand" only
# opening the question or after "since" / "depuis" ("when was X added", not "raise an error when
# the status is 404"), and "when" then only before a past (``was``, ``did``, ``has``…): "when does
# a plant need watering", "when are old .log files deleted" ask how the code behaves now
# (android/sunflower, walked: three commits before ``Plant.shouldBeWatered``); "change" only in the
# past ("how did X change", "comment a changé X"); "added", "removed"… after "was", "were", "been"
# or before "in" ("which options were removed", "added in 2.0"; not "how are headers added to a
# request"); "why" only before a past ("why was X renamed", "why did the default change", "pourquoi … a
# été"), or a change said ("no longer", "ne … plus"): "why does flask use context locals", "why doesn't
# the recovery middleware print a stack trace" ask how things are now, which the code and docs say
# (gin, walked: the commits came first; docs/benchmarks.md, "whynow").
_ASKS_HISTORY = re.compile(
    r"^\W*(?:when\W+(?:was|were|did|has|have|had)|quand)\b|\bdid\b.*\bchange\b"
    r"|\b(?:a|ont|avait|avaient) (?:ete )?change\b"
    r"|\b(?:was|were|been|got|get)\b(?:\W+\w+){0,3}?\W+(?:added|removed|renamed|introduced|released)\b"
    r"|\b(?:added|removed|renamed|introduced|released) in\b"
    r"|\bwhy\W+(?:was|were|did|has|have|had)\b"
    r"|\bpourquoi\b.*\b(?:a|ont|avait|avaient)(?:-t)?(?:-(?:il|elle|ils|elles|on))? ete\b"
    r"|\bno longer\b|\bne\W+(?:\w+\W+){0,2}plus\b"
    r"|\b(?:since when|depuis quand|what'?s new|changed|changelog"
    r"|deprecat\w*|release notes|historical|breaking|upgrading|new in"
    r"|changement\w*|(?:ajoute|supprime|renomme|deprecie|modifie|introduit)e?s?"
    r"|historique|nouveaute\w*)\b"
)

_PROSE = frozenset({"", "md", "markdown", "rst", "txt", "adoc", "asciidoc"})


def is_history_path(path: str) -> bool:
    """True for a project-relative POSIX path of a changelog or of release notes: a prose file
    (Markdown, reStructuredText, AsciiDoc, text or no extension) named ``CHANGELOG``, ``CHANGES``,
    ``HISTORY``, ``NEWS``, ``RELEASES``… (any case), or in a folder so named
    (``docs/releases/4.2.txt``); never code (``src/changes.py``)."""
    folder, name = posixpath.split(path.lower())
    stem, _, extension = name.rpartition(".") if "." in name else (name, "", "")
    if extension not in _PROSE:
        return False
    return stem.split(".", 1)[0] in _HISTORY_NAMES or any(part in _HISTORY_NAMES for part in folder.split("/"))


# "history" asks for the project's when it opens the question or follows one of these ("the history
# of…", "git history", "the project's history"); after another word it names a thing the code keeps
# ("where is the redirect history built": requests' ``Response.history``; a browser's, a shell's, an
# undo history), and the commits that say so are no answer to it.
_HISTORY = re.compile(r"(?:\b(\w+)\W+)?\bhistory\b")
_OF_THE_PROJECT = frozenset(
    {
        *("the", "its", "their", "our", "my", "your", "a", "s", "whole", "full", "entire", "long", "recent", "past"),
        *("of", "in", "on", "from", "and", "or", "about", "through", "show", "read", "see"),
        *("git", "commit", "commits", "release", "releases", "version", "versions", "change", "changes"),
        *("revision", "revisions", "code", "file", "files", "project", "repo", "repository", "branch"),
    }
)


def asks_history(text: str) -> bool:
    """Whether a question asks about the project's history (when, why, what changed …)."""
    folded = unaccented(text)
    if _ASKS_HISTORY.search(folded) is not None:
        return True
    return any(m[1] is None or m[1].lower() in _OF_THE_PROJECT for m in _HISTORY.finditer(folded))


# A question about what changed in a release (EN and FR, accents ignored): a change said as such
# (not "change" or "new", which ask how to: "how do I change the version", "release a new version") …
_CHANGES = re.compile(
    r"\b(?:changed|changes|changelog|change ?log|what'?s new|new in|notes|added|removed|fixed|differences?"
    r"|new features?|(?:a|ont) change|changements?|nouveautes?|quoi de neuf|ajoute\w*|corrige\w*)\b"
    # a change asked in the past's base form: "did gson 2.10 add support for records?"
    r"|\bdid\b.*\b(?:add|remove|change|fix|introduce|drop|deprecate|rename)\b"
)
# … in a release named by its number (``1.10``, ``v2.0.1``) …
_NUMBER = re.compile(r"\bv?(\d+(?:\.\d+)+)\b")
# … or in the newest one.
_NEWEST = re.compile(
    r"\b(?:last|latest|newest|most recent|current|recent|dernieres?|recentes?|actuelles?)\s+"
    r"(?:release|version|tag|versions|releases|publication|mouture|sortie)\b"
    r"|\b(?:version|release|publication)\s+(?:la plus recente|actuelle)\b"
)


# … or since one ("since 1.2", "depuis la 1.2"): the releases after it.
_SINCE = re.compile(r"\b(?:since|after|depuis|apres)\s+(?:(?:the|la|le|version|release)\s+)*v?\d")
# A release's number in a title, a file name or a tag (``v1.12.0``, ``axum-v0.8.9``); not a
# pre-release's (``5.0.0-beta.3``, ``2.0rc1``): its notes are no part of the release's.
RELEASE_NUMBER = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\d)(?!-?(?:alpha|beta|rc|pre|dev|a\d|b\d))", re.I)


@dataclass(frozen=True)
class Release:
    """The release a question asks what changed in: ``number`` (its parts) or, None, the newest;
    with ``since``, the releases after ``number``."""

    number: tuple[int, ...] | None
    since: bool = False

    def matches(self, version: tuple[int, ...]) -> bool:
        """Whether ``version`` is one the question asks about: the number's line (``1.10``: 1.10.0,
        1.10.1), or with ``since`` a later release (1.2.0 is 1.2: not after it)."""
        if self.number is None:
            return False
        if self.since:
            width = max(len(version), len(self.number))
            return _padded(version, width) > _padded(self.number, width)
        return version[: len(self.number)] == self.number


def _padded(version: tuple[int, ...], width: int) -> tuple[int, ...]:
    return version + (0,) * (width - len(version))


def release_asked(text: str) -> Release | None:
    """The release a question asks what changed in ("what changed in the last release", "what's
    new in 1.10", "qu'est-ce qui a changé dans la dernière version"), or None."""
    folded = unaccented(text.lower())
    if not _CHANGES.search(folded):
        return None
    number = _NUMBER.search(folded)
    if number:
        return Release(version_of(number.group(1)), since=_SINCE.search(folded) is not None)
    return Release(None) if _NEWEST.search(folded) else None


def version_of(text: str) -> tuple[int, ...]:
    """``"1.10.2"`` as ``(1, 10, 2)``."""
    return tuple(int(part) for part in text.split("."))


def release_name(version: tuple[int, ...]) -> str:
    """``(1, 10, 2)`` as ``"v1.10.2"``, as an answer's note names a release."""
    return "v" + ".".join(map(str, version))
