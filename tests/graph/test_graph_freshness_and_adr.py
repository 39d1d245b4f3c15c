from __future__ import annotations

import graph_repo

from conftest import NOW, bump_mtime, resync
from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.decisions import parse_markdown_relations
from kenning.ingest.spans import split as split_spans
from kenning.records import Dates, Fact, FreshnessState, Source
from kenning.store.db import connect


def test_edges_whose_source_changed_since_the_sync_are_reported_stale_with_a_note(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    search = project.root / "src/demo/search.py"
    search.write_text(graph_repo.SEARCH + "\n# edited\n", encoding="utf-8")
    bump_mtime(search)
    answer = cli("graph", "neighbours", "rrf_fuse", "--json", "--project", str(project.root)).json()
    edges = [e for ex in answer["excerpts"] for e in ex["path"]]
    stale = [e for e in edges if e["freshness"] == "stale"]
    assert stale and all(e["source"]["uri"].startswith("src/demo/search.py") for e in stale)
    assert all(e["freshness"] == "current" for e in edges if not e["source"]["uri"].startswith("src/demo/search.py"))
    assert any(n.startswith(f"graph freshness: {len(stale)} edge(s)") for n in answer["notes"])


def test_a_commit_fact_is_current_while_git_finds_it_and_source_missing_otherwise(make_project):
    project = graph_repo.build(make_project)
    resync(project)
    conn = connect(project.db_path)
    try:
        sha = conn.execute("SELECT source_uri FROM facts WHERE type = 'commit' ORDER BY id LIMIT 1").fetchone()[0]
        files = FileCheck(project.root, conn, split_spans)

        def commit_fact(uri: str) -> Fact:
            return Fact(
                1, project.name, "commit", "t", "b", Source("commit", uri, uri), Dates(None, "2026-01-01T00:00:00Z")
            )

        assert freshness_of(commit_fact(sha), now=NOW, files=files).state is FreshnessState.CURRENT
        gone = freshness_of(commit_fact("0" * 40), now=NOW, files=files)
        assert gone.state is FreshnessState.SOURCE_MISSING
    finally:
        conn.close()


def test_madr_bullets_and_nygard_sections_give_status_date_and_supersedes_references():
    madr = "# Use Postgres\n\n* Status: superseded by ADR-0009\n* Date: 2025-05-06\n\nBody.\n"
    chunks, rel = parse_markdown_relations(madr, "decisions/0004-use-postgres.md")
    assert {c.type for c in chunks} == {"decision"}
    assert rel.decision == {
        "name": "ADR-0004",
        "title": "Use Postgres",
        "status": "superseded by ADR-0009",
        "date": "2025-05-06",
    }
    assert [(r.type, r.target, r.reverse) for r in rel.refs if r.type == "supersedes"] == [
        ("supersedes", "ADR-0009", True)
    ]
    nygard = "# 2. Record decisions\n\n## Status\n\nAccepted\n\nSupersedes [the old one](0001-old.md)\n"
    _, rel = parse_markdown_relations(nygard, "docs/adr/0002-record.md")
    assert rel.decision["status"].startswith("Accepted")
    assert [(r.target_kind, r.target, r.reverse) for r in rel.refs if r.type == "supersedes"] == [
        ("file", "docs/adr/0001-old.md", False)
    ]
    plain, rel = parse_markdown_relations("# Notes\n\nSee [guide](../guide.md#install).\n", "docs/notes.md")
    assert rel.decision is None and plain[0].type == "doc"
    assert [(r.type, r.target) for r in rel.refs] == [("links_to", "guide.md")]
