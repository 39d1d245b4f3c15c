"""Migration 0016: the trigram index covers titles and paths, no longer keywords; a store built
by the previous schema is converted in place and searches the same titles and paths."""

from __future__ import annotations

from migration_support import store_before

from kenning.store import fts
from kenning.store.db import connect

FACTS = [  # id, title, keywords, path, body
    (1, "def rrf_fuse(runs, k)", "rrf_fuse rrf fuse runs k kenning.search.fusion", "src/search/fusion.py", "fuse"),
    (2, "Ranking", "ranking", "docs/ranking.md", "Reciprocal rank fusion merges runs."),
    (3, "def load(path)", "load path chunk_size chunk size kenning.io", "src/io.py", "read"),
]


def old_store(path) -> None:
    """A store at the schema before 0016, its facts indexed as that schema indexed them."""
    conn = store_before(path, 16)
    for fid, title, keywords, fpath, body in FACTS:
        conn.execute(
            "INSERT INTO facts (id, type, title, body, keywords, path, source_kind, source_uri, content_hash, "
            "date_indexed, producer) "
            "VALUES (?, 'code', ?, ?, ?, ?, 'file', ?, ?, '2026-01-01T00:00:00Z', 'projection')",
            (fid, title, body, keywords, fpath, fpath, f"{fid:064d}"),
        )
        conn.execute(
            "INSERT INTO facts_fts (rowid, title, keywords, path, body) VALUES (?, ?, ?, ?, ?)",
            (fid, title, keywords, fpath, body),
        )
        conn.execute(
            "INSERT INTO facts_trigram (rowid, title, keywords, path) VALUES (?, ?, ?, ?)",
            (fid, title, keywords, fpath),
        )
    assert conn.execute("SELECT rowid FROM facts_trigram WHERE facts_trigram MATCH '\"chunk_si\"'").fetchall()
    conn.close()


def trigram_ids(conn, match: str) -> list[int]:
    return [i for i, _ in fts.trigrams(conn, match, fts.Filters(), 10)]


def test_an_old_store_is_converted_in_place_and_finds_titles_and_paths(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    conn = connect(path, create=True)  # a writer migrates
    try:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(facts_trigram)")]
        assert columns == ["title", "path"]
        assert trigram_ids(conn, '"rrf_fu"') == [1]  # inside an identifier of a title
        assert trigram_ids(conn, '"fusio"') == [1]  # inside a path
        assert trigram_ids(conn, '"anki"') == [2]
        assert trigram_ids(conn, '"chunk_si"') == []  # a parameter: keywords left the trigram index…
        assert [i for i, _ in fts.words(conn, "chunk_size", fts.Filters(), 10, (2.0, 1.5, 1.2, 1.0))] == [
            3
        ]  # …not the word index
        conn.execute("INSERT INTO facts_trigram (facts_trigram, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()


def test_the_triggers_keep_the_new_trigram_index_in_step(tmp_path):
    path = tmp_path / "k.db"
    old_store(path)
    conn = connect(path, create=True)
    try:
        conn.execute("UPDATE facts SET title = 'def rank_merge(runs)' WHERE id = 1")
        assert trigram_ids(conn, '"rrf_fu"') == []
        assert trigram_ids(conn, '"rank_mer"') == [1]
        conn.execute("DELETE FROM facts WHERE id = 2")
        assert trigram_ids(conn, '"anki"') == []
        for table in ("facts_trigram", "facts_fts"):  # the index and its content agree
            conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()
