"""Inheritance, both ways: the classes that extend or implement a class ("what extends BaseEntity",
"which classes implement OwnerRepository", "qui hérite de Model") and the classes a class extends
or implements ("what does Owner extend", "de quoi hérite Owner").

No edge is stored for inheritance. A class whose file names bases of it wrote a ``bases``
reference (``ingest.relations.BASES``): the class, then its bases as the file names them — one of
the same file with a leading dot (``.BaseModelAdmin``), an imported one by its dotted name
(``django.db.models.Model``, where the package re-exports ``django.db.models.base.Model``), or, in
the tree-sitter languages, the name as written (``BaseEntity``). Resolution reads them to follow a
self call into a base (``graph.bases``); read the other way, they answer the question: the classes
whose bases name the one asked about, then theirs, up to ``MAX_HOPS`` (``subclasses``); read as
written, the bases of the class asked about, then theirs (``superclasses``). Each step is an
``extends`` edge from the subclass to its base, not stored (its id is the reference's, negated),
sourced by the reference: the line that declares the subclass.

A name written as is (``extends BaseEntity``) reaches the class of that name in the subclass's
language; ``heuristic`` when the project holds more than one class of that name (the file's
imports are not read here), ``extracted`` otherwise. A base the project does not hold
(``implements Serializable``, Spring's ``JpaRepository``) is no node: the classes naming it are
still found by its name (``named``), each its own start of the walk.
"""

from __future__ import annotations

from dataclasses import replace

from kenning.graph import walk
from kenning.graph.bases import naming_rules, one_named
from kenning.graph.narrow import module_of
from kenning.ingest.grammars import family_of
from kenning.ingest.relations import BASES
from kenning.store import graph as graph_store
from kenning.store import graph_refs, sources
from kenning.store.graph import Edge, Node, RefRow
from kenning.store.graph_lookup import refs_with_hint, symbols_named
from kenning.store.handle import Connection

EXTENDS = "extends"  # the type of a step from a subclass to its base (no stored edge has it)
MAX_HOPS = 3
MAX_HOMONYMS = 3  # classes one base name may stand for in ``superclasses`` (more: none is taken)


def subclasses(conn: Connection, starts: list[Node], *, limit: int = 200) -> list[walk.Hit]:
    """The classes extending or implementing the symbols among ``starts``, direct ones first, then
    theirs (breadth first, up to ``MAX_HOPS``), each once, with the ``extends`` steps that lead to it."""
    seen = {n.id for n in starts}
    frontier: list[tuple[Node, tuple[walk.Step, ...]]] = [(n, ()) for n in starts if n.kind == "symbol"]
    return _declaring(conn, Inheritance(conn).breadth_first(frontier, seen, limit, MAX_HOPS))


def superclasses(conn: Connection, starts: list[Node], *, limit: int = 200) -> tuple[list[walk.Hit], list[str]]:
    """The classes the symbols among ``starts`` extend or implement, then theirs (up to
    ``MAX_HOPS``), each once with the ``extends`` steps that lead to it; and the bases they name
    that the project does not hold (``Serializable``), in the order met."""
    seen = {n.id for n in starts}
    frontier: list[tuple[Node, tuple[walk.Step, ...]]] = [(n, ()) for n in starts if n.kind == "symbol"]
    index = Inheritance(conn)
    hits = index.breadth_first(frontier, seen, limit, MAX_HOPS, up=True)
    return hits, list(dict.fromkeys(index.outside))


def named(conn: Connection, name: str, index: Inheritance | None = None, *, limit: int = 200) -> list[walk.Hit]:
    """For a class the project does not hold (``Serializable``): the classes whose file names a
    base of that name (a dotted name asked for: the same dotted name, or one ending so; else the
    last part compared), each a hit of no step, then their own subclasses as ``subclasses`` finds them.
    ``index``: the store's references read already (a question naming several names asks for each)."""
    short, dotted = _short(name), name.replace("::", ".")
    if not short.isidentifier():
        return []
    bases = index or Inheritance(conn)

    def names_it(entry: str) -> bool:
        entry = entry.replace("::", ".")
        return entry == dotted or entry.endswith("." + dotted) if "." in dotted else True

    rows = [row for row, entry in bases.naming(short) if names_it(entry)]
    found = graph_store.nodes_by_id(conn, sorted({row.src for row in rows}))
    direct = list({row.src: found[row.src] for row in rows if row.src in found}.values())
    hits = [walk.Hit(n, ()) for n in direct]
    seen = {n.id for n in direct}
    deeper = bases.breadth_first([(n, ()) for n in direct], seen, limit - len(hits), MAX_HOPS - 1)
    return _declaring(conn, hits + deeper)[:limit]


def _declaring(conn: Connection, hits: list[walk.Hit]) -> list[walk.Hit]:
    """Each subclass shown by the excerpt that begins at the line naming its base, when that is not
    its definition's: Rust's ``impl Sink for Standard<W>`` block, not the struct nor the type's first
    block (``impl SinkError for Box<…>`` was shown for ``Box`` implementing ``Sink``)."""
    moved = {
        i
        for i, h in enumerate(hits)
        if h.steps and h.node.path and h.steps[-1].edge.line not in (None, h.node.line_start)
    }
    if not moved:
        return hits
    located = sources.facts_located_in(conn, sorted({hits[i].node.path or "" for i in moved}))
    starting = {
        (path, uri.rpartition(":")[2].split("-")[0]): fact for path, rows in located.items() for uri, fact in rows
    }
    shown = []
    for i, hit in enumerate(hits):
        fact = starting.get((hit.node.path or "", str(hit.steps[-1].edge.line))) if i in moved else None
        shown.append(walk.Hit(replace(hit.node, fact_id=fact), hit.steps) if fact is not None else hit)
    return shown


def defined(conn: Connection, name: str) -> Node | None:
    """The one class of the project a dotted ``name`` no node bears stands for: written from below
    the project's root (``flaskr.db.Base``) or where its package re-exports it
    (``django.db.models.Model`` for ``django.db.models.base.Model``); None when none or several."""
    dotted = name.replace("::", ".")
    package, _, short = dotted.rpartition(".")
    if not package:
        return None
    rows = [r for r in symbols_named(conn, [short]) if r[1] == "symbol"]
    index = one_named(dotted, [r[4] for r in rows])  # as resolution reads a base (``graph.bases``)
    return None if index is None else Node(*rows[index])


class Inheritance:
    """Every ``bases`` reference of the store, read once, by the last part of each base it names."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._by_short: dict[str, list[tuple[RefRow, str]]] = {}
        # (file, a class of it as its hint names it: ``.Child``) -> the bases that hint names
        self._named_in: dict[tuple[str | None, str], list[str]] = {}
        # a class -> its references (Rust: one per ``impl Trait for Type`` block)
        self._of_class: dict[int, list[RefRow]] = {}
        for row in graph_refs.ref_rows(conn, refs_with_hint(conn, BASES, "")):
            for entry in _bases(row):
                self._by_short.setdefault(_short(entry), []).append((row, entry))
            own = (row.hint or "").split(" ", 1)[0]
            self._named_in.setdefault((row.src_path, own), []).extend(_bases(row))
            self._of_class.setdefault(row.src, []).append(row)
        self._homonyms: dict[tuple[str, str | None], list[Node]] = {}
        self._imports: dict[str | None, set[str | None]] = {}  # a file -> the files it imports
        self.outside: list[str] = []  # bases ``_up`` met that no class of the project is

    def naming(self, short: str) -> list[tuple[RefRow, str]]:
        """(reference, base entry) of the classes naming a base whose last part is ``short``."""
        return self._by_short.get(short, [])

    def breadth_first(
        self,
        frontier: list[tuple[Node, tuple[walk.Step, ...]]],
        seen: set[int],
        limit: int,
        hops: int,
        *,
        up: bool = False,
    ) -> list[walk.Hit]:
        """The classes below the frontier's (``up``: above), hop by hop, each once."""
        hits: list[walk.Hit] = []
        for _ in range(hops):
            following = []
            for at, steps in frontier:
                for row, other, link in self._up(at) if up else self._direct(at):
                    if other.id in seen:
                        continue
                    seen.add(other.id)
                    sub, base = (at, other) if up else (other, at)
                    edge = Edge(
                        -row.id, sub, base, EXTENDS, link, row.source_kind or "file", row.source_uri or "",
                        row.fingerprint, row.line,
                    )  # fmt: skip
                    path = (*steps, walk.Step(edge, up))
                    hits.append(walk.Hit(other, path))
                    following.append((other, path))
                    if len(hits) >= limit:
                        return hits
            frontier = following
        return hits

    def _up(self, sub: Node) -> list[tuple[RefRow, Node, str]]:
        """The classes ``sub``'s file names as its bases, its own file's bases' bases aside:
        (its reference, node, link); a base no class of the project is goes to ``outside``."""
        found = []
        for row in self._of_class.get(sub.id, []):
            for entry in _bases(row):
                if self._through_own_file(row, entry):
                    continue
                resolved = self._resolved(entry, row)
                if resolved is None:
                    continue  # a name too many classes of the project bear: none is taken
                bases, link = resolved
                if not bases:
                    self.outside.append(entry.lstrip("."))
                found += [(row, base, link) for base in bases]
        return found

    def _resolved(self, entry: str, row: RefRow) -> tuple[list[Node], str] | None:
        """The classes a base ``entry`` of ``row`` names, and how sure: the class of the same file,
        or the dotted name's (``_names``), else the classes of that name in the subclass's language
        (``heuristic`` when several); none: a class the project does not hold; None: more than
        ``MAX_HOMONYMS`` bear the name."""
        near = self._nested(entry, row)
        if near is not None:
            return [near], "extracted"
        candidates = self._classes_named(_short(entry), family_of(row.src_path))
        if _by_module(entry, row):
            candidates = [c for c in candidates if _names(entry, row, c)]
        if len(candidates) > MAX_HOMONYMS:
            return None
        if len(candidates) > 1 and not _by_module(entry, row):
            imported = self._imported(row.src_path)  # the one the subclass's file imports or holds
            chosen = [c for c in candidates if c.path in imported or c.path == row.src_path]
            candidates = chosen if len(chosen) == 1 else candidates
        return candidates, "extracted" if len(candidates) == 1 else "heuristic"

    def _direct(self, base: Node) -> list[tuple[RefRow, Node, str]]:
        """The classes whose file names ``base`` among their bases: (their reference, node, link)."""
        short = _short(base.qualname or base.name)
        chosen: dict[int, tuple[RefRow, str]] = {}
        for row, entry in self.naming(short):
            if row.id in chosen or self._through_own_file(row, entry):
                continue
            near = self._nested(entry, row)
            if near is not None:  # Ruby's ``Base`` inside ``module Sinatra``: ``Sinatra::Base``, no other
                if near.id == base.id:
                    chosen[row.id] = (row, "extracted")
                continue
            if _by_module(entry, row):
                if _names(entry, row, base):
                    chosen[row.id] = (row, "extracted")
            elif family_of(row.src_path) == family_of(base.path):  # a name as written: by its language
                homonyms = self._classes_named(short, family_of(base.path))
                if len(homonyms) < 2:
                    chosen[row.id] = (row, "extracted")
                    continue
                imported = self._imported(row.src_path) | {row.src_path}
                known = [c for c in homonyms if c.path in imported]
                if len(known) != 1:  # its file imports none of them, or several: a guess
                    chosen[row.id] = (row, "heuristic")
                elif known[0].id == base.id:  # the one its file imports (outline's two ``Document``)
                    chosen[row.id] = (row, "extracted")
        nodes = graph_store.nodes_by_id(self.conn, sorted({row.src for row, _ in chosen.values()}))
        return [(row, nodes[row.src], link) for row, link in chosen.values() if row.src in nodes]

    def _imported(self, path: str | None) -> set[str | None]:
        """The paths of the files the file at ``path`` imports (its ``imports`` edges), read once."""
        if path not in self._imports:
            files = graph_store.nodes_by(self.conn, "file_path", path, limit=1) if path else []
            self._imports[path] = {
                edge.dst.path
                for edge, forward in (graph_store.edges_of(self.conn, files[0]) if files else [])
                if forward and edge.type == "imports"
            }
        return self._imports[path]

    def _nested(self, entry: str, row: RefRow) -> Node | None:
        """Ruby: the class a base written by its name alone stands for by the modules around the
        subclass, innermost first, as Ruby looks a constant up (``class Application < Base`` in
        ``module Sinatra``: ``Sinatra::Base``, before ``Rack::Protection::Base`` or a top-level
        ``Base``); None for another language, a dotted base, or no class so nested."""
        if entry[0] == "." or "." in entry or family_of(row.src_path) != "ruby":
            return None
        own = (row.hint or "").split(" ", 1)[0].lstrip(".").split(".")[:-1]
        by_name = {node.qualname: node for node in self._classes_named(entry, "ruby")}
        return next(
            (by_name[name] for k in range(len(own), 0, -1) if (name := ".".join([*own[:k], entry])) in by_name),
            None,
        )

    def _through_own_file(self, row: RefRow, entry: str) -> bool:
        """Whether ``entry`` is a base of another class of the subclass's file that the subclass
        extends: Python's hint names a class's bases and, after them, theirs its file defines
        (``.GrandChild .Child app.base.Base``: ``Base`` is ``Child``'s, reached through it)."""
        return any(
            entry in self._named_in.get((row.src_path, other), ())
            for other in _bases(row)
            if other[0] == "." and other != entry
        )

    def _classes_named(self, short: str, family: str | None) -> list[Node]:
        """The symbols of ``family``'s files named ``short``, constructors aside (Java's
        ``Owner.Owner``): more than one makes a base written by its name alone a guess."""
        key = (short, family)
        if key not in self._homonyms:
            self._homonyms[key] = [
                Node(*row)
                for row in symbols_named(self.conn, [short])
                if family_of(row[5]) == family and not row[4].endswith(f"{short}.{short}")
            ]
        return self._homonyms[key]


def _bases(row: RefRow) -> list[str]:
    """The bases a ``bases`` reference names (its hint's entries after the class itself)."""
    return [entry for entry in (row.hint or "").split(" ")[1:] if entry] if row.type == BASES else []


def _by_module(entry: str, row: RefRow) -> bool:
    """Whether a base is named by where it is: a class of the subclass's file (``.Child``), a
    Python import's dotted name, or a name its language qualifies by the modules around its class
    (Ruby's ``Sinatra::Base``, ``Sinatra.Base`` as the class's qualname is written; the tree-sitter
    languages' other bases are names as written)."""
    return entry[0] == "." or "." in entry and (bool(module_of(row.src_path or "")) or _qualified(row.src_path))


def _qualified(path: str | None) -> bool:
    """Whether ``path``'s language writes a base by the modules around its class (Ruby)."""
    return family_of(path) == "ruby"


def _short(name: str) -> str:
    return name.replace("::", ".").rpartition(".")[2]


def _names(entry: str, row: RefRow, base: Node) -> bool:
    """Whether the dotted or local ``entry`` of the subclass's reference ``row`` is ``base``: a
    class of the subclass's own file, or the dotted name of ``base``, written from below the
    project's root (``flaskr.db.Base``) or where its package re-exports it (``django.db.models.Model``)."""
    if entry[0] == ".":
        module = module_of(row.src_path or "")
        return base.path == row.src_path and base.qualname == (f"{module}{entry}" if module else entry[1:])
    return any(matches(base.qualname) for matches in naming_rules(entry.replace("::", ".")))
