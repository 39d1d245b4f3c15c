"""The store contract: what any engine behind ``kenning.store`` must do, tested through the
typed functions only (no SQL here), so that a second engine runs this module unchanged.

To add an engine: add its name to ``ENGINES`` and a branch to ``store`` giving the project
its store (PostgreSQL: ``pg_engine.pg_project``; the corpus is synced into it by ``kenning
sync``'s own code). Sections follow the contract in docs/architecture.md ("The
store contract"): memory, cursors, full text, pack, status and version, report look-ups,
bench reads. Graph, facts and sync sections go below them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from pg_engine import ENGINE as POSTGRESQL
from pg_engine import pg_project

from conftest import NOW, resync
from kenning.clock import iso
from kenning.config import Project
from kenning.errors import InvalidQuery
from kenning.records import Lifecycle
from kenning.store import bench, cursors, dated, fts, lookups, memory, pack, status, version
from kenning.store import facts as fact_store
from kenning.store.db import open_store, transaction
from kenning.store.handle import Connection

# A fact id no store holds: the tests' shared PostgreSQL sequences pass 10,000 after a few runs.
NO_SUCH_ID = 2**62

ENGINES = ["sqlite", POSTGRESQL]

CORPUS = {
    "README.md": "# Demo\n\nAn opening paragraph about caches.\n\n## Usage\n\nRun the cache warmer daily.\n",
    "CONTRIBUTING.md": "# Contributing\n\n## Tests\n\nRun the whole suite before every commit.\n",
    "docs/adr/0001-use-sqlite.md": (
        "# Use SQLite\n\n## Status\n\nAccepted\n\n## Decision\n\nOne SQLite file per project.\n"
    ),
    "docs/guide.md": (
        "# Guide\n\n## Alpha\n\nalpha beta gamma\n\n## Beta\n\nbeta gamma delta\n\n## Gamma\n\ngamma delta epsilon\n"
    ),
    "src/app.py": "def rrf_fuse(lists):\n    return lists\n\n\ndef other():\n    return 1\n",
}


@dataclass(frozen=True)
class Store:
    conn: Connection
    project: Project


@pytest.fixture(params=ENGINES)
def store(request: pytest.FixtureRequest, make_project) -> Iterator[Store]:
    """A migrated store holding ``CORPUS`` (synced once at ``NOW``)."""
    project = make_project(CORPUS)
    if request.param == "postgresql":
        project = pg_project(project)
    resync(project)
    conn = open_store(project)
    try:
        yield Store(conn, project)
    finally:
        conn.close()


def note(
    s: Store,
    text: str,
    *,
    kind: str = "manual",
    type_: str = "observation",
    at: int = 0,
    memory_type: str | None = None,
    uri: str | None = None,
) -> int:
    """Write a saved memory (no file) ``at`` minutes after ``NOW``; returns its id."""
    stamp = iso(NOW + timedelta(minutes=at))
    with transaction(s.conn):
        return fact_store.insert(
            s.conn,
            fact_store.NewFact(
                type=type_,
                title=text[:40],
                body=text,
                source_kind=kind,
                source_uri=uri or f"{kind}:test",
                producer="agent",
                date_indexed=stamp,
                memory_type=memory_type,
            ),
        )


def ids_titled(s: Store, ids: list[int]) -> list[str]:
    facts = fact_store.get_many(s.conn, s.project.name, ids)
    return [facts[i].title for i in ids]


# --- memory: sessions, summaries, tool uses ------------------------------------------------


def test_a_session_opens_once_and_its_tool_uses_list_oldest_first(store):
    assert not memory.session_exists(store.conn, "s1")
    with transaction(store.conn):
        memory.touch_session(store.conn, store.project.name, "s1", iso(NOW), "/work")
        memory.touch_session(store.conn, store.project.name, "s1", iso(NOW + timedelta(minutes=1)), None)
        first = memory.insert_tool_use(store.conn, "toolu_1", "s1", "Read", "{}", "text", "/work", iso(NOW))
        second = memory.insert_tool_use(store.conn, None, "s1", "Bash", "ls", "a b", None, iso(NOW))
    assert memory.session_exists(store.conn, "s1")
    assert first != second
    assert memory.tool_use_id_of(store.conn, "toolu_1") == first
    assert memory.tool_use_id_of(store.conn, "toolu_404") is None
    assert [t[:2] for t in memory.tool_uses_of_session(store.conn, "s1", 10)] == [(first, "Read"), (second, "Bash")]
    assert [t[0] for t in memory.tool_uses_of_session(store.conn, "s1", 1)] == [first]
    assert memory.tool_uses_of_session(store.conn, "nobody", 10) == []


def test_a_tool_use_is_found_by_row_id_or_client_id(store):
    with transaction(store.conn):
        memory.touch_session(store.conn, store.project.name, "s1", iso(NOW))
        row_id = memory.insert_tool_use(store.conn, "toolu_9", "s1", "Edit", "in", "out", "/w", iso(NOW))
    by_row = memory.tool_use(store.conn, str(row_id))
    assert by_row is not None and by_row.to_json() == {
        "id": row_id,
        "tool_use_id": "toolu_9",
        "session_id": "s1",
        "tool": "Edit",
        "input": "in",
        "response": "out",
        "cwd": "/w",
        "created": iso(NOW),
    }
    assert memory.tool_use(store.conn, "toolu_9") == by_row
    assert memory.tool_use(store.conn, "toolu_0") is None


def test_a_summary_keeps_its_parts_and_its_session(store):
    fact_id = note(store, "summary of the session", kind="session", type_="session_summary")
    with transaction(store.conn):
        memory.touch_session(store.conn, store.project.name, "s2", iso(NOW))
        memory.set_fact_session(store.conn, fact_id, "s2")
        memory.insert_summary(store.conn, fact_id, "s2", {"request": "fix it", "learned": "how"})
    other = note(store, "a note in no session")
    assert memory.summary_parts(store.conn, [fact_id, other]) == {
        fact_id: {
            "session_id": "s2",
            "request": "fix it",
            "investigated": "",
            "learned": "how",
            "completed": "",
            "next_steps": "",
        }
    }
    assert memory.session_of(store.conn, [fact_id, other, NO_SUCH_ID]) == {fact_id: "s2", other: None}
    assert memory.summary_parts(store.conn, []) == {} and memory.session_of(store.conn, []) == {}


def test_an_identical_active_note_is_found_by_content_and_source_kind(store):
    fact_id = note(store, "remember the cache size")
    fact = fact_store.get(store.conn, store.project.name, fact_id)
    digest = fact_store.content_hash(fact.type, fact.title, fact.body)
    assert memory.active_note(store.conn, digest, ("manual",)) == fact_id
    assert memory.active_note(store.conn, digest, ("session",)) is None
    with transaction(store.conn):
        fact_store.set_lifecycle(store.conn, fact_id, Lifecycle.RETIRED, when=iso(NOW))
    assert memory.active_note(store.conn, digest, ("manual",)) is None


def test_recent_memories_are_newest_first_and_filtered(store):
    old = note(store, "old durable note", at=1, memory_type="durable")
    new = note(store, "new working note", at=2, memory_type="working", kind="session", uri="session:s1")
    decision = note(store, "a decided thing", at=3, type_="decision")
    kinds = ("session", "manual")
    assert memory.recent_ids(store.conn, kinds, 10) == [decision, new, old]
    assert memory.recent_ids(store.conn, kinds, 2) == [decision, new]
    assert memory.recent_ids(store.conn, kinds, 10, types=("observation",)) == [new, old]
    assert memory.recent_ids(store.conn, kinds, 10, memory_type="working") == [new]
    assert memory.recent_ids(store.conn, kinds, 10, path_prefix="session:") == [new]
    assert memory.recent_ids(store.conn, ("manual",), 10) == [decision, old]


def test_dated_facts_are_newest_first_within_the_window(store):
    day = 24 * 60  # minutes: a year after the corpus, so only these notes are in the window
    first, second, third = (note(store, f"dated note {n}", at=(400 + n) * day) for n in range(3))
    decided = note(store, "a dated decision", at=401 * day, type_="decision")
    since, until = (iso(NOW + timedelta(days=d))[:10] for d in (400, 401))
    assert dated.newest(store.conn, (), since, until, 10) == [decided, second, first]
    assert dated.newest(store.conn, ("observation",), since, None, 10) == [third, second, first]
    assert dated.newest(store.conn, ("decision",), since, None, 10) == [decided]
    assert dated.newest(store.conn, (), since, None, 2) == [third, decided]


def test_a_saved_memory_neighbours_are_the_memories_saved_around_it(store):
    first, second, third, fourth = (note(store, f"memory number {n}", at=n) for n in range(4))
    at = memory.anchor(store.conn, second)
    assert at is not None and at.source_kind == "manual" and at.path is None
    assert memory.saved_neighbours(store.conn, at, ("manual",), 5, 5) == ([first], [third, fourth])
    assert memory.saved_neighbours(store.conn, at, ("manual",), 0, 1) == ([], [third])
    assert memory.anchor(store.conn, NO_SUCH_ID) is None


def test_a_session_memory_neighbours_are_the_memories_saved_before_and_after_it_in_its_session(store):
    with transaction(store.conn):
        for session in ("s1", "s2"):
            memory.touch_session(store.conn, store.project.name, session, iso(NOW))

    def in_session(text: str, session: str, type_: str = "observation") -> int:
        fact_id = note(store, text, kind="session", uri=f"session:{session}", type_=type_)
        with transaction(store.conn):
            memory.set_fact_session(store.conn, fact_id, session)
        return fact_id

    first = in_session("which eviction policy", "s1")
    elsewhere = in_session("a turn of another session", "s2")
    second = in_session("least recently used", "s1")
    forgotten = in_session("a turn forgotten later", "s1")
    summary = in_session("summary of s1", "s1", type_="session_summary")
    third = in_session("agreed, write it down", "s1")
    loose = note(store, "a note in no session")
    with transaction(store.conn):
        fact_store.set_lifecycle(store.conn, forgotten, Lifecycle.RETIRED, when=iso(NOW))
    found = memory.session_neighbours(
        store.conn, [first, second, third, elsewhere, summary, loose, forgotten, NO_SUCH_ID]
    )
    # forgotten and summary are skipped between second and third; a summary, a loose note, a
    # forgotten memory and an unknown id have no entry
    assert found == {first: (None, second), second: (first, third), third: (second, None), elsewhere: (None, None)}
    assert memory.session_neighbours(store.conn, []) == {}


def test_a_file_excerpt_neighbours_are_the_excerpts_above_and_below_it(store):
    ids = lookups.active_ids_located_in(store.conn, ["docs/guide.md"])
    assert ids_titled(store, ids) == ["Guide", "Guide > Alpha", "Guide > Beta", "Guide > Gamma"]
    at = memory.anchor(store.conn, ids[2])
    assert at is not None and at.path == "docs/guide.md" and at.line > 1
    assert memory.file_neighbours(store.conn, at, 5, 5) == ([ids[1], ids[0]], [ids[3]])
    assert memory.file_neighbours(store.conn, at, 1, 0) == ([ids[1]], [])


# --- guided-search cursors -----------------------------------------------------------------


def _cursor(token: str, expires: str, disclosed: str = "[1]") -> cursors.CursorRow:
    return cursors.CursorRow(
        token, 1, "demo", "cache", '{"options": {}, "scope": {}}', disclosed, "m" * 32, iso(NOW), expires
    )


def test_a_cursor_reads_back_as_written_and_closes(store):
    row = _cursor("caaaaaaaaaaaaa", iso(NOW + timedelta(minutes=15)))
    with transaction(store.conn):
        cursors.insert(store.conn, row)
    assert cursors.get(store.conn, row.token) == row
    with transaction(store.conn):
        cursors.close(store.conn, row.token)
        cursors.close(store.conn, "cunknownunknow")
    assert cursors.get(store.conn, row.token).closed is True
    assert cursors.get(store.conn, "cunknownunknow") is None


def test_only_cursors_expired_before_the_cut_are_purged(store):
    old = _cursor("cold0000000000", iso(NOW - timedelta(days=2)))
    recent = _cursor("crecent0000000", iso(NOW - timedelta(hours=1)))
    with transaction(store.conn):
        cursors.insert(store.conn, old)
        cursors.insert(store.conn, recent)
        cursors.purge_expired(store.conn, iso(NOW - timedelta(days=1)))
    assert cursors.get(store.conn, old.token) is None
    assert cursors.get(store.conn, recent.token) == recent


def test_fact_states_follow_content_and_lifecycle(store):
    fact_id = note(store, "a state to watch")
    before = cursors.fact_states(store.conn, [fact_id, NO_SUCH_ID])
    assert set(before) == {fact_id} and before[fact_id][1] == "active"
    with transaction(store.conn):
        fact_store.set_lifecycle(store.conn, fact_id, Lifecycle.RETIRED, when=iso(NOW))
    assert cursors.fact_states(store.conn, [fact_id])[fact_id] == (before[fact_id][0], "retired")


# --- full text: word and trigram candidates ------------------------------------------------

WEIGHTS = (2.0, 1.5, 1.2, 1.0)


def test_word_candidates_are_best_first_and_respect_the_filters(store):
    hits = fts.words(store.conn, '"gamma" OR "epsilon"', fts.Filters(), 10, WEIGHTS)
    assert ids_titled(store, [i for i, _ in hits])[0] == "Guide > Gamma"  # both words
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert sorted(ids_titled(store, [i for i, _ in hits])) == ["Guide > Alpha", "Guide > Beta", "Guide > Gamma"]
    ties = [i for i, s in hits if s == hits[1][1]]
    assert len(ties) == 2 and ties == sorted(ties)  # equal scores: the lower id first
    assert fts.words(store.conn, '"gamma"', fts.Filters(), 2, WEIGHTS) == hits_for(store, '"gamma"')[:2]
    assert fts.words(store.conn, '"gamma"', fts.Filters(types=("code",)), 10, WEIGHTS) == []
    assert fts.words(store.conn, '"gamma"', fts.Filters(path_prefix="src/"), 10, WEIGHTS) == []
    gamma = hits[0][0]
    with transaction(store.conn):
        fact_store.set_lifecycle(store.conn, gamma, Lifecycle.SUPERSEDED, when=iso(NOW))
    assert gamma not in [i for i, _ in fts.words(store.conn, '"gamma"', fts.Filters(), 10, WEIGHTS)]
    superseded = fts.Filters(lifecycles=("superseded",))
    assert [i for i, _ in fts.words(store.conn, '"gamma"', superseded, 10, WEIGHTS)] == [gamma]


def hits_for(store: Store, match: str) -> list[tuple[int, float]]:
    return fts.words(store.conn, match, fts.Filters(), 100, WEIGHTS)


def test_memory_type_filters_word_candidates(store):
    working = note(store, "zebra crossing", memory_type="working")
    durable = note(store, "zebra stripes", memory_type="durable")
    found = {i for i, _ in fts.words(store.conn, '"zebra"', fts.Filters(memory_type="working"), 10, WEIGHTS)}
    assert found == {working} and durable not in found


def test_a_malformed_expression_is_an_invalid_query(store):
    with pytest.raises(InvalidQuery):
        fts.words(store.conn, '"unclosed', fts.Filters(), 10, WEIGHTS)


@pytest.mark.parametrize(
    ("match", "titles"),
    [
        ("title:gamma", ["Guide > Gamma"]),
        ("TITLE : gamma", ["Guide > Gamma"]),
        ('"title":gam*', ["Guide > Gamma"]),
        ("body:gamma", ["Guide > Alpha", "Guide > Beta", "Guide > Gamma"]),
        ("path:guide", ["Guide", "Guide > Alpha", "Guide > Beta", "Guide > Gamma"]),
        ('title:"use sqlite"', ["Use SQLite", "Use SQLite > Decision", "Use SQLite > Status"]),
        ("title:(alpha OR gamma)", ["Guide > Alpha", "Guide > Gamma"]),
        ("gamma NOT title:gamma", ["Guide > Alpha", "Guide > Beta"]),
        ("{title path}:delta", []),
        ("- title:epsilon", ["Guide > Gamma"]),
    ],
)
def test_a_column_filter_keeps_a_term_to_its_columns(store, match, titles):
    assert sorted(ids_titled(store, [i for i, _ in hits_for(store, match)])) == titles
    assert fts.count_words(store.conn, match, fts.Filters()) == len(titles)


def test_an_unknown_column_is_an_invalid_query(store):
    with pytest.raises(InvalidQuery, match="'gamma' is not a column"):
        fts.words(store.conn, "gamma:title", fts.Filters(), 10, WEIGHTS)


@pytest.mark.parametrize("match", ["!!!", "gamma AND !!!", "gamma ***", "title:!!!"])
def test_a_bare_term_holding_punctuation_is_an_invalid_query(store, match):
    with pytest.raises(InvalidQuery, match="quote a term holding punctuation"):
        fts.words(store.conn, match, fts.Filters(), 10, WEIGHTS)


@pytest.mark.parametrize(
    ("match", "titles"),
    [
        ('"" gamma', ["Guide > Alpha", "Guide > Beta", "Guide > Gamma"]),
        ('"!!" OR gamma', ["Guide > Alpha", "Guide > Beta", "Guide > Gamma"]),
        ('gamma NOT ""', ["Guide > Alpha", "Guide > Beta", "Guide > Gamma"]),
        ('gamma AND ("" OR delta)', ["Guide > Beta", "Guide > Gamma"]),
        ('""', []),
        ('"" NOT gamma', []),
    ],
)
def test_a_phrase_of_no_word_is_left_out_of_its_expression(store, match, titles):
    assert sorted(ids_titled(store, [i for i, _ in hits_for(store, match)])) == titles


def test_trigram_candidates_match_inside_identifiers(store):
    hits = fts.trigrams(store.conn, '"rrf_fu"', fts.Filters(), 10)
    assert hits and "rrf_fuse" in ids_titled(store, [hits[0][0]])[0]
    assert fts.words(store.conn, '"rrf_fu"', fts.Filters(), 10, WEIGHTS) == []


def test_match_tests_and_counts(store):
    assert fts.words_match(store.conn, '"caches"')  # stemmed: matches "caches" and "cache"
    assert not fts.words_match(store.conn, '"zzzunknown"')
    assert fts.count_words(store.conn, '"gamma"', fts.Filters()) == len(hits_for(store, '"gamma"'))
    assert fts.count_words(store.conn, '"gamma"', fts.Filters(types=("code",))) == 0
    assert fts.count_trigrams(store.conn, '"rrf_fu"', fts.Filters()) >= 1


# --- pack ----------------------------------------------------------------------------------


def test_convention_facts_are_typed_tagged_or_in_a_convention_file(store):
    typed = note(store, "always run the linter", type_="convention")
    found = pack.convention_facts(store.conn, ["CONTRIBUTING.md"])
    assert {f.title for f in found} >= {"Contributing", "Contributing > Tests", "always run the linter"}
    assert all(f.path in (None, "CONTRIBUTING.md") for f in found)
    assert [f.id for f in pack.convention_facts(store.conn, [])] == [typed]
    tests_section = next(f for f in found if f.title == "Contributing > Tests")
    assert tests_section.line and tests_section.source_kind == "file" and tests_section.content_hash


def test_decision_facts_are_the_active_decisions(store):
    found = pack.decision_facts(store.conn)
    assert found and {f.path for f in found} == {"docs/adr/0001-use-sqlite.md"}
    assert all(f.type == "decision" for f in found)
    for fact in found:
        with transaction(store.conn):
            fact_store.set_lifecycle(store.conn, fact.id, Lifecycle.RETIRED, when=iso(NOW))
    assert pack.decision_facts(store.conn) == []


# --- status and the store version ----------------------------------------------------------


def test_status_reports_the_engine_and_the_index_size(store):
    assert status.full_text().available
    size = status.index_size(store.conn)
    assert size.files == len(CORPUS)
    assert size.facts == sum(size.by_lifecycle.values()) == size.by_lifecycle["active"]
    assert size.by_type["decision"] >= 1 and size.by_type["code"] >= 1
    assert size.last_sync is not None and size.schema_version >= 1
    nodes, edges = status.graph_size(store.conn)
    assert edges >= 0 and (nodes > 0) == (edges > 0)


def test_the_store_version_moves_with_every_write_and_reads_without_migrating(store):
    def read_without_migrating() -> str | None:  # what the session-start hook reads
        if store.project.config.store:
            return version.store_state_on_server(store.project.config.store, store.project.name)
        return version.store_state_at(store.project.db_path)

    before = version.store_state(store.conn)
    assert read_without_migrating() == before
    note(store, "one more note")
    after = version.store_state(store.conn)
    assert after != before and read_without_migrating() == after


def test_the_store_version_of_something_that_is_not_a_store_is_none(store, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    assert version.store_state_at(junk) is None
    assert version.store_state_at(tmp_path / "absent.db") is None


# --- report look-ups -----------------------------------------------------------------------


def test_manifest_paths_are_every_indexed_file_sorted(store):
    assert lookups.manifest_paths(store.conn) == sorted(CORPUS)


def test_located_ids_are_active_and_in_file_order(store):
    guide = lookups.active_ids_located_in(store.conn, ["docs/guide.md"])
    both = lookups.active_ids_located_in(store.conn, ["README.md", "docs/guide.md"])
    assert both[-len(guide) :] == guide and len(both) > len(guide)
    assert lookups.active_ids_above(store.conn, "docs/guide.md", 1) == guide[:1]
    assert lookups.active_ids_above(store.conn, "docs/guide.md", 10_000) == guide
    with transaction(store.conn):
        fact_store.set_lifecycle(store.conn, guide[1], Lifecycle.RETIRED, when=iso(NOW))
    assert guide[1] not in lookups.active_ids_located_in(store.conn, ["docs/guide.md"])
    assert lookups.active_ids_located_in(store.conn, []) == []


def test_ids_with_a_path_are_the_facts_whose_own_path_it_is(store):
    readme = lookups.active_ids_with_path(store.conn, "README.md")
    assert readme and readme == sorted(readme)
    assert set(readme) <= set(lookups.active_ids_located_in(store.conn, ["README.md"]))
    assert lookups.active_ids_with_path(store.conn, "nowhere.md") == []


# --- bench reads ---------------------------------------------------------------------------


def test_bench_reads_counts_candidates_and_lifecycles(store):
    size = status.index_size(store.conn)
    assert bench.active_count(store.conn) == size.by_lifecycle["active"]
    assert bench.orphan_count(store.conn) == 0
    sections = dict(bench.section_titles(store.conn))
    assert "Guide > Alpha" in sections.values() and not any("Use SQLite" in t for t in sections.values())
    assert all(t.startswith("Use SQLite") for _, t in bench.decision_titles(store.conn))
    metas = bench.code_metas(store.conn)
    assert any('"rrf_fuse"' in (m or "") for _, m in metas)
    some = next(iter(sections))
    assert bench.lifecycles(store.conn, [some, NO_SUCH_ID]) == {some: "active"}
    assert isinstance(bench.declared_edges(store.conn), list)
