"""Files skipped for their bytes (``binary``, ``minified``) are remembered (migration 0027): while
their size, mtime and parser hold, a sync counts them skipped again without opening them, as it
leaves unchanged indexed files unread; its report is the same as when it read them."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from conftest import bump_mtime, resync
from kenning.ingest.discover import SKIPPED_NAMED, note_skip
from kenning.store import sources
from kenning.store.db import open_store
from store.pg_engine import ENGINE as POSTGRESQL  # tests/store: the PostgreSQL test server
from store.pg_engine import engine_config

BUNDLE = "function e(e){let n=e.a;return n}" * 200 + "\n"  # one long line: minified
READABLE = "export function start() {\n  return 1;\n}\n"


ENGINES = ("sqlite", POSTGRESQL)


def _remembered(project) -> dict[str, tuple[int, int, str, str]]:
    conn = open_store(project)
    try:
        return {path: tuple(row[1:]) for path, row in sources.skipped_files(conn).items()}
    finally:
        conn.close()


def _indexed(project) -> set[str]:
    conn = open_store(project)
    try:
        return set(sources.manifest(conn))
    finally:
        conn.close()


def _same_size_and_mtime(path: Path, text: str) -> None:
    """New bytes of the same length, the mtime put back: what the manifest cannot tell apart either."""
    st = path.stat()
    assert len(text.encode()) == st.st_size
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_skipped_for_its_bytes_is_not_read_again_while_its_size_and_mtime_hold(make_project, engine):
    project = make_project(
        {
            "ui/dist/app.js": BUNDLE,
            "docs/logo.md": b"\x89PNG\r\n\x1a\n\x00\x00",
            "ui/src/start.js": READABLE,
        },
        config=engine_config(engine, "skipped"),
    )
    first = resync(project)
    assert (first.skipped["minified"], first.skipped["binary"], first.indexed) == (1, 1, 1)
    remembered = _remembered(project)
    reasons = {path: row[3] for path, row in remembered.items()}
    assert reasons == {"ui/dist/app.js": "minified", "docs/logo.md": "binary"}
    bundle = project.root / "ui/dist/app.js"
    assert remembered["ui/dist/app.js"][:2] == (bundle.stat().st_size, bundle.stat().st_mtime_ns)

    # Readable code now, of the same size and mtime: not opened, so still skipped as minified.
    _same_size_and_mtime(bundle, (READABLE * len(BUNDLE))[: len(BUNDLE)])
    second = resync(project)
    assert (second.skipped["minified"], second.skipped["binary"], second.indexed) == (1, 1, 1)
    assert second.eligible == first.eligible == 1
    assert second.skipped_paths == first.skipped_paths
    assert second.writes == 0

    bump_mtime(bundle)  # its mtime moved: read again, indexed, forgotten
    third = resync(project)
    assert third.skipped["minified"] == 0 and third.files_new == 1
    assert "ui/dist/app.js" in _indexed(project)
    assert set(_remembered(project)) == {"docs/logo.md"}


def test_a_resync_with_skipped_files_unchanged_leaves_the_store_byte_identical(make_project):
    project = make_project({"ui/dist/app.js": BUNDLE, "ui/src/start.js": READABLE})
    resync(project)
    before = hashlib.sha256(project.db_path.read_bytes()).hexdigest()
    again = resync(project)
    assert again.writes == 0 and again.skipped["minified"] == 1
    assert hashlib.sha256(project.db_path.read_bytes()).hexdigest() == before


def test_an_indexed_file_turned_into_a_bundle_is_retired_then_remembered(make_project):
    project = make_project({"ui/src/start.js": READABLE * 60, "README.md": "# App\n\nWords.\n"})
    resync(project)
    start = project.root / "ui/src/start.js"
    start.write_text(BUNDLE, encoding="utf-8")
    bump_mtime(start)
    built = resync(project)
    assert built.files_removed == 1 and built.skipped["minified"] == 1
    assert "ui/src/start.js" not in _indexed(project)
    assert _remembered(project)["ui/src/start.js"][3] == "minified"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deleted_or_edited_skipped_file_is_forgotten(make_project, engine):
    project = make_project(
        {"a.min.js": "x", "b.min.js": "y", "README.md": "# App\n\nWords.\n"}, config=engine_config(engine, "forgotten")
    )
    resync(project)
    assert set(_remembered(project)) == {"a.min.js", "b.min.js"}
    (project.root / "a.min.js").unlink()
    gone = resync(project)  # nothing else to do: the no-op sync forgets it all the same
    assert gone.skipped["minified"] == 1 and gone.files_removed == 0
    assert set(_remembered(project)) == {"b.min.js"}
    (project.root / "b.min.js").rename(project.root / "b.js")  # read under its new name, indexed
    resync(project)
    assert _remembered(project) == {}
    assert "b.js" in _indexed(project)


def test_a_file_skipped_for_what_lies_outside_its_bytes_is_read_again(make_project):
    """``compiled`` depends on its source map and on the source it names, ``parse_error`` may come
    from a lack of memory: not remembered."""
    project = make_project(
        {
            "styles/site.scss": "$blue: #00f;\nbody { color: $blue; }\n",
            "dist/site.css": "body { color: #00f; }\n/*# sourceMappingURL=site.css.map */\n",
            "dist/site.css.map": json.dumps({"version": 3, "sources": ["../styles/site.scss"]}),
        }
    )
    assert resync(project).skipped["compiled"] == 1
    assert _remembered(project) == {}
    (project.root / "styles/site.scss").unlink()  # its source gone: the CSS is the project's own now
    again = resync(project)
    assert again.skipped["compiled"] == 0
    assert "dist/site.css" in _indexed(project)


def test_the_skipped_files_named_are_the_first_in_path_order_whatever_order_they_come_in():
    """A sync names the files it skips unread (remembered) before those it skips once read."""
    skipped, named = Counter(), {}
    paths = [f"f{n:03d}.min.js" for n in range(SKIPPED_NAMED + 5)]
    for path in reversed(paths):
        note_skip(skipped, named, "minified", path)
    assert skipped["minified"] == len(paths)
    assert named["minified"] == paths[:SKIPPED_NAMED]
