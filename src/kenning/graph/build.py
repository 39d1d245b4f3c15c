"""Build the graph incrementally, inside the sync's transaction.

Each source owns what it produced (``origin``): a changed file drops and rebuilds its
nodes, ``defines`` edges and references; the ledger is re-read whole when its bytes change;
git history only adds the commits after the last one read (both in ``graph.projections``).
References elsewhere that named a node that came or went are resolved again. Nothing here
runs when nothing changed: ``graph.pending`` costs one ``stat`` of the ledger and two small reads
of ``.git``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kenning.graph import helper, projections
from kenning.graph.keys import delete_origin, keys_of, refs_targeting
from kenning.graph.narrow import Key
from kenning.graph.pending import DEFERRED, Pending
from kenning.graph.resolve import Resolver, a_bug
from kenning.ingest.grammars import OVERLOADING, family_of
from kenning.ingest.relations import Ref, Relations
from kenning.project import Project
from kenning.store import graph as graph_store
from kenning.store import graph_refs, graph_write, sources
from kenning.store.db import Connection, store_file
from kenning.store.graph import RefRow, SourceState
from kenning.store.graph_write import GraphWriter

if TYPE_CHECKING:
    from concurrent.futures import Future

FileChange = tuple[str, str | None, Relations | None]  # (path, fingerprint, relations)


FLUSH_ROWS = 20_000  # graph rows buffered before they are written (memory of a cold sync)


class Unresolved:
    """The references a cold sync writes while their resolution waits for its last batch
    (``DEFERRED``), kept as ``store.graph_refs.ref_rows`` would read them back: the sync holds one
    across its batches (``apply(held=)``), and the last batch resolves these rows without
    reading every reference back (Django: 136,739 rows, 0.42 s of the serial tail, for about
    30 MB held meanwhile). ``complete`` once this sync began the deferral itself; then its last
    batch leaves the resolution to ``resolve_held``. After a stopped sync, the references it
    wrote are read back as before."""

    def __init__(self) -> None:
        self.rows: list[RefRow] = []
        self.complete = False
        self.others: list[int] = []  # the ledger's and git's references (not kept), by id


def apply(
    conn: Connection,
    project: Project,
    files: Sequence[FileChange],
    removed: Sequence[str],
    todo: Pending,
    *,
    stamp: str,
    last: bool = True,
    located: Mapping[str, list[tuple[str, int]]] | None = None,
    held: Unresolved | None = None,
    ledger_changes: projections.LedgerChanges | None = None,
    failed: dict[str, str] | None = None,
) -> dict[str, int]:
    """One batch's graph: ``files`` rebuilt, ``removed`` dropped, the non-file sources in ``todo``
    read, references resolved. ``last``: the sync's last batch (``DEFERRED``). ``located``:
    ``sources.facts_located_in`` of the files, when the caller has it (it just wrote them).
    ``held``: the same object at every batch of one sync, where a cold sync keeps the rows of
    the references it defers (``Unresolved``); once it is ``complete``, the last batch leaves
    their resolution to ``resolve_held`` (until then ``DEFERRED`` stays). ``ledger_changes``:
    where what became of the ledger's records is counted, when it is read (the sync's report).
    ``failed``: where a file whose relations the graph could not take in or resolve is named
    (path -> error: kenning's bug on that file, ``resolve.a_bug``; its excerpts stay indexed).
    Returns the counts of what the batch read (``ledger_invalid``, ``commits``…): the graph's
    own sizes are the caller's to count (``store.graph.counts``), once before and once after."""
    had_graph = graph_store.has_nodes(conn)
    deferred = DEFERRED in graph_store.source_states(conn)
    if not deferred and not had_graph and not last:
        graph_write.put_source(conn, SourceState(DEFERRED, None, None, None, None), stamp=stamp)
        deferred = True
        if held is not None:
            held.complete = True  # every reference of this graph is written from here on
    affected: set[Key] = set()
    new_refs: list[int] = []
    writer = GraphWriter(conn)
    keep = held.rows if held is not None and held.complete else None
    sourced = writer.ref_sources
    # A sync that began the deferral found the graph empty, and reads each path once: none is built.
    built = set() if keep is not None else graph_store.origins_present(conn, [*removed, *(p for p, _, _ in files)])
    if located is None:  # the excerpts a node points at
        located = sources.facts_located_in(conn, [path for path, _, _ in files])
    for path in removed:
        if path in built:
            affected |= delete_origin(conn, path)
    for path, fingerprint, relations in files:
        if path in built:
            affected |= delete_origin(conn, path)
        try:
            keys, refs = _add_file(writer, path, fingerprint, relations, located.get(path, []), keep, sourced)
        except Exception as error:  # the rows it buffered before are kept: each is whole
            if not a_bug(error):
                raise
            if failed is not None:
                failed.setdefault(path, f"{type(error).__name__}: {error}")
            continue
        affected |= keys
        new_refs += refs
        if writer.buffered >= FLUSH_ROWS:
            writer.flush()  # a cold sync of a large tree would otherwise hold every row at once
    writer.flush_nodes()  # the ledger and git passes below give node ids through add_node
    stats: dict[str, int] = {}
    others: list[int] = []  # the references of the ledger and of git history (not ``held``)
    if todo.ledger:
        keys, refs, stats["ledger_invalid"] = projections.apply_ledger(conn, writer, project, stamp, ledger_changes)
        affected |= keys
        others += refs
    if todo.git_head is not None:
        refs, stats["commits"], stats["commits_replaced"] = projections.apply_git(
            conn, writer, project, todo.git_head, stamp
        )
        others += refs
    new_refs += others
    writer.flush()
    resolver = Resolver(conn, stamp, failed=failed)
    if deferred and last and held is not None and keep is not None:
        held.others = others  # resolved by ``resolve_held``, in a transaction of its own
    elif deferred and last:  # every reference (none is resolved yet), against every node
        with graph_write.edge_indexes_built_after(conn):
            resolver.resolve(graph_refs.ref_ids(conn))
        graph_write.delete_source(conn, DEFERRED)
    elif not deferred:
        resolver.resolve(new_refs)
        if had_graph and affected:
            resolver.resolve(refs_targeting(conn, affected, set(new_refs)), again=True)
    return {k: v for k, v in stats.items() if v}


def resolve_held(
    conn: Connection,
    held: Unresolved,
    *,
    stamp: str,
    offload: helper.Offload | None = None,
    failed: dict[str, str] | None = None,
) -> None:
    """A cold sync's references, kept by its batches (``Unresolved``, ``complete``), resolved
    after its last batch committed, in a transaction of their own that only adds edges: the files'
    references as they were written, then the ledger's and git's (higher ids), read back.
    Stopped before it commits, ``DEFERRED`` tells the next sync to resolve them. ``offload``:
    a helper process for a share of the files' references (``graph.helper``; SQLite). ``failed``:
    as ``apply``'s."""
    resolver = Resolver(conn, stamp, failed=failed)
    rows = held.rows + graph_refs.ref_rows(conn, held.others, sources=GraphWriter(conn).ref_sources)
    held.rows, held.others = [], []
    cut, share = helper.offered(rows, offload, store_file(conn), stamp)
    with graph_write.edge_indexes_built_after(conn):
        resolver.resolve_rows(rows[:cut], supersede=share is None)
        if share is not None:
            _take_share(resolver, share, rows[cut:])
    graph_write.delete_source(conn, DEFERRED)


def _take_share(resolver: Resolver, share: Future[helper.Share], rows: Sequence[RefRow]) -> None:
    """The helper's edges, in turn; its share resolved here when it failed (a worker gone, a
    store it could not read): the result is the same, only slower."""
    try:
        edges, superseding, failed = share.result()
    except Exception:  # noqa: BLE001 (whatever a helper raised, the sync has what it needs)
        resolver.resolve_rows(rows)
        return
    resolver.take(edges, superseding, failed)


def _add_file(
    writer: GraphWriter,
    path: str,
    fingerprint: str | None,
    rel: Relations | None,
    located: list[tuple[str, int]],
    keep: list[RefRow] | None = None,
    sourced: bool = False,
) -> tuple[set[Key], list[int]]:
    """A file's nodes, ``defines`` edges and references; ``located``: (URI, fact id) of its
    excerpts, by first line (``sources.facts_located_at``). ``keep``: where the references'
    rows go as ``store.graph_refs.ref_rows`` would read them back (``sourced``: with their sources)."""
    by_uri = {uri: fact_id for uri, fact_id in located}
    first = located[0][1] if located else None
    keys: set[Key] = set()
    if rel is not None and rel.decision:
        d = rel.decision
        node = writer.node(
            "decision",
            f"decision:{path}",
            d["name"],
            origin=path,
            qualname=d.get("title") or "",
            path=path,
            fact_id=first,
        )
        keys |= keys_of("decision", d["name"], "", path)
    else:
        module = (rel.module or rel.package) if rel else ""
        node = writer.node("file", f"file:{path}", path, origin=path, qualname=module, path=path, fact_id=first)
        keys |= keys_of("file", path, module, path)
    if rel is None:
        return keys, []
    scopes: dict[str | None, int] = {None: node}
    # a language's overloads (Java's ``getPet(String)`` and ``getPet(Integer)``) are a node each;
    # a reference made in one goes from it, by its line (qualname -> [(first line, last line, node)])
    overloading = family_of(path) in OVERLOADING
    spans: dict[str, list[tuple[int, int, int]]] = {}
    defined: set[int] = set()  # the symbol nodes given their `defines` edge
    for sym in rel.symbols:
        qualname = f"{rel.module}.{sym.qualname}" if rel.module else sym.qualname
        name = sym.qualname.rsplit(".", 1)[-1]
        span = f"{path}:{sym.line_start}-{sym.line_end}"
        key = f"symbol:{path}:{sym.qualname}"
        overload = overloading and sym.qualname in scopes
        sid = writer.node(
            "symbol",
            f"{key}#{sym.line_start}" if overload else key,
            name,
            origin=path,
            qualname=qualname,
            path=path,
            lines=(sym.line_start, sym.line_end),
            fact_id=by_uri.get(span),
        )
        if overloading:
            spans.setdefault(sym.qualname, []).append((sym.line_start or 0, sym.line_end or 0, sid))
        if sid not in defined:  # a name defined twice is one node, an overload on the line of another too
            defined.add(sid)
            writer.defines(node, sid, span=span, fingerprint=fingerprint, origin=path, line=sym.line_start)
            scopes.setdefault(sym.qualname, sid)
        keys.add(("symbol", name))
    overloaded = {qualname: found for qualname, found in spans.items() if len(found) > 1}
    file_ref, scope_of = writer.file_ref, scopes.get  # one call per import, call and link: kept lean
    if keep is None:
        at = _overload_at
        refs = [
            file_ref(
                at(overloaded[r.scope], r.line) if overloaded and r.scope in overloaded else scope_of(r.scope, node),
                path,
                fingerprint,
                (r.type, r.target_kind, r.target, r.line, r.hint, r.qualified, r.reverse, r.link, r.tested),
            )
            for r in rel.refs
        ]
        return keys, refs
    made: list[int] = []
    if sourced:  # PostgreSQL: the rows with their sources
        for r in rel.refs:
            src = _overload_at(overloaded[r.scope], r.line) if r.scope in overloaded else scope_of(r.scope, node)
            fields = (r.type, r.target_kind, r.target, r.line, r.hint, r.qualified, r.reverse, r.link, r.tested)
            made.append(file_ref(src, path, fingerprint, fields))
            keep.append(_ref_row(made[-1], src, r, path, fingerprint))
        return keys, made
    row, add, kept = tuple.__new__, made.append, keep.append  # RefRow without its Python constructor
    # ``Ref``'s fields in their order (a field added there fails here, loudly)
    for type_, target_kind, target, line, scope, hint, qualified, reverse, link, tested in rel.refs:
        src = _overload_at(overloaded[scope], line) if overloaded and scope in overloaded else scope_of(scope, node)
        ref_id = file_ref(
            src, path, fingerprint, (type_, target_kind, target, line, hint, qualified, reverse, link, tested)
        )
        add(ref_id)
        kept(row(RefRow, (ref_id, src, type_, target_kind, target, hint, bool(qualified), bool(reverse), link, line,
                          None, None, None, None, path, bool(tested))))  # fmt: skip
    return keys, made


def _overload_at(spans: list[tuple[int, int, int]], line: int | None) -> int:
    """The node of the overload whose lines hold ``line`` (the first one's when none does)."""
    return next((node for first, last, node in spans if line is not None and first <= line <= last), spans[0][2])


def _ref_row(ref_id: int, src: int, r: Ref, path: str, fingerprint: str | None) -> RefRow:
    """The row ``store.graph_refs.ref_rows`` reads back, sources included, for a reference
    ``GraphWriter.file_ref`` wrote."""
    uri = f"{path}:{r.line}-{r.line}" if r.line else path
    return RefRow(
        ref_id, src, r.type, r.target_kind, r.target, r.hint, bool(r.qualified), bool(r.reverse), r.link, r.line,
        "file", uri, fingerprint, path, path, bool(r.tested),
    )  # fmt: skip
