"""A sync reports its progress by phase, so a long one never looks stuck: files read, files
written, then the index, the graph and the commit."""

from __future__ import annotations

import gc
import multiprocessing
import sqlite3
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest

from conftest import NOW
from kenning.errors import StoreBusy
from kenning.ingest import read
from kenning.ingest.discover import discover
from kenning.store import db
from kenning.sync import batches, changes, run
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
        for parsed in read._in_pool(pool, read._Ahead(jobs, 2, pool)):
            assert sum(submitted) - len(taken) <= 4 + 1  # 2 workers x 2 chunks, or 3 files' bytes, + this one
            taken.append(parsed.candidate.path)
    assert taken == [c.path for c in cands] and len(taken) == 40


def _dump(project) -> list[tuple]:  # noqa: ANN001
    conn = sqlite3.connect(project.db_path)
    try:
        facts = conn.execute("SELECT id, title, body, source_uri, content_hash FROM facts ORDER BY id").fetchall()
        words = conn.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'text' ORDER BY rowid").fetchall()
        runs = conn.execute("SELECT count(*) FROM sync_runs").fetchall()
        return [*facts, *words, *runs]
    finally:
        conn.close()


def _one_file_a_slice(monkeypatch, files: int) -> list[tuple[int, int]]:  # noqa: ANN001
    """A pool never ahead of the writer (a file is ready once the writer took the one before,
    all of them once it took the last of ``files``): one file a slice. Returns the list where
    each slice written is recorded as (the batch it belongs to, its items)."""
    real_read_all, real_slice = run.read_all, batches._write_slice
    slices: list[tuple[int, int]] = []

    def never_ahead(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        items = real_read_all(*args, **kwargs)
        taken = []

        def counted():  # noqa: ANN202
            for item in items:
                taken.append(item)
                yield item

        return read.Reading(counted(), lambda: len(taken) == files)

    def write_slice(conn, report, manifest, batch, taken, *rest):  # noqa: ANN001, ANN002, ANN202
        slices.append((report.batches, len(taken)))
        return real_slice(conn, report, manifest, batch, taken, *rest)

    monkeypatch.setattr(run, "read_all", never_ahead)  # a first sync's reading
    monkeypatch.setattr(changes, "read_all", never_ahead)  # any other sync's
    monkeypatch.setattr(batches, "_write_slice", write_slice)
    return slices


def test_a_batch_writes_what_is_parsed_and_goes_on_with_what_the_pool_parses_meanwhile(make_project, monkeypatch):
    """The writer never waits for a whole batch before writing: a transaction begins with the
    files parsed already and writes the next ones as the pool hands them over (here a pool never
    ahead of the writer: one file a slice), until the batch holds its bytes (doubled at each
    batch: 1, 2, 4 … 512 bytes here, 270 a file). What is stored is the same."""
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\nText {i}. " + "word " * 50 for i in range(12)}
    whole = make_project(files, name="whole")
    assert sync(whole, now=NOW).batches == 1
    monkeypatch.setattr(batches, "BATCH_FIRST_BYTES", 1)
    monkeypatch.setattr(batches, "BATCH_FIRST_SHARE", 10**9)
    monkeypatch.setattr(batches, "BATCH_FIRST_SHARE_NEW_STORE", 10**9)
    slices = _one_file_a_slice(monkeypatch, 12)
    cut = make_project(files, name="cut")
    report = sync(cut, now=NOW)
    assert [files for _, files in slices] == [1] * 12
    # nine batches of one file (its 270 bytes reach 1 … 256), a tenth of two (512), the last one
    assert list(Counter(batch for batch, _ in slices).values()) == [1] * 9 + [2, 1] and report.batches == 11
    assert report.added == 12 and _dump(cut) == _dump(whole)


def test_a_store_created_by_its_sync_takes_a_small_tree_in_one_batch_with_the_same_rows(make_project, monkeypatch):
    """A new store has nobody's data to keep waiting: its first batch may hold all the input's
    bytes (here 30 files, 1 MB, one batch), where a store that holds files already starts at
    a sixteenth of it and doubles (256 kB, 512 kB, then the rest: three batches). What is
    stored is the same. (A pool never ahead of the writer: one file a slice.)"""
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\nText {i}. " + f"word{i} " * 5000 for i in range(30)}
    _one_file_a_slice(monkeypatch, 30)
    fresh = make_project(files, name="fresh")
    assert sync(fresh, now=NOW).batches == 1
    grown = make_project({"docs/first.md": "# First\n\nText.\n"}, name="grown")
    with monkeypatch.context() as m:
        m.setattr(run, "read_all", read.read_all)
        m.setattr(changes, "read_all", read.read_all)
        sync(grown, now=NOW)
    for path, text in files.items():
        (grown.root / path).write_text(text, encoding="utf-8")
    assert sync(grown, now=NOW).batches == 3
    monkeypatch.setattr(batches, "BATCH_FIRST_SHARE_NEW_STORE", batches.BATCH_FIRST_SHARE)
    doubling = make_project(files, name="doubling")
    assert sync(doubling, now=NOW).batches == 3
    assert _dump(fresh) == _dump(doubling)


def test_a_writer_waiting_for_the_lock_ends_the_batch_at_the_next_slice(make_project, monkeypatch):
    """Another process waiting for the write lock (a memory save) does not wait for the whole
    batch: the sync commits after the slice it is writing and lets it in. Here the waiter
    flags itself while the third slice is written; the batch, which could hold every file,
    ends there. What is stored is the same."""
    files = {f"docs/n{i:02d}.md": f"# Note {i}\n\nText {i}. " + "word " * 50 for i in range(8)}
    whole = make_project(files, name="whole")
    assert sync(whole, now=NOW).batches == 1
    slices = _one_file_a_slice(monkeypatch, 8)
    monkeypatch.setattr(batches, "waiting_writer_check", lambda conn: lambda: len(slices) == 3)
    cut = make_project(files, name="cut")
    report = sync(cut, now=NOW)
    assert [batch for batch, _ in slices] == [1, 1, 1, 2, 2, 2, 2, 2] and report.batches == 2
    assert _dump(cut) == _dump(whole)
    # A batch open BATCH_WALL_SECONDS takes no more slices, whoever waits: here at once.
    slices.clear()
    monkeypatch.setattr(batches, "waiting_writer_check", lambda conn: lambda: False)
    monkeypatch.setattr(batches, "BATCH_WALL_SECONDS", 0.0)
    again = make_project(files, name="again")
    assert sync(again, now=NOW).batches == 8 and [batch for batch, _ in slices] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert _dump(again) == _dump(whole)


def test_the_pool_hands_over_chunks_bounded_in_bytes_and_says_when_a_file_is_ready(make_project, monkeypatch):
    """A chunk of large files no longer keeps the writer waiting for all of them: a task holds
    at most CHUNK files and CHUNK_BYTES of input (one larger file alone)."""
    project = make_project(
        {f"docs/n{i:02d}.md": f"# Note {i}\n\n" + "word " * (60 if i != 3 else 400) for i in range(9)}
    )
    cands = discover(project).candidates
    monkeypatch.setattr(read, "CHUNK_BYTES", 3 * cands[0].size)
    jobs = [(c, None, False) for c in cands]
    assert [len(chunk) for chunk in read._chunks(jobs)] == [3, 1, 3, 2]
    taken = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        ahead = read._Ahead(jobs, 2, pool)
        assert not ahead.ready()  # nothing handed to the pool yet
        for parsed in read._in_pool(pool, ahead):
            taken.append(parsed.candidate.path)
            while not ahead.ready():  # the next chunk is parsing
                time.sleep(0.001)
    assert taken == [c.path for c in cands] and ahead.ready()


def test_a_first_sync_starts_its_pool_before_it_creates_the_store(make_project, monkeypatch):
    """No store yet, nothing known: the pool parses while the store is created and migrated
    (the pool's first files handed over before ``open_store``); what is stored is the same as
    when the reading starts after it. A store that exists is opened first, as always."""
    files = {f"docs/n{i:03d}.md": f"# Note {i}\n\nText {i}. " + "word " * 20 for i in range(read.PARALLEL_FROM + 10)}
    late = make_project(files, name="late")
    real_first = run._first_reading
    monkeypatch.setattr(run, "_first_reading", lambda project, progress: None)
    sync(late, now=NOW)
    monkeypatch.setattr(run, "_first_reading", real_first)
    order: list[str] = []
    real_start, real_open = read.Reading.start, db.open_store

    def start(self):  # noqa: ANN001, ANN202
        order.append("pool started")
        return real_start(self)

    def open_store(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        order.append("store opened")
        return real_open(*args, **kwargs)

    monkeypatch.setattr(read.Reading, "start", start)
    monkeypatch.setattr(db, "open_store", open_store)
    early = make_project(files, name="early")
    report = sync(early, now=NOW)
    assert order == ["pool started", "store opened"] and report.added == len(files)
    assert _dump(early) == _dump(late)
    order.clear()
    (early.root / "docs/n000.md").write_text("# Note 0\n\nChanged.\n")
    assert sync(early, now=NOW).files_changed == 1 and order == ["store opened"]


def test_a_first_sync_that_cannot_open_its_store_stops_its_pool(make_project, monkeypatch):
    """The pool started before the store is stopped when creating the store fails (the files
    not begun are not parsed), and the cycle collector paused for the sync runs again."""
    files = {f"docs/n{i:03d}.md": f"# Note {i}\n\n" + "word " * 20 for i in range(read.PARALLEL_FROM + 10)}
    project = make_project(files)
    started: list[read.Reading] = []
    real_start = read.Reading.start

    def start(self):  # noqa: ANN001, ANN202
        started.append(self)
        return real_start(self)

    def busy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise StoreBusy("the project store is busy", hint="retry")

    monkeypatch.setattr(read.Reading, "start", start)
    monkeypatch.setattr(db, "open_store", busy)
    with pytest.raises(StoreBusy):
        sync(project, now=NOW)
    assert len(started) == 1 and gc.isenabled()
    assert not multiprocessing.active_children()
