"""The bases of a class another file defines, for a self call or a typed receiver whose class
and the bases its own file names do not define the method called: ``BaseDateDetailView`` in
``dates.py`` names ``BaseDetailView`` (imported from ``detail.py``), whose own file names its
bases ``SingleObjectMixin`` and ``View``. Read from the ``BASES`` references (``ingest.relations``)
each class's file wrote, by the class's short name, once a resolution."""

from __future__ import annotations

from kenning.graph.narrow import module_of
from kenning.ingest.relations import BASES, SELF_HINT
from kenning.store import graph as graph_store
from kenning.store.db import Connection

MAX_DEPTH = 4  # imported classes followed through at most this many files


class Bases:
    """The classes a hint names, with the bases of each imported one followed into the files
    that define them (depth first, in the order each file lists them), looked up as asked and
    kept for the resolution's duration."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._by_short: dict[str, list[tuple[str, str, list[str]]]] = {}

    def expanded(self, hint: str, module: str) -> list[str]:
        """The dotted names of the classes ``hint`` (``SELF_HINT`` …, written in ``module``)
        stands for, the bases of its imported classes included."""
        found: list[str] = []
        self._add(hint[len(SELF_HINT) :].split(" "), f"{module}." if module else "", found, 0)
        return found

    def _add(self, entries: list[str], prefix: str, found: list[str], depth: int) -> None:
        for entry in entries:
            local = entry[0] == "."
            name = prefix + entry[1:] if local else entry
            if name in found:
                continue
            found.append(name)
            # a class of the caller's own file is followed too in the tree-sitter languages (no
            # module: ``prefix`` ""), whose file hints name a class's own bases only, not theirs
            if (not local or not prefix) and depth < MAX_DEPTH:
                defined = self._defined(name)
                if defined is not None:
                    self._add(defined[1][1:], defined[0], found, depth + 1)  # the class itself left out

    def _defined(self, name: str) -> tuple[str, list[str]] | None:
        """Where the class ``name`` is defined (the prefix of its file's module) and the classes
        its file names for it; a class below the project's root or re-exported by its package
        (``django.db.models.Model``) is matched as ``narrow`` matches a method's. None: no one
        class of the project, or one with no base its file names."""
        package, _, short = name.rpartition(".")
        rows = self._by_short.get(short)
        if rows is None:
            rows = self._by_short[short] = self._read(short)
        for matches in (
            lambda full: full == name,
            lambda full: full.endswith("." + name),
            lambda full: bool(package) and (full.startswith(package + ".") or f".{package}." in full),
        ):
            chosen = [(prefix, entries) for full, prefix, entries in rows if matches(full)]
            if len(chosen) == 1:
                return chosen[0]
        return None

    def _read(self, short: str) -> list[tuple[str, str, list[str]]]:
        found = []
        for module, entries in module_hints(self.conn, BASES, short):
            prefix = f"{module}." if module else ""
            found.append((prefix + entries[0][1:], prefix, entries))
        return found


def module_hints(conn: Connection, type_: str, name: str) -> list[tuple[str, list[str]]]:
    """(the module of the file that wrote it, its hint's entries) of each ``type_`` reference
    named ``name`` with a hint: the classes a file names for one of its classes (``BASES``) or
    its globals (``GLOBALS``), a class of that module written with a leading dot."""
    ids = graph_store.refs_targeting_many(conn, [(type_, name)])
    return [
        (module_of(row.src_path or ""), row.hint.split(" "))
        for row in graph_store.ref_rows(conn, ids, sources=False)
        if row.type == type_ and row.hint
    ]
