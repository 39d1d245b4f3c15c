"""A sync reports its progress by phase, so a long one never looks stuck: files read, files
written, then the index, the graph and the commit."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from conftest import NOW
from kenning.ingest import read
from kenning.ingest.discover import discover
from kenning.sync import batches
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


def test_a_batch_stops_at_its_bytes_whatever_its_size_in_files(make_project, monkeypatch):
    """The bytes a batch holds bound the sync's memory, however fast the writer (which sizes
    batches in files) became: here every file is larger than the bound, one batch each."""
    project = make_project({f"docs/n{i}.md": f"# Note {i}\n\n" + f"Text {i}. " * 40 for i in range(5)})
    monkeypatch.setattr(batches, "BATCH_BYTES", 300)
    report = sync(project, now=NOW)
    assert report.added == 5 and report.batches == 5
    monkeypatch.setattr(batches, "BATCH_BYTES", 10_000)
    other = make_project({f"docs/n{i}.md": f"# Note {i}\n\n" + f"Text {i}. " * 40 for i in range(5)}, name="other")
    assert sync(other, now=NOW).batches == 1


def test_the_pool_parses_at_most_a_bounded_input_ahead_of_the_writer(make_project, monkeypatch):
    """Files come back in order, and the pool is never handed more than AHEAD_BYTES (plus the
    two chunks per worker it always has) beyond what the writer took."""
    project = make_project({f"docs/n{i:02d}.md": f"# Note {i}\n\n" + "word " * 60 for i in range(40)})
    cands = discover(project).candidates
    monkeypatch.setattr(read, "CHUNK", 1)
    monkeypatch.setattr(read, "AHEAD_BYTES", 3 * cands[0].size)
    submitted: list[int] = []

    class CountingPool(ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # noqa: ANN001, ANN202
            submitted.append(len(args[0]))
            return super().submit(fn, *args, **kwargs)

    taken = []
    jobs = [(c, None, False) for c in cands]
    with CountingPool(max_workers=2) as pool:
        for parsed in read._in_pool(pool, 2, jobs):
            assert sum(submitted) - len(taken) <= 4 + 1  # 2 workers x 2 chunks, or 3 files' bytes, + this one
            taken.append(parsed.candidate.path)
    assert taken == [c.path for c in cands] and len(taken) == 40
