"""The store contract for graph, facts and sync (docs/architecture.md, "The store contract").

Written against the store functions only, so that a second engine runs it unchanged: add
the engine to ``ENGINES`` and to ``store``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pg_engine import ENGINE as POSTGRESQL
from pg_engine import engine_store

from kenning.errors import NotFound
from kenning.graph import paths
from kenning.records import Lifecycle, Location
from kenning.store import fact_sources, facts, graph, graph_refs, graph_write, sources
from kenning.store.db import transaction
from kenning.store.postgres.connection import is_pg

ENGINES = ("sqlite", POSTGRESQL)
STAMP = "2026-11-29T12:00:00Z"


@pytest.fixture(params=ENGINES)
def store(request: pytest.FixtureRequest, tmp_path: Path):
    conn = engine_store(request.param, tmp_path)
    yield conn
    conn.close()


def new_fact(title: str, *, path: str = "a.md", uri: str | None = None, body: str = "body") -> facts.NewFact:
    return facts.NewFact(
        type="section",
        title=title,
        body=body,
        source_kind="file",
        source_uri=uri or f"{path}:1-2",
        producer="projection",
        date_indexed=STAMP,
        path=path,
        fingerprint="f1",
    )


# -- facts ----------------------------------------------------------------------------------


def test_a_fact_reads_back_as_written_and_a_missing_one_is_not_found(store):
    with transaction(store):
        fact_id = facts.insert(store, new_fact("Intro"))
    fact = facts.get(store, "demo", fact_id)
    assert (fact.title, fact.source.uri, fact.lifecycle) == ("Intro", "a.md:1-2", Lifecycle.ACTIVE)
    with pytest.raises(NotFound):
        facts.get(store, "demo", fact_id + 1)


def test_fact_ids_are_never_reused_after_a_delete(store):
    with transaction(store):
        first = facts.insert(store, new_fact("one"))
        second = facts.insert(store, new_fact("two", body="other"))
        facts.delete(store, second)
        assert facts.next_id(store) == second + 1
    assert facts.get_many(store, "demo", [first, second]).keys() == {first}


def test_the_sync_reads_active_file_facts_by_content_hash_and_by_uri(store):
    with transaction(store):
        kept = facts.insert(store, new_fact("kept", uri="a.md:1-2"))
        gone = facts.insert(store, new_fact("gone", uri="a.md:3-4", body="x"))
        facts.set_lifecycle(store, gone, Lifecycle.RETIRED, when=STAMP, reason="source vanished")
    hashes = [new_fact("kept").content_hash, new_fact("gone", body="x").content_hash]
    assert fact_sources.active_file_facts(store, hashes) == [(kept, hashes[0], "a.md")]
    assert fact_sources.active_by_uri(store, "a.md") == {"a.md:1-2": (kept, hashes[0])}


def test_a_fact_is_repointed_refreshed_and_refingerprinted(store):
    with transaction(store):
        fact_id = facts.insert(store, new_fact("t", uri="a.md:1-2"))
        assert fact_sources.repoint(store, fact_id, uri="b.md:5-6", path="b.md", fingerprint="f2") is True
        assert fact_sources.repoint(store, fact_id, uri="b.md:5-6", path="b.md", fingerprint="f2") is False
        fact_sources.set_fingerprint(store, fact_id, "f3")
    fact = facts.get(store, "demo", fact_id)
    assert (fact.source.uri, fact.source.fingerprint) == ("b.md:5-6", "f3")
    with transaction(store):
        fact_sources.refresh_source(
            store,
            fact_id,
            fingerprint="f4",
            uri="b.md:7-8",
            date_source=None,
            date_indexed=STAMP,
            tags=json.dumps(["x"]),
            meta=json.dumps({"k": 1}),
            keywords="",
            body="body",
        )
    fact = facts.get(store, "demo", fact_id)
    assert (fact.source.uri, fact.tags, fact.meta, fact.body) == ("b.md:7-8", ("x",), {"k": 1}, "body")


# -- sources --------------------------------------------------------------------------------


def test_the_manifest_is_written_touched_read_and_deleted(store):
    with transaction(store):
        sources.put_manifest(
            store,
            [
                sources.IndexedFile("a.md", 10, 100, "f1", "markdown@1", STAMP, 2),
                sources.IndexedFile("b.py", 20, 200, "f2", "python@1", STAMP, 1),
            ],
        )
        sources.touch_manifest(store, "a.md", 11, 101)
    assert sources.manifest(store)["a.md"] == sources.ManifestRow("a.md", 11, 101, "f1", "markdown@1")
    assert set(sources.manifest_for(store, ["b.py", "zz.md"])) == {"b.py"}
    with transaction(store):
        sources.delete_manifest(store, "b.py")
    assert sources.manifest_count(store) == 1


def test_locations_keep_one_row_per_place_and_read_in_order(store):
    with transaction(store):
        one = facts.insert(store, new_fact("one"))
        two = facts.insert(store, new_fact("two", body="b2"))
        rows = [
            sources.NewLocation(two, "a.md:5-6", "a.md", 5, 6, "f1"),
            sources.NewLocation(one, "a.md:1-2", "a.md", 1, 2, "f1"),
            sources.NewLocation(one, "c.md:1-2", "c.md", 1, 2, "f9"),
        ]
        sources.add_locations(store, rows)
        sources.add_locations(store, rows[:1])  # a known place is ignored
    assert sources.facts_located_at(store, "a.md") == [("a.md:1-2", one), ("a.md:5-6", two)]
    assert sources.facts_located_in(store, ["c.md", "a.md", "b.md"]) == {
        "a.md": sources.facts_located_at(store, "a.md"),
        "c.md": [("c.md:1-2", one)],
    }
    assert sources.locations_at(store, "a.md") == {one: ["a.md:1-2"], two: ["a.md:5-6"]}
    assert sources.located_paths(store, ["a.md", "b.md", "c.md"]) == {"a.md", "c.md"}
    with transaction(store):
        sources.delete_locations(store, "a.md")
    assert sources.first_location(store, one) == Location("c.md:1-2", "c.md", 1, 2, "f9")
    assert sources.first_location(store, two) is None


def test_writes_are_counted_and_a_sync_run_is_recorded(store):
    before = sources.changes(store)
    assert not sources.synced(store)
    with transaction(store):
        facts.insert(store, new_fact("one"))
        sources.record_sync_run(store, STAMP, json.dumps({"writes": 1}))
    assert sources.changes(store) > before
    assert sources.synced(store)


# -- graph ----------------------------------------------------------------------------------


def build_small_graph(store) -> dict[str, int]:
    with transaction(store):
        writer = graph_write.GraphWriter(store)
        ids = {
            "file": writer.node(
                "file", "file:src/a_b.py", "src/a_b.py", origin="src/a_b.py", qualname="pkg.a_b", path="src/a_b.py"
            ),
            "fn": writer.node(
                "symbol",
                "symbol:src/a_b.py:run",
                "run",
                origin="src/a_b.py",
                qualname="pkg.a_b.run",
                path="src/a_b.py",
                lines=(3, 9),
            ),
            "other": writer.node(
                "symbol", "symbol:src/axb.py:run", "run", origin="src/axb.py", qualname="pkg.axb.run", path="src/axb.py"
            ),
        }
        writer.defines(ids["file"], ids["fn"], span="src/a_b.py:3-9", fingerprint="f1", origin="src/a_b.py", line=3)
        ref = writer.ref(
            ids["fn"],
            "calls",
            "symbol",
            "run",
            hint=None,
            qualified=True,
            reverse=False,
            link="declared",
            line=5,
            source=("file", "src/a_b.py:5-5", "f1"),
            origin="src/a_b.py",
        )
        writer.edge(
            ids["fn"],
            ids["other"],
            "calls",
            "heuristic",
            source=("file", "src/a_b.py:5-5", "f1"),
            origin="src/a_b.py",
            line=5,
            ref_id=ref,
        )
        writer.edge(
            ids["fn"],
            ids["other"],
            "calls",
            "extracted",
            source=("file", "src/a_b.py:5-5", "f1"),
            origin="src/a_b.py",
            line=5,
            ref_id=ref,
        )
        writer.flush()
        ids["ref"] = ref
    return ids


def test_written_nodes_are_found_by_each_named_lookup(store):
    assert not graph.graph_built(store)
    ids = build_small_graph(store)
    assert graph.graph_built(store)
    assert graph.counts(store) == (3, 3)

    def found(lookup: str, value: str) -> list[int]:
        return [n.id for n in graph.nodes_by(store, lookup, value, limit=8)]

    assert found("key", "file:src/a_b.py") == [ids["file"]]
    assert found("file_path", "src/a_b.py") == [ids["file"]]
    assert found("qualname_suffix", "a_b.run") == [ids["fn"]]  # `_` is a character, not a wildcard
    assert found("path_suffix", "a_b.py") == [ids["file"]]
    assert found("symbol_name", "run") == [ids["fn"], ids["other"]]
    assert found("name_nocase", "RUN") == [ids["fn"], ids["other"]]
    assert set(graph.LOOKUPS) >= {"key", "fact_id", "commit_prefix", "record_name", "decision_name", "qualname"}


def test_edges_of_a_node_come_outgoing_first_strongest_link_first(store):
    ids = build_small_graph(store)
    fn = graph.nodes_by_id(store, [ids["fn"]])[ids["fn"]]
    steps = [(e.type, e.link, forward) for e, forward in graph.edges_of(store, fn)]
    assert steps == [("calls", "extracted", True), ("calls", "heuristic", True), ("defines", "declared", False)]


def test_references_are_read_targeted_and_their_edges_dropped(store):
    ids = build_small_graph(store)
    [row] = graph_refs.ref_rows(store, [ids["ref"]])
    assert (row.src, row.target, row.qualified, row.reverse, row.src_path) == (
        ids["fn"],
        "run",
        True,
        False,
        "src/a_b.py",
    )
    assert graph_refs.refs_targeting(store, "symbol", "run") == [ids["ref"]]
    assert [c[0] for c in graph_refs.method_candidates(store, "run")] == []  # `run` is no method
    assert [c[0] for c in graph_refs.candidates(store, "symbol", "run")] == [ids["fn"], ids["other"]]
    assert [c[0] for c in graph_refs.candidates(store, "stem", "src/a_b")] == [ids["file"]]
    assert [c[0] for c in graph_refs.candidates(store, "stem", "src/a?b")] == []  # glob characters are literal
    with transaction(store):
        graph_write.delete_ref_edges(store, [ids["ref"]])
    assert graph.counts(store) == (3, 1)


def test_candidates_of_many_targets_are_those_of_each_target_looked_up_alone(store):
    ids = build_small_graph(store)
    with transaction(store):
        writer = graph_write.GraphWriter(store)
        ids["method"] = writer.node(
            "symbol", "symbol:src/c.py:Job.run", "run", origin="src/c.py", qualname="pkg.c.Job.run", path="src/c.py"
        )
        ids["index"] = writer.node(
            "file", "file:docs/index.md", "docs/index.md", origin="docs/index.md", path="docs/index.md"
        )
        ids["task"] = writer.node("task", "task:T1", "T1", origin="ledger")
        writer.flush()
    keys = [
        ("symbol", "run"),
        ("method", "run"),
        ("method", "absent"),
        ("file", "src/a_b.py"),
        ("stem", "src/a_b"),
        ("stem", "src/a?b"),
        ("stem", "docs"),
        ("module", "pkg.a_b"),
        ("task", "T1"),
        ("task", "run"),
    ]
    found = graph_refs.candidates_many(store, keys)
    alone = {
        (kind, target): graph_refs.method_candidates(store, target)
        if kind == "method"
        else graph_refs.candidates(store, kind, target)
        for kind, target in keys
    }
    assert found == alone
    assert [c[0] for c in found[("symbol", "run")]] == [ids["fn"], ids["other"], ids["method"]]  # by id
    assert [c[0] for c in found[("method", "run")]] == [ids["method"]]
    assert found[("stem", "docs")] == [(ids["index"], "docs/index.md", "")]
    assert found[("stem", "src/a?b")] == [] and found[("task", "run")] == []
    assert [c[0] for c in found[("task", "T1")]] == [ids["task"]]
    assert graph_refs.candidates_many(store, []) == {}
    assert graph_refs.ref_ids(store) == [ids["ref"]]
    assert graph_refs.refs_targeting_many(store, [("symbol", "absent"), ("symbol", "run"), ("method", "run")]) == [
        ids["ref"]
    ]
    assert graph_refs.refs_targeting_many(store, [("file", "run")]) == graph_refs.refs_targeting_many(store, []) == []


def test_an_origin_is_dropped_with_its_nodes_and_references(store):
    ids = build_small_graph(store)
    assert graph.origins_present(store, ["src/a_b.py", "src/none.py"]) == {"src/a_b.py"}
    assert sorted(graph.nodes_of_origin(store, "src/a_b.py")) == [
        ("file", "src/a_b.py", "pkg.a_b", "src/a_b.py"),
        ("symbol", "run", "pkg.a_b.run", "src/a_b.py"),
    ]
    with transaction(store):
        graph_write.delete_origin(store, "src/a_b.py")
    assert graph.counts(store) == (1, 0)
    assert graph_refs.ref_rows(store, [ids["ref"]]) == []
    assert graph.node_exists(store, "symbol:src/axb.py:run")


def test_add_node_keeps_the_first_node_with_a_key(store):
    with transaction(store):
        first = graph_write.add_node(store, "commit", "commit:abc", "abc", origin="git")
        again = graph_write.add_node(store, "commit", "commit:abc", "other", origin="ledger")
    assert first == again
    assert [n.name for n in graph.nodes_by(store, "commit_prefix", "ab", limit=8)] == ["abc"]


def test_graph_source_states_are_put_touched_and_deleted(store):
    with transaction(store):
        graph_write.put_source(store, graph.SourceState("ledger", 10, 100, "f1", None), stamp=STAMP)
        graph_write.put_source(store, graph.SourceState("git", None, None, None, "abc"), stamp=STAMP)
        graph_write.touch_source(store, "ledger", 11, 101)
    states = graph.source_states(store)
    assert states["ledger"] == graph.SourceState("ledger", 11, 101, "f1", None)
    assert states["git"].cursor == "abc"
    with transaction(store):
        graph_write.delete_source(store, "ledger")
    assert set(graph.source_states(store)) == {"git"}


# -- equal-length paths: the choice depends on content, not on ids -------------------------

DIAMOND_NODES = ("symbol:src/start.py:go", "symbol:src/b.py:bravo", "symbol:src/a.py:alpha", "symbol:src/end.py:stop")
DIAMOND_EDGES = ((0, 1), (0, 2), (1, 3), (2, 3))  # two paths of two calls from go to stop


@pytest.fixture
def twin_stores(store, request: pytest.FixtureRequest, tmp_path: Path):
    """``store`` and a second, empty store of the same engine."""
    (tmp_path / "other").mkdir()
    other = engine_store("postgresql" if is_pg(store) else "sqlite", tmp_path / "other")
    yield store, other
    other.close()


def write_diamond(store, order: list[int]) -> dict[str, int]:
    """The diamond's nodes and edges, the edges written in ``order``, each in a batch of its own
    (a sync's batches decide the ids: here, in the opposite order in the twin)."""
    ids: dict[str, int] = {}
    for index in order:
        with transaction(store):
            writer = graph_write.GraphWriter(store)
            for end in DIAMOND_EDGES[index]:
                key = DIAMOND_NODES[end]
                if key not in ids:
                    path, name = key.split(":")[1:]
                    ids[key] = writer.node("symbol", key, name, origin=path, qualname=name, path=path)
            src, dst = (ids[DIAMOND_NODES[end]] for end in DIAMOND_EDGES[index])
            writer.edge(
                src, dst, "calls", "extracted", source=("file", "src/x.py:1-1", "f1"), origin="src/x.py", line=1
            )
            writer.flush()
    return ids


def test_equal_length_paths_are_chosen_by_content_whatever_the_batch_order(twin_stores):
    chosen = []
    for store, order in zip(twin_stores, ([0, 1, 2, 3], [3, 2, 1, 0]), strict=True):
        ids = write_diamond(store, order)
        nodes = graph.nodes_by_id(store, list(ids.values()))
        start, end = nodes[ids[DIAMOND_NODES[0]]], nodes[ids[DIAMOND_NODES[3]]]
        path = paths.path_between(store, [start], [end])
        chosen.append([hit.node.key for hit in path])
        steps = [(e.dst.key, forward) for e, forward in graph.edges_of(store, start)]
        assert steps == [("symbol:src/a.py:alpha", True), ("symbol:src/b.py:bravo", True)]
    assert chosen[0] == chosen[1] == ["symbol:src/start.py:go", "symbol:src/a.py:alpha", "symbol:src/end.py:stop"]


def test_lean_file_references_and_resolved_edges_are_stored_as_the_general_writers_store_them(store):
    """``GraphWriter.file_ref`` and ``ref_edge`` (a cold sync's many rows) write what ``ref`` and
    ``edge`` write, and edges written with the indexes rebuilt after (``edge_indexes_built_after``)
    are served like any other."""
    ids = build_small_graph(store)
    source = ("file", "src/a_b.py:7-7", "f1")
    with transaction(store):
        writer = graph_write.GraphWriter(store)
        lean = writer.file_ref(
            ids["fn"], "src/a_b.py", "f1", ("calls", "symbol", "run", 7, "pkg", True, False, "extracted", True)
        )
        whole = writer.ref(
            ids["fn"], "calls", "symbol", "run", hint="pkg", qualified=True, reverse=False, link="extracted",
            line=7, source=source, origin="src/a_b.py", tested=True,
        )  # fmt: skip
        lean_file = writer.file_ref(
            ids["file"], "src/a_b.py", "f1", ("imports", "module", "pkg", None, None, False, False, "declared", False)
        )
        whole_file = writer.ref(
            ids["file"], "imports", "module", "pkg", hint=None, qualified=False, reverse=False, link="declared",
            line=None, source=("file", "src/a_b.py", "f1"), origin="src/a_b.py",
        )  # fmt: skip
        writer.flush()
    rows = graph_refs.ref_rows(store, [lean, whole, lean_file, whole_file])
    assert [r.id for r in rows] == [lean, whole, lean_file, whole_file]
    assert rows[0][1:] == rows[1][1:] and rows[2][1:] == rows[3][1:]
    assert (rows[0].source_uri, rows[0].line, rows[0].origin, rows[0].tested) == (
        "src/a_b.py:7-7",
        7,
        "src/a_b.py",
        True,
    )
    assert rows[2].source_uri == "src/a_b.py"
    bare = graph_refs.ref_rows(store, [lean, whole, lean_file, whole_file], sources=False)  # what resolution needs
    assert [(*r[:10], *r[14:]) for r in bare] == [(*r[:10], *r[14:]) for r in rows]
    assert all(r[10:14] in (r0[10:14], (None,) * 4) for r, r0 in zip(bare, rows, strict=True))
    with transaction(store), graph_write.edge_indexes_built_after(store):
        writer = graph_write.GraphWriter(store)
        writer.ref_edge(ids["other"], ids["fn"], "tested_by", "extracted", rows[0])
        writer.ref_edge(ids["fn"], ids["fn"], "calls", "extracted", rows[0])  # a node never points at itself
        assert writer.flush() == 1
    fn = graph.nodes_by_id(store, [ids["fn"]])[ids["fn"]]
    incoming = [(e.type, e.src.id, e.source_uri, e.line) for e, forward in graph.edges_of(store, fn) if not forward]
    assert ("tested_by", ids["other"], "src/a_b.py:7-7", 7) in incoming
    assert graph.counts(store) == (3, 4)


def test_edges_and_references_of_every_shape_keep_the_order_they_were_given_in(store):
    """The writer buffers each shape of row apart (an edge with its source, an edge resolved from
    a reference, a file's reference with or without a line, any other reference: SQLite writes
    each with only the columns it fills); turning from one shape to another it writes what it
    holds first, so edge ids follow the order of the calls, and every reference reads back."""
    ids = build_small_graph(store)
    [row] = graph_refs.ref_rows(store, graph_refs.ref_ids(store))
    defined = ("file", "src/a_b.py:3-9", "f1")
    with transaction(store):
        writer = graph_write.GraphWriter(store)
        writer.ref_edge(ids["other"], ids["fn"], "calls", "extracted", row)
        writer.edge(ids["file"], ids["other"], "depends_on", "declared", source=defined, origin="src/a_b.py", line=3)
        writer.ref_edge(ids["fn"], ids["other"], "tested_by", "heuristic", row)
        writer.edge(ids["other"], ids["file"], "links_to", "declared", source=defined, origin="src/a_b.py", line=4)
        lean = ("src/a_b.py", "f1")
        made = [
            writer.file_ref(ids["fn"], *lean, ("calls", "symbol", "go", 8, None, False, False, "extracted", False)),
            writer.file_ref(ids["fn"], *lean, ("links_to", "file", "b", None, None, False, False, "declared", False)),
            writer.ref(
                ids["fn"], "calls", "symbol", "stop", hint=None, qualified=False, reverse=False, link="extracted",
                line=9, source=("file", "src/a_b.py:9-9", "f1"), origin="src/a_b.py",
            ),
            writer.file_ref(ids["fn"], *lean, ("calls", "symbol", "again", 10, "pkg", True, False, "heuristic", True)),
        ]  # fmt: skip
        writer.flush()
    later = {}
    for node in graph.nodes_by_id(store, list(ids.values())).values():
        for edge, forward in graph.edges_of(store, node):
            if forward and edge.type != "defines":  # SQLite derives those from the nodes (migration 0025)
                later[edge.id] = (edge.type, edge.src.id, edge.dst.id)
    written = [later[i] for i in sorted(later)][-4:]
    assert written == [
        ("calls", ids["other"], ids["fn"]),
        ("depends_on", ids["file"], ids["other"]),
        ("tested_by", ids["fn"], ids["other"]),
        ("links_to", ids["other"], ids["file"]),
    ]
    rows = graph_refs.ref_rows(store, made)
    assert [(r.id, r.target, r.line, r.source_uri, r.origin, r.hint, r.qualified, r.tested) for r in rows] == [
        (made[0], "go", 8, "src/a_b.py:8-8", "src/a_b.py", None, False, False),
        (made[1], "b", None, "src/a_b.py", "src/a_b.py", None, False, False),
        (made[2], "stop", 9, "src/a_b.py:9-9", "src/a_b.py", None, False, False),
        (made[3], "again", 10, "src/a_b.py:10-10", "src/a_b.py", "pkg", True, True),
    ]
