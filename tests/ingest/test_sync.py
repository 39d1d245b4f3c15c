from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import bump_mtime, resync
from kenning.ingest.parsers import SCRIPT_PARSER
from kenning.store.db import connect, open_store

DOC = "# Guide\n\nIntro words.\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall the tool.\n"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _active(project, sql_where: str = "1=1") -> list[tuple]:
    conn = connect(project.db_path)
    try:
        return conn.execute(
            f"SELECT id, title, source_uri, lifecycle, superseded_by FROM facts WHERE {sql_where} ORDER BY id"
        ).fetchall()
    finally:
        conn.close()


def test_a_resync_with_nothing_changed_writes_nothing_and_leaves_the_database_byte_identical(make_project):
    project = make_project({"README.md": DOC, "src/app.py": "def main():\n    return 1\n"})
    first = resync(project)
    assert first.added > 0 and first.writes > 0
    before = _sha(project.db_path)
    second = resync(project)
    assert second.writes == 0
    assert second.files_unchanged == 2 and second.added == second.retired == second.replaced == 0
    assert _sha(project.db_path) == before


def test_a_changed_section_is_replaced_and_the_old_excerpt_superseded_by_the_new(make_project):
    project = make_project({"README.md": DOC})
    resync(project)
    (project.root / "README.md").write_text(DOC.replace("Run the installer.", "Run the new installer."))
    bump_mtime(project.root / "README.md")
    report = resync(project)
    assert report.files_changed == 1
    assert report.replaced == 1 and report.added == 1 and report.kept == 2
    rows = _active(project, "source_uri = 'README.md#install'")
    old, new = rows
    assert old[3] == "superseded" and old[4] == new[0]
    assert new[3] == "active"


def test_a_deleted_file_is_retired_at_the_next_sync_and_listed_in_the_report(make_project):
    project = make_project({"README.md": DOC, "NOTES.md": "# Notes\n\nSomething.\n"})
    resync(project)
    (project.root / "NOTES.md").unlink()
    report = resync(project)
    assert report.files_removed == 1 and report.retired == 1
    assert report.retired_uris == ["NOTES.md#notes"]
    assert [r[3] for r in _active(project, "source_uri LIKE 'NOTES.md%'")] == ["retired"]


def test_two_files_with_identical_content_yield_one_excerpt_listing_both_locations(make_project):
    project = make_project({"a/same.md": "# Same\n\nIdentical body.\n", "b/same.md": "# Same\n\nIdentical body.\n"})
    report = resync(project)
    assert report.added == 1 and report.deduplicated == 1
    conn = connect(project.db_path)
    uris = [row[0] for row in conn.execute("SELECT uri FROM locations ORDER BY uri")]
    conn.close()
    assert uris == ["a/same.md#same", "b/same.md#same"]


def test_removing_one_copy_of_duplicated_content_keeps_the_excerpt_served_from_the_other(make_project):
    project = make_project({"a/same.md": "# Same\n\nIdentical body.\n", "b/same.md": "# Same\n\nIdentical body.\n"})
    resync(project)
    (project.root / "a/same.md").unlink()
    report = resync(project)
    assert report.retired == 0
    rows = _active(project)
    assert len(rows) == 1 and rows[0][2] == "b/same.md#same" and rows[0][3] == "active"


def test_a_touched_file_with_the_same_bytes_is_not_reparsed(make_project):
    project = make_project({"README.md": DOC})
    resync(project)
    bump_mtime(project.root / "README.md")
    report = resync(project)
    assert report.files_touched == 1 and report.added == 0 and report.replaced == 0
    assert resync(project).writes == 0


def test_every_skipped_file_is_counted_with_its_reason(make_project, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n")
    project = make_project(
        {
            "README.md": DOC,
            "big.md": "x" * 500,  # past a document's cap: 4 x max_file_bytes
            "blob.md": b"\x00\x01binary",
            "image.png": b"\x89PNG",
            "skip/me.md": "# Skip\n",
        },
        config='name = "demo"\nexclude = ["skip/"]\nmax_file_bytes = 100\n',
    )
    os.symlink(outside, project.root / "link.md")
    report = resync(project)
    assert report.skipped["too_large"] == 1
    assert report.skipped["binary"] == 1
    assert report.skipped["unsupported_type"] == 1
    assert report.skipped["excluded"] == 1
    assert report.skipped["link_outside_root"] == 1
    assert report.indexed == 1


def test_gitignore_is_honoured_without_git_and_with_git(make_project):
    files = {".gitignore": "build/\n*.log.md\n", "README.md": DOC, "build/out.md": "# Out\n", "x.log.md": "# Log\n"}
    project = make_project(files)
    assert resync(project).indexed == 1
    git_project = make_project(files, name="with-git")
    subprocess.run(["git", "init", "-q", str(git_project.root)], check=True)
    report = resync(git_project)
    assert report.discovery == "git" and report.indexed == 1


def test_the_kenning_directory_is_never_indexed(make_project):
    project = make_project({"README.md": DOC})
    (project.root / ".kenning" / "notes.md").write_text("# Private\n")
    assert resync(project).indexed == 1


def test_a_front_matter_change_alone_refreshes_the_kept_excerpt_metadata(make_project):
    doc = "---\ntype: decision\nstatus: accepted\n---\n# Use SQLite\n\nWe use SQLite.\n"
    project = make_project({"adr.md": doc})
    resync(project)
    (project.root / "adr.md").write_text(doc.replace("accepted", "superseded"))
    bump_mtime(project.root / "adr.md")
    report = resync(project)
    assert report.kept == 1 and report.added == 0
    conn = connect(project.db_path)
    meta = conn.execute("SELECT meta FROM facts WHERE lifecycle = 'active'").fetchone()[0]
    conn.close()
    assert '"status": "superseded"' in meta


def test_a_new_parser_version_reparses_unchanged_files_and_keeps_their_excerpts(make_project, monkeypatch):
    from kenning.ingest import discover

    project = make_project({"README.md": DOC, "src/app.py": "def main():\n    return 1\n"})
    first = resync(project)
    monkeypatch.setattr(discover, "parser_for", lambda path: "markdown/999" if path.endswith(".md") else "python/999")
    report = resync(project)
    assert report.files_changed == 2
    assert report.retired == 0 and report.added == 0 and report.kept == first.added
    assert resync(project).writes == 0


@pytest.mark.parametrize(
    "error", [RecursionError("maximum recursion depth exceeded"), IndexError("string index out of range")]
)
def test_a_file_no_parser_can_read_is_skipped_and_counted_without_stopping_the_sync(make_project, monkeypatch, error):
    """A pathological file (``RecursionError``) or a parser's own bug on one file (``IndexError``)."""
    from kenning.ingest import read as sync_module

    real = sync_module.load_relations

    def fragile(name):
        parse = real(name)

        def run(text, path):
            if path == "deep.md":
                raise error
            return parse(text, path)

        return run

    monkeypatch.setattr(sync_module, "load_relations", fragile)
    project = make_project({"README.md": DOC, "deep.md": "# Deep\n"})
    report = resync(project)
    assert report.indexed == 1 and report.skipped["parse_error"] == 1
    assert report.skipped_paths["parse_error"] == ["deep.md"]
    assert report.added == 3


def test_a_file_compiled_from_a_source_of_the_project_is_skipped_and_counted(make_project):
    """nestjs-realworld-example-app commits its ``dist/``: TypeScript's output crowded the answers
    of its ``src/`` and doubled its classes in the graph. A JavaScript or CSS file whose source map
    names a file of the project is skipped (``compiled``); one whose sources are not the project's
    is read."""
    inline = base64.b64encode(json.dumps({"version": 3, "sources": ["../src/inline.ts"]}).encode()).decode()
    project = make_project(
        {
            "src/article.ts": "export class ArticleService {\n  slugify(title: string) { return title; }\n}\n",
            "src/inline.ts": "export const x = 1;\n",
            "styles/site.scss": "$blue: #00f;\nbody { color: $blue; }\n",
            "dist/article.js": "class ArticleService {\n}\n//# sourceMappingURL=article.js.map\n",
            "dist/article.js.map": json.dumps({"version": 3, "sourceRoot": "", "sources": ["../src/article.ts"]}),
            "dist/inline.js": f"const x = 1;\n//# sourceMappingURL=data:application/json;base64,{inline}\n",
            "dist/site.css": "body { color: #00f; }\n/*# sourceMappingURL=site.css.map */\n",
            "dist/site.css.map": json.dumps({"version": 3, "sources": ["../styles/site.scss"]}),
            # a bundle of a package's code, and one whose source is not in the project: read
            "dist/vendor.js": "function lib() {}\n//# sourceMappingURL=vendor.js.map\n",
            "dist/vendor.js.map": json.dumps({"version": 3, "sources": ["webpack:///./node_modules/lib/index.js"]}),
            "dist/gone.js": "function gone() {}\n//# sourceMappingURL=gone.js.map\n",
            "dist/gone.js.map": json.dumps({"version": 3, "sources": ["../src/gone.ts"]}),
            "dist/broken.js": "function broken() {}\n//# sourceMappingURL=missing.js.map\n",
        }
    )
    report = resync(project)
    assert report.skipped["compiled"] == 3
    conn = open_store(project)
    try:
        paths = {row[0] for row in conn.execute("SELECT path FROM manifest")}
    finally:
        conn.close()
    assert {"dist/vendor.js", "dist/gone.js", "dist/broken.js", "src/article.ts"} <= paths
    assert not {"dist/article.js", "dist/inline.js", "dist/site.css"} & paths


def test_a_minified_bundle_is_skipped_and_counted(make_project):
    """pocketbase's ``ui/dist`` bundles and vendored ``tinymce.min.js`` crowded its answers with
    excerpts titled ``function e(e){let n=…``: a JavaScript or CSS bundle is not read."""
    bundle = "function e(e){let n=e.a;return n}" * 200  # one long line
    project = make_project(
        {
            "ui/dist/assets/index-BMShE0dZ.js": bundle + "\n",
            "ui/public/libs/tinymce.min.js": "function tiny(){}\n",
            "ui/src/app.js": "export function start() {\n  return 1;\n}\n" * 60,  # long, but hand-written
            "ui/src/short.js": "function e(e){let n=e.a;return n}" * 10,  # short: read whatever its lines
        }
    )
    report = resync(project)
    assert report.skipped["minified"] == 2 and report.indexed == 2
    (project.root / "ui/src/app.js").write_text(bundle, encoding="utf-8")  # built over: retired
    bump_mtime(project.root / "ui/src/app.js")
    again = resync(project)
    assert again.skipped["minified"] == 3 and again.indexed == 1 and again.files_removed == 1


def test_a_store_built_before_compiled_stylesheets_were_skipped_retires_them(make_project, monkeypatch):
    """Stores built before ``compiled`` (918ac9e) hold Sass's CSS, read by ``script/3``: the
    stylesheets' parser version moved, so the next sync reads them again and retires it."""
    project = make_project(
        {
            "styles/site.scss": "$blue: #00f;\nbody { color: $blue; }\n",
            "dist/site.css": "body { color: #00f; }\n/*# sourceMappingURL=site.css.map */\n",
            "dist/site.css.map": json.dumps({"version": 3, "sources": ["../styles/site.scss"]}),
        }
    )
    with monkeypatch.context() as m:  # as kenning read it then: no file was compiled
        m.setattr("kenning.ingest.read.compiled_from", lambda root, path, data: None)
        resync(project)
    conn = open_store(project)
    try:
        with conn:
            conn.execute("UPDATE manifest SET parser = 'script/3' WHERE parser = ?", (SCRIPT_PARSER,))
    finally:
        conn.close()
    report = resync(project)
    assert report.skipped["compiled"] == 1 and report.files_removed == 1
    assert _active(project, "source_uri LIKE 'dist/site.css%' AND lifecycle = 'active'") == []


def test_a_document_may_be_four_times_as_large_as_code_before_it_is_skipped(cli, make_project):
    """A long release history is a page people ask about: Markdown, reStructuredText and AsciiDoc
    documents are read up to 4 x ``max_file_bytes``; code, data and a ``.txt`` file keep the cap."""
    late = "\n\n## 0.1.0\n\nThe zanzibar flag was added.\n"
    project = make_project(
        {
            "CHANGELOG.md": "# Changelog\n\n" + "## older\n\nfixes " * 200 + late,  # about 3.6 x the cap
            "docs/guide.rst": "Guide\n=====\n\n" + "words " * 500,  # 3 x
            "docs/manual.adoc": "= Manual\n\n" + "words " * 500,
            "huge.md": "# Huge\n\n" + "word " * 850,  # past 4 x
            "data.txt": "zanzibar\n" * 200,  # 1.8 x: a .txt keeps the cap of code
            "src/generated.py": "ZANZIBAR = 1\n" * 150,  # 1.95 x
        },
        config='name = "demo"\nmax_file_bytes = 1000\n',
    )
    report = cli("sync", "--project", str(project.root), "--json").json()
    coverage = report["coverage"]
    assert sorted(coverage["skipped_paths"]["too_large"]) == ["data.txt", "huge.md", "src/generated.py"]
    assert coverage["indexed"] == 3
    found = cli("search", "zanzibar", "--project", str(project.root), "--json").json()
    assert [e["source"]["uri"] for e in found["excerpts"]] == ["CHANGELOG.md#010"]
