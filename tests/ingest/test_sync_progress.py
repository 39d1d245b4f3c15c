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


def test_a_sync_writes_its_first_batch_before_the_last_file_is_read(make_project):
    """Parsing and writing overlap: a batch is written as soon as its files are parsed, so the
    parsed files are never all held at once (and the pool goes on parsing meanwhile)."""
    project = make_project({f"docs/n{i:03d}.md": f"# Note {i}\n\nText {i}.\n" for i in range(150)})
    seen: list[tuple[str, int, int]] = []
    report = sync(project, now=NOW, progress=lambda phase, done, total: seen.append((phase, done, total)))
    first_write = next(i for i, step in enumerate(seen) if step[0] == "writing")
    last_read = seen.index(("reading", 150, 150))
    assert first_write < last_read
    assert seen[first_write - 1][0] == "reading" and seen[first_write - 1][1] < 150
    assert report.batches >= 2 and report.added == 150
    assert [s for s in seen if s[0] == "writing"][-1] == ("writing", 150, 150)
