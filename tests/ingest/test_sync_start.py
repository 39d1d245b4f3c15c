"""A first sync's start-up: its pool starts before the process imports the writing half, and
the pool's workers import their parsers themselves and yield the CPU to the writer.

What each process imports is checked in a fresh interpreter (this one has imported
everything already); what is stored is compared between pooled and serial syncs elsewhere
(test_sync_batch_writes, test_sync_progress)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from kenning.ingest import read
from kenning.ingest.discover import discover

# Run in a fresh interpreter: a first sync of PROJECT, noting what it has imported when its
# pool starts and once it is done.
_SCRIPT = """
import json, sys
from datetime import UTC, datetime
from pathlib import Path
from kenning.config import load_project
from kenning.ingest import read

seen = {}
real_start = read.Reading.start

def start(self):
    seen["pool"] = sorted(sys.modules)
    return real_start(self)

read.Reading.start = start
from kenning.sync.run import sync

report = sync(load_project(Path(sys.argv[1])), now=datetime(2026, 11, 29, tzinfo=UTC), embed=False)
print(json.dumps({"pool": seen["pool"], "end": sorted(sys.modules), "added": report.added}))
"""

# The writing half (the store, the graph, the batches), the parsers and the ignore rules.
_NOT_BEFORE_THE_POOL = (
    "kenning.store.db",
    "kenning.store.facts",
    "kenning.graph.build",
    "kenning.sync.batches",
    "kenning.ingest.decisions",
    "kenning.ingest.markdown",
    "kenning.ingest.markdown_blocks",
    "markdown_it_pyrs",
    "markdown_it",
    "yaml",
    "pathspec",
)


def _first_sync_modules(root: Path) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(root)], capture_output=True, text=True, check=True, env=os.environ
    ).stdout
    return json.loads(out)


def test_a_first_sync_starts_its_pool_before_importing_its_writing_half_and_its_parsers(make_project):
    files = {f"docs/n{i:03d}.md": f"# Note {i}\n\nText {i}. " + "word " * 20 for i in range(read.PARALLEL_FROM + 10)}
    project = make_project(files)
    seen = _first_sync_modules(project.root)
    assert seen["added"] == len(files)
    assert [m for m in _NOT_BEFORE_THE_POOL if m in seen["pool"]] == []
    assert "kenning.store.db" in seen["end"] and "kenning.graph.build" in seen["end"]
    # The pool's workers parsed every file: the process that wrote them never imported a parser.
    parsers = ("kenning.ingest.markdown", "kenning.ingest.markdown_blocks", "markdown_it_pyrs", "markdown_it", "yaml")
    assert [m for m in parsers if m in seen["end"]] == []


# A resync of one edited file, in a fresh interpreter: the modules it imported.
_RESYNC = """
import json, sys
from datetime import UTC, datetime
from pathlib import Path
from kenning.config import load_project
from kenning.sync.run import sync

report = sync(load_project(Path(sys.argv[1])), now=datetime(2026, 11, 30, tzinfo=UTC), embed=False)
print(json.dumps({"modules": sorted(sys.modules), "replaced": report.replaced}))
"""


def test_a_resync_of_one_edited_file_loads_no_pool_and_no_yaml_it_does_not_need(make_project):
    # A process pool (multiprocessing, and concurrent.futures' logging) and PyYAML cost start-up
    # time that a resync of one file without front matter, parsed in process, does not need:
    # an edit's resync is most of its start-up (issue 19's one-edit figure against qmd).
    project = make_project({"docs/a.md": "# A\n\nText.\n", "docs/b.md": "---\ntitle: B\n---\n# B\n\nMore.\n"})
    from kenning.sync.run import sync

    sync(project, now=datetime(2026, 11, 29, tzinfo=UTC), embed=False)
    (project.root / "docs/a.md").write_text("# A\n\nText, edited.\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _RESYNC, str(project.root)], capture_output=True, text=True, check=True, env=os.environ
    ).stdout
    seen = json.loads(out)
    assert seen["replaced"] == 1
    unneeded = ("multiprocessing", "concurrent.futures.process", "logging", "yaml")
    assert [m for m in unneeded if m in seen["modules"]] == []


def test_a_sync_with_nothing_to_write_imports_nothing_of_the_writing_half(make_project):
    """``sync.plan`` ends a sync that finds nothing to do before ``sync.changes`` (the store's
    writers, the graph's build and resolution, the batches) is imported: a hook's `kenning sync`
    at every prompt (docs/benchmarks.md, "idlesync"); one with an edit imports it."""
    project = make_project({"docs/a.md": "# A\n\nText.\n", "src/app.py": "def main():\n    return 1\n"})
    from kenning.sync.run import sync

    sync(project, now=datetime(2026, 11, 29, tzinfo=UTC), embed=False)

    def resync_modules() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", _RESYNC, str(project.root)],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        ).stdout
        return json.loads(out)["modules"]

    writing = ("kenning.sync.changes", "kenning.sync.batches", "kenning.graph.build", "kenning.graph.resolve")
    idle = resync_modules()
    assert [m for m in writing if m in idle] == []
    (project.root / "docs/a.md").write_text("# A\n\nText, edited.\n", encoding="utf-8")
    edited = resync_modules()
    assert [m for m in writing if m in edited] == list(writing)


def test_a_gitignore_still_keeps_its_files_out_when_the_ignore_rules_load_on_first_use(make_project):
    files = {f"docs/n{i:03d}.md": f"# Note {i}\n\nText {i}.\n" for i in range(read.PARALLEL_FROM + 10)}
    project = make_project({**files, ".gitignore": "docs/n00*.md\n"})
    seen = _first_sync_modules(project.root)
    assert seen["added"] == len(files) - 10 and "pathspec" in seen["end"]


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


def test_a_pool_worker_yields_the_cpu_to_the_process_that_writes():
    with ProcessPoolExecutor(max_workers=1, initializer=read._worker_start, initargs=(os.getpid(), ())) as pool:
        worker = pool.submit(_priority).result()
    assert worker == min(19, _priority() + read.WORKER_NICENESS)


def _sigint_handler() -> object:
    return signal.getsignal(signal.SIGINT)


def test_a_pool_worker_leaves_ctrl_c_to_the_sync():
    """Ctrl-C reaches the terminal's whole process group: the sync stops its pool; a worker idle
    in it (waiting for a helper's work) would otherwise die printing a traceback."""
    with ProcessPoolExecutor(max_workers=1, initializer=read._worker_start, initargs=(os.getpid(), ())) as pool:
        assert pool.submit(_sigint_handler).result() == signal.SIG_IGN


def test_a_reading_that_keeps_its_pool_takes_other_work_once_its_files_are_read(make_project, monkeypatch):
    monkeypatch.setattr(read, "PARALLEL_FROM", 2)
    project = make_project({f"docs/n{i}.md": f"# Note {i}\n\nText {i}.\n" for i in range(6)})
    candidates = discover(project).candidates
    reading = read.read_all(candidates, {}, None, helpers=True).start()
    try:
        assert reading.offload is not None
        assert reading.offload(os.getpid) is None  # files still to read: the pool is theirs
        assert len(list(reading)) == len(candidates) == 6
        future = reading.offload(os.getpid)
        assert future is not None and future.result() != os.getpid()  # in a worker, after the last file
    finally:
        reading.close()
    assert reading.offload(os.getpid) is None  # closed: nothing more
    plain = read.read_all(candidates, {}, None)
    assert plain.offload is None  # a reading that does not keep its pool offers none
    assert len(list(plain)) == 6
