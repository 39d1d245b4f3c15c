"""The sync writes in batches (ids given in Python, one deduplication map): these check that
what lands in the store is what a row-by-row writer would have stored."""

from __future__ import annotations

import os
import zlib

from conftest import bump_mtime, resync
from kenning.ingest import read as sync_module
from kenning.ingest.markdown import parse_markdown
from kenning.ingest.rows import prepare
from kenning.store import bodies
from kenning.store import facts as fact_store
from kenning.store.db import connect

DOC = "# Guide\n\nIntro words.\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall the tool.\n"
CODE = (
    '"""Tools."""\nimport os\n\n\nclass Box:\n    @property\n    def size(self):\n        return 1\n\n'
    "    @size.setter\n    def size(self, value):\n        pass\n\n\n"
    "def run(path):\n    return helper(path) + os.getpid()\n\n\n"
    "def helper(path):\n    return len(path)\n"
)
FILES = {
    "README.md": DOC,
    "copy/README.md": DOC,
    "twice.md": "# Twice\n\n## Notes\n\nsame body\n\n## Notes\n\nsame body\n",
    "src/tools.py": CODE,
    "src/again.py": CODE,
    "docs/adr/0001-use-sqlite.md": (
        "# Use SQLite\n\n* Status: accepted\n\nWe use SQLite, see [guide](../../README.md).\n"
    ),
}


def _tables(project) -> dict[str, list[tuple]]:
    conn = connect(project.db_path)
    try:
        return {
            "facts": conn.execute(
                "SELECT id, type, title, body, keywords, path, source_uri, fingerprint, content_hash, date_source, "
                "lifecycle, superseded_by, tags, meta FROM facts ORDER BY id"
            ).fetchall(),
            "locations": conn.execute("SELECT * FROM locations ORDER BY fact_id, uri").fetchall(),
            "nodes": conn.execute("SELECT * FROM graph_nodes ORDER BY id").fetchall(),
            "refs": conn.execute("SELECT * FROM graph_refs ORDER BY id").fetchall(),
            "edges": conn.execute("SELECT * FROM graph_edges ORDER BY id").fetchall(),
            "fts": conn.execute(
                "SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'installer OR helper' ORDER BY rowid"
            ).fetchall(),
            "trigram": conn.execute(
                "SELECT rowid FROM facts_trigram WHERE facts_trigram MATCH 'elpe' ORDER BY rowid"
            ).fetchall(),
        }
    finally:
        conn.close()


def test_a_sync_parsed_in_a_process_pool_stores_exactly_what_a_serial_sync_stores(make_project, monkeypatch):
    serial, pooled = make_project(FILES, name="serial"), make_project(FILES, name="pooled")
    for project in (serial, pooled):  # the same file dates on both sides
        for rel in FILES:
            os.utime(project.root / rel, ns=(1_767_225_600 * 10**9,) * 2)
    resync(serial)
    monkeypatch.setattr(sync_module, "PARALLEL_FROM", 1)
    report = resync(pooled)
    assert report.added > 0 and report.deduplicated > 0
    pooled_tables = _tables(pooled)
    assert pooled_tables["fts"] and pooled_tables["trigram"] and pooled_tables["edges"]
    assert pooled_tables == _tables(serial)


def test_identical_sections_in_one_file_are_one_excerpt_with_both_locations(make_project):
    project = make_project({"twice.md": FILES["twice.md"]})
    report = resync(project)
    assert report.added == 2 and report.deduplicated == 1
    conn = connect(project.db_path)
    rows = conn.execute("SELECT fact_id, uri FROM locations ORDER BY uri").fetchall()
    conn.close()
    assert [uri for _, uri in rows] == ["twice.md#notes", "twice.md#notes-1", "twice.md#twice"]
    assert rows[0][0] == rows[1][0]


def test_content_copied_into_a_new_file_later_joins_the_existing_excerpt(make_project):
    project = make_project({"README.md": DOC})
    first = resync(project)
    (project.root / "copy.md").write_text(DOC)
    report = resync(project)
    assert report.added == 0 and report.deduplicated == first.added
    conn = connect(project.db_path)
    count = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
    paths = conn.execute("SELECT DISTINCT path FROM locations ORDER BY path").fetchall()
    conn.close()
    assert count == first.added and [p[0] for p in paths] == ["README.md", "copy.md"]


def test_a_moved_file_keeps_its_excerpt_ids_and_points_them_at_the_new_path(make_project):
    project = make_project({"old.md": DOC})
    resync(project)
    before = _tables(project)["facts"]
    (project.root / "old.md").rename(project.root / "new.md")
    report = resync(project)
    assert report.retired == 0 and report.added == 0 and report.deduplicated == len(before)
    after = _tables(project)["facts"]
    assert [row[0] for row in after] == [row[0] for row in before]
    assert {row[5] for row in after} == {"new.md"} and all(row[6].startswith("new.md#") for row in after)
    assert {row[10] for row in after} == {"active"}


def test_new_excerpts_take_the_ids_sqlite_would_give_after_the_highest_one(make_project):
    project = make_project({"README.md": DOC})
    resync(project)
    conn = connect(project.db_path)
    top = conn.execute("SELECT max(id) FROM facts").fetchone()[0]
    conn.close()
    (project.root / "README.md").write_text(DOC + "\n## More\n\nAnother part.\n")
    bump_mtime(project.root / "README.md")
    report = resync(project)
    assert report.added == 1
    conn = connect(project.db_path)
    new_id = conn.execute("SELECT id FROM facts WHERE source_uri = 'README.md#more'").fetchone()[0]
    conn.close()
    assert new_id == top + 1


def test_the_store_version_moves_when_a_sync_writes_facts_and_not_on_a_no_op(make_project):
    project = make_project({"README.md": DOC})

    def version() -> int:
        conn = connect(project.db_path)
        try:
            return conn.execute("SELECT version FROM store_version").fetchone()[0]
        finally:
            conn.close()

    resync(project)
    after_first = version()
    assert after_first > 0
    resync(project)
    assert version() == after_first
    (project.root / "README.md").write_text(DOC.replace("Call the tool.", "Call the new tool."))
    bump_mtime(project.root / "README.md")
    resync(project)
    assert version() > after_first


def test_bodies_packed_in_the_pool_are_stored_as_the_store_would_pack_them(make_project, monkeypatch):
    long_doc = "# Long\n\n" + "\n\n".join(
        f"## Part {n}\n\n" + "Words that repeat and compress well. " * 20 for n in range(5)
    )
    files = {**FILES, "long.md": long_doc}
    in_store, in_pool = make_project(files, name="in-store"), make_project(files, name="in-pool")
    for project in (in_store, in_pool):
        for rel in files:
            os.utime(project.root / rel, ns=(1_767_225_600 * 10**9,) * 2)
    monkeypatch.setattr(sync_module, "PARALLEL_FROM", 1)
    resync(in_pool)
    with monkeypatch.context() as patch:  # the parsers leave the texts plain: `insert_rows` packs them
        patch.setattr(fact_store, "packs_bodies", lambda conn: False)
        resync(in_store)
    tables = _tables(in_pool)
    assert sum(isinstance(row[3], bytes) for row in tables["facts"]) >= 5  # the long sections, deflated
    assert tables == _tables(in_store)


def test_the_parser_packs_a_body_only_when_asked_and_only_when_shorter():
    long_body = "Words that repeat and compress well. " * 20
    chunks = parse_markdown(f"# Long\n\n{long_body}\n\n## B\n\nxy\n", "long.md")
    packed = prepare(chunks, "long.md", 0, pack=True)
    assert packed[0].packed == bodies.pack(chunks[0].keywords, chunks[0].body)[1]
    assert zlib.decompress(packed[0].packed, wbits=-15) == f"{chunks[0].keywords}\0{chunks[0].body}".encode()
    assert long_body.strip() in chunks[0].body
    assert packed[1].packed is None  # "## B xy": deflating would make it longer
    assert all(row.packed is None for row in prepare(chunks, "long.md", 0))


def test_the_graph_gets_each_files_places_as_the_store_holds_them(make_project, monkeypatch):
    """The writer hands the graph the places it just wrote instead of the graph reading them
    back: in every batch (a cold sync, then edits that keep, move, duplicate and drop excerpts)
    they are what ``sources.facts_located_in`` reads from the store at that point."""
    from kenning.graph import build as graph_build
    from kenning.store import sources
    from kenning.sync import batches

    real_apply, checked = graph_build.apply, []

    def checking(conn, project, files, removed, todo, **kwargs):  # noqa: ANN001, ANN003, ANN202
        stored = sources.facts_located_in(conn, [path for path, _, _ in files])
        assert kwargs["located"] == stored
        checked.append(len(stored))
        return real_apply(conn, project, files, removed, todo, **kwargs)

    monkeypatch.setattr(batches.graph_build, "apply", checking)
    project = make_project(FILES)
    resync(project)
    root = project.root
    (root / "README.md").write_text(
        DOC.replace("Call the tool.", "Call the tool twice.") + "\n## More\n\nIntro words.\n"
    )
    (root / "twice.md").write_text(
        "# Twice\n\n## Notes\n\nsame body\n\n## Notes\n\nsame body\n\n## Notes\n\nsame body\n"
    )
    (root / "src/again.py").write_text(CODE.replace("return 1", "return 2"))
    os.remove(root / "copy/README.md")
    for path in ("README.md", "twice.md", "src/again.py"):
        bump_mtime(root / path)
    resync(project)
    assert len(checked) >= 2 and sum(checked) > len(FILES)
