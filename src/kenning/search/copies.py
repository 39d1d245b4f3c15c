"""Copies of one document kept for each release: jq's manual as ``docs/content/manual/manual.yml``
and again under ``dev/``, ``v1.3/`` … ``v1.8/``, Docusaurus' ``docs/intro.md`` and
``versioned_docs/version-2.0/intro.md``. Their texts differ by a few lines, so they are no
duplicates (``store.dedup``), and a word of the manual matched every copy: jq's manuals filled six
of the first ten answers to ``search sqrt``, an old release's first (walked, docs/benchmarks.md
"walks4").

Two excerpts are copies when their files' paths are the same once their release folders are left
out — a release (``v1.5``, ``1.6``, ``2.x``, ``version-2.0``), an API's version (``v1``) or a
channel (``dev``, ``next``, ``latest``, ``stable``, ``nightly``); Docusaurus' ``versioned_docs``
read as ``docs`` — and their titles are the same once a part's number is left out (``notes.txt
(part 18)`` and ``(part 13)``: one document split by lines at other places in each release), or
both are a piece of that one configuration file (``manual.yml: Math › body``, titled by where it
begins: ``ingest.config_titles``). A bare number (``2024/``, ``1/``) is no release: a year's or a
step's folder holds other documents under the same names. A file under a release's folder
(``v1.5``, ``version-2.0``, not ``v1``: an API's versions are all current) is a kept release
(``kept_release``).

A major version's folder (``v1``) is an API's version, all current, unless a later one sits beside
it and the excerpt is documentation (``past_major``): urfave/cli keeps ``docs/v1/``, ``docs/v2/`` and
``docs/v3/``, and the older pages, more of them and as worded as the current ones, came first for
"make a flag required" or "set the exit code" (walked, docs/benchmarks.md "versioneddocs"). So is a
folder named for a major version of another (``docs-v3`` beside ``docs``, or beside ``docs-v4``):
zod keeps its version 3 site, and its Chinese and Korean readmes, in ``packages/docs-v3/`` beside
the current ``packages/docs/``, and they came first for half of the questions on zod 4 (walked,
docs/benchmarks.md "zodgin"). A question that names the version (``v3``, "version 3") asks about it:
its folder is no past release then."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_RELEASE = re.compile(r"v?\d+(?:\.\d+)+|v?\d+\.x|version-\d[\w.-]*", re.IGNORECASE)
_VERSION = re.compile(r"v\d+", re.IGNORECASE)
_MAJOR_FOLDER = re.compile(r"(?:^|/)(?:[^/]*[-_])?v\d+/", re.IGNORECASE)
_NAMED_MAJOR = re.compile(r"(?P<name>[^/]+?)[-_]v(?P<number>\d+)", re.IGNORECASE)  # docs-v3, docs_v3
_ASKED_VERSION = re.compile(r"\b(?:v|version\s*)(\d+)\b", re.IGNORECASE)
_CHANNELS = frozenset({"dev", "next", "latest", "stable", "nightly"})
_PART = re.compile(r" \(part \d+\)$")
_VERSIONED_DOCS = "versioned_docs"


def copy_key(path: str, title: str) -> tuple[str, str]:
    """What the copies of one excerpt share: its file's path without release folders, and its
    title without its part's number."""
    *folders, name = path.split("/")
    kept = ["docs" if f == _VERSIONED_DOCS else f for f in folders if not _versioned(f)]
    if title.startswith(f"{name}: "):  # a configuration file's piece, titled by where it begins
        return "/".join([*kept, name]), name
    return "/".join([*kept, name]), _PART.sub("", title)


def kept_release(path: str) -> bool:
    """Whether the file at ``path`` lies in a release's folder (``docs/v1.5/x.md``), or in
    Docusaurus' ``versioned_docs``: a copy kept for a release, not the current document."""
    folders = path.split("/")[:-1]
    return _VERSIONED_DOCS in folders or any(_RELEASE.fullmatch(f) for f in folders)


def past_major(path: str, folders: Callable[[str], Iterable[str]], asked: frozenset[int] = frozenset()) -> bool:
    """Whether a folder of ``path`` is a major version with a later one beside it among
    ``folders(parent)``, the folders of its parent: ``v2`` beside ``v3`` (``docs/v2/x.md``), or a
    folder named for a version of another, ``docs-v3`` beside ``docs`` or ``docs-v4``. A version
    among ``asked`` (``asked_versions``: the question names it) is none."""
    if _MAJOR_FOLDER.search(path) is None:  # most paths: one search, no split
        return False
    parts = path.split("/")[:-1]
    for at, folder in enumerate(parts):
        if _VERSION.fullmatch(folder):
            name, number = "", int(folder[1:])
        elif (named := _NAMED_MAJOR.fullmatch(folder)) is not None:
            name, number = named["name"].lower(), int(named["number"])
        else:
            continue
        if number not in asked and any(_later_of(f, name, number) for f in folders("/".join(parts[:at]))):
            return True
    return False


def _later_of(folder: str, name: str, number: int) -> bool:
    """Whether ``folder`` holds a later version than ``number`` of the folder ``name`` (its name
    before ``-vN``; empty for a bare ``vN``): ``name`` itself (the current one), or ``name-vM`` (a
    bare ``vM``) with a greater M."""
    if not name:
        return _VERSION.fullmatch(folder) is not None and int(folder[1:]) > number
    if folder.lower() == name:
        return True
    other = _NAMED_MAJOR.fullmatch(folder)
    return other is not None and other["name"].lower() == name and int(other["number"]) > number


def asked_versions(question: str) -> frozenset[int]:
    """The major versions a question names (``v3``, "version 3", ``V2``)."""
    return frozenset(int(n) for n in _ASKED_VERSION.findall(question))


def _versioned(folder: str) -> bool:
    return folder in _CHANNELS or bool(_RELEASE.fullmatch(folder) or _VERSION.fullmatch(folder))
