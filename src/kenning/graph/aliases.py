"""Alias imports (``import { db } from '@/lib/db'``): the path after the alias (``lib/db``, a
reference of kind ``SUFFIX``, ``ingest.tree_imports``) names the project file whose path, its
suffix left out, ends with it (``src/lib/db.ts``, or ``src/lib/db/index.ts``); of several, the
nearest to the importing file (the longest common folder: a monorepo's own package), then the
shortest path. What the alias stands for is the project's configuration (``tsconfig.json``'s
``paths``), which this reads nowhere: the file's end is what the import spells."""

from __future__ import annotations

import posixpath

from kenning.ingest.grammars import COMPONENT_SUFFIXES, stem_of, suffix_of
from kenning.ingest.tree_imports import SUFFIX
from kenning.store import graph as graph_store
from kenning.store.db import Connection
from kenning.store.graph import Candidate


def suffixes_of(path: str) -> set[str]:
    """The ``SUFFIX`` targets a file answers to: every end of its path, its suffix left out, at a
    folder's boundary (``src/lib/db.ts``: ``src/lib/db``, ``lib/db``, ``db``), and its folder's for
    an ``index`` file (``lib/db/index.ts`` is ``lib/db``); a Vue, Svelte or Astro component's with its
    suffix too, which its imports write (``$lib/ListErrors.svelte``, ``@/components/Card.vue``)."""
    suffix = suffix_of(path)
    stems = [path[: -len(suffix)] if suffix else path]
    if suffix.lower() in COMPONENT_SUFFIXES:
        stems.append(path)
    if is_folder_module(path) and posixpath.dirname(path):
        stems.append(posixpath.dirname(path))
    found: set[str] = set()
    for stem in stems:
        parts = stem.split("/")
        found.update("/".join(parts[k:]) for k in range(len(parts)))
    return found


def is_folder_module(path: str) -> bool:
    """Whether the file stands for its folder: JavaScript's ``index`` (``lib/db/index.ts`` is
    ``lib/db``), Rust's ``mod.rs`` (``flags/mod.rs`` is the module ``flags``), Lua's ``init.lua``
    (``lua/telescope/init.lua`` is what ``require("telescope")`` loads)."""
    return stem_of(path) == "index" or path.rpartition("/")[2] in ("mod.rs", "init.lua")


class Suffixes:
    """The project's file nodes by ``suffixes_of``, read once when first asked."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._index: dict[str, list[Candidate]] | None = None
        self._paths: set[str] = set()

    def candidates(self, target: str) -> list[Candidate]:
        if self._index is None:
            self._index = {}
            for row in graph_store.file_nodes(self.conn):
                self._paths.add(row[1] or "")
                for suffix in suffixes_of(row[1] or ""):
                    self._index.setdefault(suffix, []).append(row)
        return self._index.get(target, [])

    def in_crate(self, rows: list[Candidate], importer: str | None) -> list[Candidate]:
        """The Rust files of ``rows`` in the crate of ``importer`` (``use crate::…``): under the
        nearest folder above it that holds a ``Cargo.toml`` (anywhere, when none does)."""
        folder = posixpath.dirname(importer or "")
        while folder and posixpath.join(folder, "Cargo.toml") not in self._paths:
            folder = posixpath.dirname(folder)
        inside = folder + "/" if folder else ""
        return [row for row in rows if (row[1] or "").endswith(".rs") and (row[1] or "").startswith(inside)]


def nearest(rows: list[Candidate], importer: str | None) -> list[Candidate]:
    """The one of ``rows`` an alias import from ``importer`` reaches (``[]`` when none): never the
    importer itself (Neovim's ``plugin/finder.lua`` requires ``finder``: ``lua/finder/init.lua``)."""
    rows = [row for row in rows if row[1] != importer] if importer else rows
    if len(rows) < 2 or not importer:
        return rows[:1]
    folder = posixpath.dirname(importer).split("/")

    def shared(row: Candidate) -> int:
        parts = posixpath.dirname(row[1] or "").split("/")
        n = 0
        while n < min(len(parts), len(folder)) and parts[n] == folder[n]:
            n += 1
        return n

    return [min(rows, key=lambda row: (-shared(row), len(row[1] or ""), row[0]))]


__all__ = ["SUFFIX", "Suffixes", "is_folder_module", "nearest", "suffixes_of"]
