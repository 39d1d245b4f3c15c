"""Migration 0021: both full-text indexes merge at eight segments of a level (FTS5's default is
four), and a store synced after it still answers through them."""

from __future__ import annotations

from conftest import resync
from kenning.store.db import connect


def _automerge(conn, table: str) -> int | None:
    row = conn.execute(f"SELECT v FROM {table}_config WHERE k = 'automerge'").fetchone()
    return None if row is None else int(row[0])


def test_a_new_store_merges_its_indexes_at_eight_segments(tmp_path):
    conn = connect(tmp_path / "k.db", create=True)
    try:
        assert _automerge(conn, "facts_fts") == 8
        assert _automerge(conn, "facts_trigram") == 8
    finally:
        conn.close()


def test_a_synced_store_answers_words_and_substrings_and_passes_the_integrity_check(make_project):
    docs = {
        f"docs/page{n}.md": f"# Page {n}\n\n## Backpressure {n}\n\nStreams pause at highWaterMark.\n" for n in range(40)
    }
    project = make_project(docs)
    resync(project)
    conn = connect(project.db_path)
    try:
        for table in ("facts_fts", "facts_trigram"):
            conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")
        words = conn.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH 'highwatermark'").fetchone()[0]
        grams = conn.execute("SELECT count(*) FROM facts_trigram WHERE facts_trigram MATCH 'ckpress'").fetchone()[0]
        assert words == 40 and grams == 40
    finally:
        conn.close()
