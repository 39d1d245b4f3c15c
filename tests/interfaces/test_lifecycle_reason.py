"""Why an excerpt is no longer active, where a reader sees it: ``kenning get`` says it after the
lifecycle and the fact's JSON carries it (``lifecycle_reason``). A sync that replaces an excerpt
of a file whose bytes changed says ``source changed``; one whose bytes are the same, read again
by another parser (a new version), says ``read again by another parser``."""

from __future__ import annotations

import dataclasses
import sqlite3

from conftest import bump_mtime, resync
from kenning.ingest import read
from kenning.records import Replaced
from kenning.store.db import open_store

NOTE = "# Router\n\nThe router picks the mode.\n"


def _superseded(project) -> list[tuple[int, str]]:  # noqa: ANN001
    conn = open_store(project)
    try:
        return [
            (row[0], row[1])
            for row in conn.execute(
                "SELECT id, lifecycle_reason FROM facts WHERE lifecycle = 'superseded' ORDER BY id"
            ).fetchall()
        ]
    finally:
        conn.close()


def test_get_says_why_an_excerpt_of_a_changed_file_was_replaced(make_project, cli):
    project = make_project({"docs/router.md": NOTE})
    resync(project)
    path = project.root / "docs" / "router.md"
    path.write_text("# Router\n\nThe router picks a mode per question.\n", encoding="utf-8")
    bump_mtime(path)
    resync(project)

    [(old, reason)] = _superseded(project)
    assert reason == Replaced.SOURCE_CHANGED.value
    shown = cli("get", str(old), "--project", str(project.root))
    assert shown.code == 0, shown.err
    assert f"lifecycle: superseded by #{old + 1} (source changed)" in shown.out, shown.out
    [as_json] = cli("get", str(old), "--project", str(project.root), "--json").json()["facts"]
    assert as_json["lifecycle_reason"] == "source changed"

    [active] = cli("get", str(old + 1), "--project", str(project.root), "--json").json()["facts"]
    assert active["lifecycle"] == "active" and active["lifecycle_reason"] is None


def test_the_same_bytes_read_by_a_new_parser_version_say_so(make_project, monkeypatch):
    project = make_project({"docs/router.md": NOTE})
    resync(project)
    conn = sqlite3.connect(project.db_path)
    with conn:  # as a store a previous kenning indexed with an older Markdown parser
        conn.execute("UPDATE manifest SET parser = 'markdown/0' WHERE path = 'docs/router.md'")
    conn.close()
    real = read.load_relations

    def newer(name: str):  # noqa: ANN202 - the new version cuts the same file another way
        parse = real(name)

        def parsed(text: str, path: str):  # noqa: ANN202
            chunks, relations = parse(text, path)
            return [dataclasses.replace(c, body=c.body + " (v2)") for c in chunks], relations

        return parsed

    monkeypatch.setattr(read, "load_relations", newer)
    report = resync(project)

    assert report.files_changed == 1 and report.replaced == 1
    assert [reason for _, reason in _superseded(project)] == [Replaced.PARSER_CHANGED.value]
