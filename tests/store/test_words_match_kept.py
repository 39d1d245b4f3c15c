"""``fts.words_match`` (whether the word index can match an identifier-like term at all, asked
for ``p53``, ``IL-6``… in natural questions) is kept per store state: asked again between two
writes, the index is not searched again; after a write that changes the answer, the new answer."""

from __future__ import annotations

from conftest import resync
from kenning.store import fts
from kenning.store.db import connect


def matches_run(conn, work) -> tuple[object, int]:
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        result = work()
    finally:
        conn.set_trace_callback(None)
    return result, sum("MATCH" in s for s in seen)


def test_a_term_is_searched_once_between_two_writes(make_project):
    project = make_project({"docs/a.md": "# Cells\n\nThe p53 pathway and IL-6 signalling.\n"})
    resync(project)
    conn = connect(project.db_path)
    try:
        assert matches_run(conn, lambda: fts.words_match(conn, '"il-6"')) == (True, 1)
        assert matches_run(conn, lambda: fts.words_match(conn, '"il-6"')) == (True, 0)
        assert matches_run(conn, lambda: fts.words_match(conn, '"tnf-a"')) == (False, 1)
        assert matches_run(conn, lambda: fts.words_match(conn, '"tnf-a"')) == (False, 0)
        (project.root / "docs" / "b.md").write_text("# Tumours\n\nTNF-a levels rise.\n", encoding="utf-8")
        resync(project)
        assert matches_run(conn, lambda: fts.words_match(conn, '"tnf-a"')) == (True, 1)
        assert matches_run(conn, lambda: fts.words_match(conn, '"tnf-a"')) == (True, 0)
    finally:
        conn.close()


def test_a_count_kept_answers_every_cap_it_decides(make_project):
    # words_held counts up to a cap; a count kept answers a smaller cap, and a larger one when the
    # count fell under its own cap (exact); a larger cap over a capped count counts again
    pages = {f"docs/p{n}.md": f"# Page {n}\n\nThe freshness of page {n}.\n" for n in range(5)}
    project = make_project({**pages, "docs/one.md": "# One\n\nA fraîcheur quoted once.\n"})
    resync(project)
    conn = connect(project.db_path)
    try:
        assert matches_run(conn, lambda: fts.words_held(conn, '"freshness"', 3)) == (3, 1)
        assert matches_run(conn, lambda: fts.words_held(conn, '"freshness"', 2)) == (2, 0)
        assert matches_run(conn, lambda: fts.words_match(conn, '"freshness"')) == (True, 0)
        assert matches_run(conn, lambda: fts.words_held(conn, '"freshness"', 40)) == (5, 1)  # 3 was a cap
        assert matches_run(conn, lambda: fts.words_held(conn, '"freshness"', 400)) == (5, 0)  # 5 < 40: exact
        assert matches_run(conn, lambda: fts.words_held(conn, '"fraicheur"', 33)) == (1, 1)
        assert matches_run(conn, lambda: fts.words_match(conn, '"fraicheur"')) == (True, 0)
    finally:
        conn.close()
