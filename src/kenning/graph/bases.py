"""The bases of a class another file defines, for a self call or a typed receiver whose class
and the bases its own file names do not define the method called: ``BaseDateDetailView`` in
``dates.py`` names ``BaseDetailView`` (imported from ``detail.py``), whose own file names its
bases ``SingleObjectMixin`` and ``View``. Read from the ``BASES`` references (``ingest.relations``)
each class's file wrote, by the class's short name, once a resolution."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kenning.graph.narrow import module_of
from kenning.ingest.relations import BASES, SELF_HINT
from kenning.store import graph as graph_store
from kenning.store import graph_refs
from kenning.store.db import Connection
from kenning.store.graph import Node

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
        short = name.rpartition(".")[2]
        rows = self._by_short.get(short)
        if rows is None:
            rows = self._by_short[short] = self._read(short)
        index = one_named(name, [full for full, _, _ in rows])
        return None if index is None else rows[index][1:]

    def _read(self, short: str) -> list[tuple[str, str, list[str]]]:
        found = []
        for module, entries in module_hints(self.conn, BASES, short):
            prefix = f"{module}." if module else ""
            found.append((prefix + entries[0][1:], prefix, entries))
        return found


def naming_rules(name: str) -> tuple[Callable[[str], bool], ...]:
    """What a class's dotted name must be for the dotted ``name`` a file writes to stand for it,
    the most exact first: ``name`` itself; a name ending so (written from below the project's
    root: ``flaskr.db.Base`` for ``examples.tutorial.flaskr.db.Base``); a name in its package or
    below it (where the package re-exports it: ``django.db.models.Model`` for
    ``django.db.models.base.Model``)."""
    package = name.rpartition(".")[0]
    return (
        lambda full: full == name,
        lambda full: full.endswith("." + name),
        lambda full: bool(package) and (full.startswith(package + ".") or f".{package}." in full),
    )


def one_named(name: str, fulls: Sequence[str]) -> int | None:
    """The index among ``fulls`` (dotted class names) of the one class ``name`` stands for: the
    first rule of ``naming_rules`` that one alone meets; None when none does or several do."""
    for matches in naming_rules(name):
        chosen = [i for i, full in enumerate(fulls) if matches(full)]
        if len(chosen) == 1:
            return chosen[0]
    return None


def module_hints(conn: Connection, type_: str, name: str) -> list[tuple[str, list[str]]]:
    """(the module of the file that wrote it, its hint's entries) of each ``type_`` reference
    named ``name`` with a hint: the classes a file names for one of its classes (``BASES``) or
    its globals (``GLOBALS``), a class of that module written with a leading dot. A class several
    references of one file name (Rust: one per ``impl Trait for Type`` block) is one entry, its
    bases in the order written."""
    ids = graph_refs.refs_targeting_many(conn, [(type_, name)])
    merged: dict[tuple[str | None, str], list[str]] = {}
    for row in graph_refs.ref_rows(conn, ids, sources=False):
        if row.type == type_ and row.hint:
            own, *named = row.hint.split(" ")
            entries = merged.setdefault((row.src_path, own), [own])
            entries += [entry for entry in named if entry not in entries]
    return [(module_of(path or ""), entries) for (path, _), entries in merged.items()]


def declarations(conn: Connection, nodes: list[Node]) -> list[Node]:
    """The methods the method nodes among ``nodes`` implement or override: a method of the same
    name in a base of their class, its bases' bases followed (``Bases``), nearest first — so that
    a call written on the interface (``_identityService.AuthorizeAsync()`` on ``IIdentityService``)
    counts among the callers of the class's method that implements it. None for a node that is no
    method of a class with bases."""
    found: list[Node] = []
    seen = {n.id for n in nodes}
    bases = Bases(conn)
    for node in nodes:
        cls, _, method = node.qualname.rpartition(".")
        if node.kind != "symbol" or not cls or not node.path:
            continue
        module = module_of(node.path)
        short = cls.rpartition(".")[2]
        own = [entries for at, entries in module_hints(conn, BASES, short) if at == module and len(entries) > 1]
        if len(own) != 1:
            continue  # no base its file names, or two classes of that name in one module
        for base in bases.expanded(SELF_HINT + " ".join(own[0]), module)[1:]:
            for declared in graph_store.nodes_by(conn, "qualname", f"{base}.{method}", limit=4):
                if declared.id not in seen:
                    seen.add(declared.id)
                    found.append(declared)
    return found
