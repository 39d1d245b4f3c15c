"""Graph resolution: a reference resolved to its target (the keys a node answers to, and the
references that name them: ``graph.keys``).

A reference names its target ("calls `rrf_fuse`", "imports `kenning.search`", "touches
`src/a.py`"); resolution finds the node(s) and writes the edge with its ``link``:

- ``declared`` references (imports, links, ledger fields, ADR status lines, commit files)
  keep ``declared``;
- a guess (``heuristic``) from code that is no test reaches no symbol of a test file: Django's
  ``x.split()`` in ``django/templatetags/i18n.py`` is no call of a test model's ``split``
  (``ingest.test_files``: ``django/test/`` is test code by its path, and an import into it
  stays ``extracted``), nor one of a Rust file's ``mod tests`` (``tests.helper``: Rust keeps its
  unit tests in the file they test);
- a call reaches only symbols of its own language family (``ingest.grammars.family_of``: a
  JavaScript call no Python method, TypeScript JavaScript's functions);
- a call or a test reference is ``extracted`` when one target is certain (imported from a
  known module, defined in the same file and called as a plain name or on an object of the file
  that holds it, or the only symbol of that name called as a plain name), ``heuristic`` otherwise
  (an attribute call, even to the caller's file's only method of that name, or up to
  ``MAX_AMBIGUOUS`` homonyms), and
  ``heuristic`` at best when its parser said so (a call through a module that carries no
  module name in the tree-sitter languages: ``ingest.tree_calls``; a method called on another
  call's result, ``Regex::builder().build()``, in every language);
- a call on a method's own receiver (``self.save()``, ``cls.create()``) is ``extracted`` to the
  method of that name of the enclosing class, else of the first of its bases the file names
  (``class Model(Base)``) that defines it (``super().save()``: the bases alone), an imported
  base followed into its own file's bases (``graph.bases``); failing all, the rule of an
  attribute call; a call on a typed local or attribute (``client = Client()``, ``def f(client:
  Client)``, ``self.conn = Connection()``) likewise, from the receiver's class;
- a name imported from a module the project does not hold (``from urllib.parse import
  urlencode``), or a method called on such a name (``itertools.count()``) or on a builtin
  value (``table = {}`` then ``table.get()``: the hint ``self:builtins.dict``), reaches none of
  the project's symbols of that name: no edge. A method called on a literal (``", ".join()``)
  is not even a reference (``ingest.python_relations``);
- a method called on a value a module of the project binds (``registry.SHELLS.copy()``,
  ``from django.apps import apps; apps.get_model()``) is one on the class that module binds it
  to (``graph.values``), else on the name as a class, else an attribute call; a name imported
  from a module that is itself a module of the project (``from app import greet``, with
  ``app/greet.py``) reaches no symbol: the ``imports`` edge says it; from a test, its
  ``tested_by`` reaches that module's file, as a test's ``import app.greet`` does;
- in the tree-sitter languages, a call on a value of a type the project does not declare (a typed
  local, field or parameter, an object created in place: Swift's ``[Status]`` array, a
  ``UserDefaults``, Java's ``String``) reaches only a method the project adds to that type (a Swift
  extension's ``Text.warningLabel``, C++'s out-of-class ``TableCache::Evict``), else nothing: not
  the homonym of the caller's file the attribute-call rule would take (``reference_rules.typed_class``);
- Go's references go by package (``graph.go_resolve``): an import reaches every file of the
  package but its tests, a plain call a function of the caller's own package, ``pkg.F()`` one
  of the package imported, a method called on a value of a type that package declares
  (``cmd *cobra.Command``) that type's method there, and nothing when the project has no package
  of that name.

Rows are read and written through ``kenning.store.graph``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence

from kenning.graph import go_resolve
from kenning.graph.aliases import SUFFIX, Suffixes, nearest
from kenning.graph.bases import Bases
from kenning.graph.fields import OUTSIDE, Fields
from kenning.graph.keys import stem_named
from kenning.graph.narrow import Candidates, Key, imported_from, lookup_key, narrow
from kenning.graph.reference_rules import FREE_FUNCTIONS, in_tests, not_itself, on_a_value, test_path, typed_class
from kenning.graph.values import Values, as_module
from kenning.ingest.go_packages import IMPORT_HINT
from kenning.ingest.grammars import family_of
from kenning.ingest.relations import BASES, FIELD_HINT, FIELDS, GLOBALS
from kenning.ingest.tree_imports import ALIAS_HINT
from kenning.records import Lifecycle
from kenning.store import fact_sources, graph_refs, graph_write
from kenning.store import facts as fact_store
from kenning.store import graph as graph_store
from kenning.store.db import Connection
from kenning.store.graph import RefRow
from kenning.store.graph_write import GraphWriter
from kenning.store.handle import engine_errors

RESOLVE_BATCH = 5_000  # references read, resolved and written together
UNFILED = "(a graph source of no file)"  # ``Resolver.failed``'s name for references of no file's node


class Resolver:
    """Resolves references in a batch, caching candidate lookups for the batch's duration: the
    targets of each chunk of references are looked up together (``candidates_many``), then
    every reference is resolved in memory. ``writer``: where the edges go (a ``GraphWriter`` of
    ``conn`` unless given: ``graph.helper`` collects a helper process's share). ``failed``: where
    the files whose references could not be resolved are named (path -> error)."""

    def __init__(
        self, conn: Connection, stamp: str, writer: GraphWriter | None = None, failed: dict[str, str] | None = None
    ) -> None:
        self.conn = conn
        self.stamp = stamp
        self.writer = writer if writer is not None else GraphWriter(conn)
        self._cache: dict[Key, Candidates] = {}
        self._superseding: list[tuple[int, int]] = []
        self._found: list[tuple[int, int, str, str, RefRow]] = []  # a chunk's edges, written once it is resolved
        # path -> the error its references' resolution raised (``_resolve_apart``): kenning's own bug
        # on one file leaves that file's references without edges, not the sync stopped
        self.failed: dict[str, str] = failed if failed is not None else {}
        self._bases = Bases(conn)
        self._fields = Fields(conn)
        self._values = Values(conn)
        self._suffixes = Suffixes(conn)

    def resolve(self, ref_ids: list[int], *, again: bool = False) -> None:
        """Resolve the stored references ``ref_ids`` (ascending), read back in chunks."""
        if again:
            graph_write.delete_ref_edges(self.conn, ref_ids)
        for start in range(0, len(ref_ids), RESOLVE_BATCH):  # batches bound the memory of a cold sync
            chunk = ref_ids[start : start + RESOLVE_BATCH]
            self._resolve_chunk(graph_refs.ref_rows(self.conn, chunk, sources=self.writer.ref_sources))
        self._supersede()

    def resolve_rows(self, rows: Sequence[RefRow], *, supersede: bool = True) -> None:
        """Resolve references given as the rows ``ref_rows`` would read back (ascending ids,
        sources as ``GraphWriter.ref_sources`` asks), without reading them: a cold sync keeps
        its references' rows as it writes them (``graph.build.Unresolved``). ``supersede=False``:
        the decisions superseded are kept for a later call (``superseding``), not marked."""
        for start in range(0, len(rows), RESOLVE_BATCH):
            self._resolve_chunk(rows[start : start + RESOLVE_BATCH])
        if supersede:
            self._supersede()

    @property
    def superseding(self) -> list[tuple[int, int]]:
        """(newer, older) decision nodes found so far and not marked yet."""
        return self._superseding

    def take(
        self,
        edges: Sequence[tuple[int, int, str, str, int]],
        superseding: Sequence[tuple[int, int]],
        failed: dict[str, str],
    ) -> None:
        """Edges, supersessions and failures another resolver found (``graph.helper``: a helper
        process's share of a cold sync's references), written and marked as if found here, in turn."""
        self.writer.ref_edges(edges)
        self.writer.flush()
        self._superseding.extend(superseding)
        self._supersede()
        for path, error in failed.items():
            self.failed.setdefault(path, error)

    def _resolve_chunk(self, rows: Sequence[RefRow]) -> None:
        """``rows`` resolved together, their edges written; when that raises (a bug of kenning's on
        some file's references: {fmt}'s specialization once stopped a sync here), file by file."""
        superseding = len(self._superseding)
        try:
            self._resolve_together(rows)
        except Exception as error:
            if not a_bug(error):
                raise
            self._found.clear()
            del self._superseding[superseding:]
            self._resolve_apart(rows)
        edge = self.writer.ref_edge
        for a, b, type_, link, row in self._found:
            edge(a, b, type_, link, row)
        self._found.clear()
        self.writer.flush()

    def _resolve_apart(self, rows: Sequence[RefRow]) -> None:
        """``rows`` resolved one file's references at a time (by the path of the node each starts
        from), the files whose resolution raises left without edges and named in ``failed``."""
        by_file: dict[str, list[RefRow]] = {}
        for row in rows:
            by_file.setdefault(row.src_path or UNFILED, []).append(row)
        for path, group in by_file.items():
            found, superseding = len(self._found), len(self._superseding)
            try:
                self._resolve_together(group)
            except Exception as error:
                if not a_bug(error):
                    raise
                del self._found[found:]
                del self._superseding[superseding:]
                self.failed.setdefault(path, f"{type(error).__name__}: {error}")

    def _resolve_together(self, rows: Sequence[RefRow]) -> None:
        # what a class's file names of its bases and fields, a module of its globals' classes: no edge;
        # C++'s call on a field another file declares: on the field's type (``graph.fields``), the
        # test inline (a cold sync resolves every reference here: Django's 146,384)
        typed = [
            self._field_typed(row) if row.hint and row.hint.startswith(FIELD_HINT) else row
            for row in rows
            if row.type != BASES and row.type != GLOBALS and row.type != FIELDS
        ]
        rows = [row for row in typed if row is not None]
        aliased = [row for row in rows if row.hint and row.hint.startswith(ALIAS_HINT)]
        if aliased:
            rows = [row for row in rows if not (row.hint and row.hint.startswith(ALIAS_HINT))]
        keys = [lookup_key(row) for row in rows]
        self._look_up(keys)
        cache = self._cache
        imported = [imported_from(row, cache[key]) for row, key in zip(rows, keys, strict=True)]
        modules = [("module", m) for found in imported for m in found]
        as_modules = [as_module(row) for row in rows]
        # Go's ``pkg.F()``: the files of ``pkg``
        packages = [go_resolve.package_lookup(row) for row in rows if row.hint and row.hint.startswith(IMPORT_HINT)]
        classes = [typed_class(row) for row in rows]
        self._look_up(
            modules
            + [("module", m) for m in as_modules if m is not None]
            + [k for k in packages if k]
            + [("symbol", cls) for cls in classes if cls is not None]
        )
        values: list[tuple[RefRow, Key]] = []
        for row, key, held, module, cls in zip(rows, keys, imported, as_modules, classes, strict=True):
            if held and not any(cache[("module", m)].rows for m in held):
                continue  # imported from a module the project does not hold: a homonym is not it
            if cls is not None and not cache[("symbol", cls)].rows:
                # a value of a type the project does not declare (Swift's ``[Status]``-typed ``append``,
                # ``UserDefaults``, Java's ``String``): only a method the project adds to that type
                # (an extension's, ``Text.warningLabel``) is a call of the project's
                found = cache[key]
                added = found.by_qualname.get(f"{cls}.{row.target}", []) or found.ending(cls, row.target)
                if added:  # (C++'s ``db.TableCache.Evict``, defined out of a class the project never declares)
                    self._resolve_one(row, Candidates(added))
                continue
            if module is not None and cache[("module", module)].rows and not cache[key].by_qualname.get(module):
                # ``from app import greet`` imports the module app/greet.py, no symbol: from a
                # test, that module's file is what the test covers
                if row.type == "tested_by":
                    self._resolve_one(row._replace(target_kind="module", target=module), cache[("module", module)])
                continue
            if on_a_value(row, held) and not cache[("module", held[0])].rows:
                row = row._replace(hint=self._values.hint_of(held[0]))  # a value of a module: its class
                values.append((row, ("method", row.target)))
                continue
            self._resolve_one(row, cache[key])
        if values:
            self._resolve_values(values)
        if aliased:
            self._resolve_aliased(aliased)

    def _field_typed(self, row: RefRow) -> RefRow | None:
        """``row``, whose hint is a ``FIELD_HINT``, with the hint of a call on the field's type, or
        without a hint (an attribute call) when no class declares that field; None for a field of a
        type of the standard library's (no call of the project's)."""
        assert row.hint is not None
        hint = self._fields.hint_of(row.hint)
        return None if hint == OUTSIDE else row._replace(hint=hint)

    def _look_up(self, keys: Iterable[Key]) -> None:
        """The candidates of ``keys`` not in the cache yet, into it (an alias import's from the
        file nodes' paths: ``graph.aliases``)."""
        wanted = set(keys).difference(self._cache)
        for key in [key for key in wanted if key[0] == SUFFIX]:
            self._cache[key] = Candidates(self._suffixes.candidates(key[1]))
            wanted.discard(key)
        for key, found in graph_refs.candidates_many(self.conn, sorted(wanted)).items():
            self._cache[key] = Candidates(found)

    def _resolve_values(self, values: list[tuple[RefRow, Key]]) -> None:
        """Calls on values of a module, their hint the value's class (``values.Values``): among
        methods only, and none when that class is not the project's (``builtins.dict``)."""
        cache = self._cache
        self._look_up(key for _, key in values)
        imported = [imported_from(row, cache[key]) for row, key in values]
        self._look_up(("module", m) for found in imported for m in found)
        for (row, key), held in zip(values, imported, strict=True):
            if held and not any(cache[("module", m)].rows for m in held):
                continue
            self._resolve_one(row, cache[key])

    def _resolve_aliased(self, rows: list[RefRow]) -> None:
        """Calls of names imported through a scope (``ALIAS_HINT``: ``import { f } from
        '@server/x'``): the symbol of that name in the file the import names (the nearest whose
        path ends so), else, re-exported there, as a plain call; none when no file ends so (a
        package from npm, ``@tanstack/react-query``: its names are no symbols of the project's)."""
        through = [(SUFFIX, row.hint[len(ALIAS_HINT) :]) for row in rows if row.hint]
        plain = [row._replace(hint=None) for row in rows]
        self._look_up([*through, *(lookup_key(row) for row in plain)])
        for row, path in zip(plain, through, strict=True):
            files = nearest(self._cache[path].rows, row.src_path)
            if not files:
                continue
            found = self._cache[lookup_key(row)]
            inside = [c for c in found.rows if c[1] == files[0][1]]
            self._resolve_one(row, Candidates(inside) if inside else found)

    def _supersede(self) -> None:
        for newer, older in self._superseding:
            mark_superseded(self.conn, newer=newer, older=older, stamp=self.stamp)
        self._superseding = []

    def _resolve_one(self, row: RefRow, candidates: Candidates) -> None:
        src, type_ = row.src, row.type
        if row.target_kind == "symbol":
            family = family_of(row.src_path)
            candidates = candidates.of_family(family)  # no call across languages
            by_package = self._by_package(row, candidates) if family == "go" else None
            chosen, link = by_package or narrow(
                candidates, row.target, row.hint, row.qualified, row.src_path, self._bases.expanded
            )
            if len(chosen) == 1 and chosen[0][0] == src and not row.qualified and family in FREE_FUNCTIONS:
                chosen, link = not_itself(candidates, row)
            if row.link == "heuristic":  # its parser could not be sure (``ingest.tree_calls``)
                link = "heuristic"
            if link == "heuristic" and type_ == "calls" and not row.tested:  # a guess from no test: none into tests
                chosen = [c for c in chosen if not in_tests(c[1], c[2])]
        elif (import_path := go_resolve.imported_path(row)) is not None:  # a Go import: its package's files
            chosen, link = go_resolve.package_files(candidates, import_path), row.link
        elif row.target_kind == SUFFIX:  # an alias import: the nearest file whose path ends so
            rust = (row.src_path or "").endswith(".rs")  # a ``use crate::…``: a file of the importer's crate
            rows = self._suffixes.in_crate(candidates.rows, row.src_path) if rust else candidates.rows
            if type_ == "tested_by":  # a test class's namesake (``OrderServiceTests.cs``): code of its language
                suffix = posixpath.splitext(row.src_path or "")[1]
                rows = [r for r in rows if (r[1] or "").endswith(suffix) and not test_path(r[1] or "")]
            chosen, link = nearest(rows, row.src_path), row.link
        else:
            chosen, link = (
                (stem_named(candidates.rows, row.target) if row.target_kind == "stem" else candidates.rows[:1]),
                row.link,
            )
        found = self._found.append
        mirrors = self.writer.stores_mirrors  # else derived from the call where the graph is read
        for node_id, _, _ in chosen:
            a, b = (node_id, src) if row.reverse else (src, node_id)
            found((a, b, type_, link, row))
            if type_ == "supersedes":
                self._superseding.append((a, b))
            if row.tested and (mirrors or row.reverse or type_ == "tested_by"):  # a call from a test:
                found((node_id, src, "tested_by", link, row))  # the callee is tested by the caller

    def _by_package(self, row: RefRow, candidates: Candidates) -> tuple[list, str] | None:
        """A Go call's functions by its package (``go_resolve``), or None: a call on a value."""
        package = go_resolve.package_lookup(row)
        return go_resolve.narrow_call(row, candidates, self._cache[package] if package else None)


def a_bug(error: Exception) -> bool:
    """Whether ``error``, raised while the graph took in or resolved one file's relations, is
    kenning's own bug on that file, which a sync outlives (the file named in its report); not the
    store's failure nor memory's, which stop the sync."""
    return not isinstance(error, (MemoryError, *engine_errors()))


def mark_superseded(conn: Connection, *, newer: int, older: int, stamp: str) -> None:
    """The older decision's excerpts stop being served by default (lifecycle superseded)."""
    by_id = graph_store.nodes_by_id(conn, [newer, older])
    older_path = by_id[older].path if older in by_id else None
    if newer not in by_id or not older_path:
        return
    successor = by_id[newer].fact_id
    for fact_id in fact_sources.active_located_at(conn, older_path):
        if fact_id != successor:
            fact_store.set_lifecycle(
                conn,
                fact_id,
                Lifecycle.SUPERSEDED,
                when=stamp,
                reason="superseded by a later decision",
                superseded_by=successor,
            )
