"""A sync reports its progress by phase, so a long one never looks stuck: files read, files
written, then the index, the graph and the commit."""

from __future__ import annotations

from conftest import NOW
from kenning.sync.run import sync


def test_a_sync_reports_reading_writing_then_each_final_step(make_project):
    project = make_project({f"docs/n{i}.md": f"# Note {i}\n\nText {i}.\n" for i in range(3)})
    seen: list[tuple[str, int, int]] = []
    sync(project, now=NOW, progress=lambda phase, done, total: seen.append((phase, done, total)))
    phases = list(dict.fromkeys(phase for phase, _, _ in seen))
    assert phases == ["reading", "writing", "indexing", "graph", "committing"]
    assert [s for s in seen if s[0] == "reading"][-1] == ("reading", 3, 3)
    assert [s for s in seen if s[0] == "writing"][-1] == ("writing", 3, 3)


def test_a_sync_with_nothing_to_do_reports_nothing(make_project):
    project = make_project({"docs/a.md": "# A\n"})
    sync(project, now=NOW)
    seen: list[tuple[str, int, int]] = []
    sync(project, now=NOW, progress=lambda phase, done, total: seen.append((phase, done, total)))
    assert seen == []
