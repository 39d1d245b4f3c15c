"""Migration 0019: the bodies of excerpts derived from files and commits are stored deflated; a
store built by the previous schema is converted in place and answers the same; the word index
stays in step with `facts` on kenning's connections, and other tools can still write `facts`."""

from __future__ import annotations

import sqlite3
import zlib

from migration_support import store_before

from kenning.store import bodies, fact_sources, facts, fts, memory, transverse
from kenning.store.db import connect, transaction

CODE = (
    "def rrf_fuse(runs, k=60):\n"
    '    """Merge ranked runs by reciprocal rank fusion: each run adds 1 / (k + rank)."""\n'
    "    scores = {}\n"
    "    for run in runs:\n"
    "        for rank, fact_id in enumerate(run, start=1):\n"
    "            scores[fact_id] = scores.get(fact_id, 0.0) + 1.0 / (k + rank)\n"
    "    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))\n"
)
DOC = "Reciprocal rank fusion merges the runs of the word index and of the dense index. " * 4
NOTE = "The team merges ranked runs with reciprocal rank fusion; the dense run may be missing. " * 3
FACTS = [  # id, type, title, body, keywords, path, producer, source kind
    (1, "code", "def rrf_fuse(runs, k)", CODE, "rrf_fuse rrf fuse runs k", "src/fusion.py", "projection", "file"),
    (2, "doc", "Ranking > Fusion", DOC, "ranking fusion", "docs/ranking.md", "projection", "file"),
    (3, "observation", "fusion note", NOTE, "", "", "agent", "manual"),
    (4, "code", "def go()", "def go():\n    pass\n", "go", "src/go.py", "projection", "file"),  # short: kept as text
]
QUERIES = ('"fusion"', '"runs" OR "rank"', '"merge" OR "dense" OR "missing"', '"pass"', "keywords:fuse", "rank*")


def old_store(path) -> None:
    """A store at the schema before 0019, its facts written and indexed as that schema did."""
    conn = store_before(path, 19)
    for fid, type_, title, body, keywords, fpath, producer, kind in FACTS:
        conn.execute(
            "INSERT INTO facts (id, type, title, body, keywords, path, source_kind, source_uri, content_hash, "
            "date_indexed, producer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', ?)",
            (fid, type_, title, body, keywords, fpath, kind, fpath or f"note-{fid}", f"{fid:064d}", producer),
        )
        conn.execute(
            "INSERT INTO facts_fts (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)",
            (fid, title, keywords, fpath, body),
        )
        conn.execute("INSERT INTO facts_trigram (rowid, title, path) VALUES (?, ?, ?)", (fid, title, fpath))
    conn.close()


def answers(conn) -> list[list[tuple[int, float]]]:
    return [fts.words(conn, q, fts.Filters(), 10, (2.0, 1.5, 1.2, 1.0)) for q in QUERIES]


def ids_of(conn, match: str) -> set[int]:
    return {i for i, _ in fts.words(conn, match, fts.Filters(), 10, (1.0,) * 4)}


def check_indexes(conn) -> None:
    for table in ("facts_fts", "facts_trigram"):  # each index agrees with its content
        conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")


def test_an_old_store_is_packed_in_place_and_answers_the_same(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    before_conn = sqlite3.connect(path, isolation_level=None)
    before = answers(before_conn)
    before_conn.close()
    assert all(before[:5])  # every query but the prefix one finds something to compare

    conn = connect(path, create=True)  # a writer migrates
    try:
        stored = [tuple(r) for r in conn.execute("SELECT id, typeof(body), keywords FROM facts ORDER BY id")]
        assert stored == [  # the keywords of a packed row are in its body; a note, and a short body, as they were
            (1, "blob", ""),
            (2, "blob", ""),
            (3, "text", ""),
            (4, "text", "go"),
        ]
        size = conn.execute("SELECT sum(length(body)) FROM facts WHERE id IN (1, 2)").fetchone()[0]
        assert size < (len(CODE) + len(DOC)) * 0.6
        served = facts.get_many(conn, "p", [1, 2, 3, 4])
        assert [served[i].body for i in (1, 2, 3, 4)] == [f[3] for f in FACTS]
        assert answers(conn) == before  # same rows, same BM25 scores
        check_indexes(conn)
    finally:
        conn.close()


def test_the_word_index_follows_deletes_and_rewrites_of_packed_rows(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    conn = connect(path, create=True)
    try:
        assert ids_of(conn, '"reciprocal"') == {1, 2, 3}
        with transaction(conn):
            facts.delete(conn, 2)
            assert fact_sources.repoint(conn, 1, uri="lib/fusion.py:1-7", path="lib/fusion.py", fingerprint="f" * 64)
        assert ids_of(conn, '"reciprocal"') == {1, 3}
        assert ids_of(conn, "path:lib") == {1}
        assert ids_of(conn, "path:docs") == set()
        check_indexes(conn)
        conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('rebuild')")  # reads the text through facts_text
        check_indexes(conn)
        assert ids_of(conn, '"sorted"') == {1}
        with transaction(conn):  # new keywords for a packed row: it is stored unpacked from then on
            facts.set_tags(conn, 1, ["ranking"], "ranking")
        assert ids_of(conn, "keywords:ranking") == {1}
        assert ids_of(conn, "keywords:fuse") == set()
        assert facts.get(conn, "p", 1).body == CODE
        check_indexes(conn)
    finally:
        conn.close()


def test_new_excerpts_are_written_packed_and_notes_as_text(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    try:
        with transaction(conn):
            ids = [
                facts.insert(
                    conn,
                    facts.NewFact(
                        type=type_,
                        title=title,
                        body=body,
                        source_kind=kind,
                        source_uri=fpath or "note",
                        producer=producer,
                        date_indexed="2026-01-01T00:00:00Z",
                        keywords=keywords,
                        path=fpath,
                    ),
                )
                for _, type_, title, body, keywords, fpath, producer, kind in FACTS
            ]
        kinds = [conn.execute("SELECT typeof(body) FROM facts WHERE id = ?", (i,)).fetchone()[0] for i in ids]
        assert kinds == ["blob", "blob", "text", "text"]
        assert [facts.get(conn, "p", i).body for i in ids] == [f[3] for f in FACTS]
        assert ids_of(conn, '"sorted"') == {ids[0]}
        check_indexes(conn)
    finally:
        conn.close()


def test_a_tool_without_kenning_functions_can_still_write_facts(tmp_path):
    path = tmp_path / "k.db"
    connect(path, create=True).close()
    other = sqlite3.connect(path, isolation_level=None)  # no kenning_text: no TEMP triggers either
    try:
        other.execute("UPDATE facts SET title = title WHERE id = -1")
        other.execute("DELETE FROM facts WHERE id = -1")
    finally:
        other.close()


def test_lookups_by_content_hash_and_the_memory_timeline_use_the_smaller_indexes(tmp_path):
    """Migration 0020: the content-hash index holds 16 characters, the timeline's leaves file
    excerpts out; the queries still reach them (a plan that scans `facts` would pass every
    answer test and cost a full scan per saved note)."""
    conn = connect(tmp_path / "k.db", create=True)
    seen: list[str] = []
    conn.set_trace_callback(seen.append)  # the statements as run, their values spelled out
    try:
        digest = "ab" * 32
        memory.active_note(conn, digest, ("session", "manual"))
        transverse.active_manual_with_hash(conn, digest)
        fact_sources.active_file_facts(conn, [digest, "cd" * 32])
        at = memory.Anchor(1, "manual", "2026-01-01T00:00:00Z", None, 0)
        memory.saved_neighbours(conn, at, ("session", "manual"), 2, 2)
        conn.set_trace_callback(None)
        plans = {
            sql: " ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
            for sql in seen
            if sql.lstrip().upper().startswith("SELECT")
        }
    finally:
        conn.close()
    assert len(plans) == 5
    by_hash = [plan for sql, plan in plans.items() if "content_hash" in sql]
    by_date = [plan for sql, plan in plans.items() if "date_indexed" in sql]
    assert len(by_hash) == 3 and all("USING INDEX facts_content_hash" in p for p in by_hash), by_hash
    assert len(by_date) == 2 and all("USING INDEX facts_memory_chrono" in p for p in by_date), by_date


def test_bodies_deflated_by_isa_l_read_back_through_zlib_and_are_smaller():
    for body in (CODE, DOC, DOC * 5):
        keywords, stored = bodies.pack("rrf_fuse rrf fuse runs", body)
        assert keywords == "" and isinstance(stored, bytes) and len(stored) < len(body)
        assert zlib.decompress(stored, wbits=-15) == b"rrf_fuse rrf fuse runs\0" + body.encode()
        assert bodies.text(stored) == body and bodies.keywords(stored, "") == "rrf_fuse rrf fuse runs"
    assert bodies._deflate.__module__.startswith("isal")  # the dependency is installed and used
