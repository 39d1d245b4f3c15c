"""`kenning sync`'s report, through the real CLI on a small git tree: a file deleted from the
work tree (not staged) is removed once and never counted unreadable; the ledger's records the
sync read are counted in the report's `ledger` object."""

from __future__ import annotations

import pytest

import kenning.sync.plan
from conftest import commit_all, git

FILES = {
    "README.md": "# Billing\n\nA small billing service.\n",
    "docs/architecture.md": "# Architecture\n\nThree layers: api, service, store.\n",
    "app/pricing.py": "def apply_tax(amount: float, rate: float = 0.2) -> float:\n    return amount * (1 + rate)\n",
}
LEDGER_URI = ".kenning/ledger.jsonl#task/T-2"
# the coverage of a sync of the two files left: none skipped, nothing named
TWO_INDEXED = {"eligible": 2, "indexed": 2, "skipped": {}, "skipped_paths": {}, "unsupported_suffixes": {}}


def _git_project(make_project):
    project = make_project(FILES)
    commit_all(project.root)
    return project


def _delete_docs_file(root):
    (root / "docs/architecture.md").unlink()


def _replace_docs_folder_with_a_file(root):
    _delete_docs_file(root)
    (root / "docs").rmdir()
    (root / "docs").write_text("a file where the folder was\n", encoding="utf-8")


@pytest.mark.parametrize("gone", [_delete_docs_file, _replace_docs_folder_with_a_file])
def test_a_file_deleted_without_git_rm_is_removed_once_and_never_counted_unreadable(cli, make_project, gone):
    project = _git_project(make_project)
    sync = ("sync", "--no-embed", "--project", str(project.root))
    assert cli(*sync, "--json").json()["files"]["new"] == 3
    gone(project.root)
    assert "docs/architecture.md" in git(project.root, "ls-files").split(), "git still lists it (not staged)"

    first = cli(*sync, "--json").json()
    assert first["files"]["removed"] == 1
    assert first["retired_uris"] == ["docs/architecture.md#architecture"]
    assert first["coverage"]["eligible"] == first["coverage"]["indexed"] == 2
    assert "unreadable" not in first["coverage"]["skipped"]
    for _ in range(2):  # every later sync: nothing removed again, nothing unreadable
        later = cli(*sync)
        assert later.code == 0
        assert "0 removed" in later.out and "unreadable" not in later.out
    bench = cli("bench", "--json", "--project", str(project.root)).json()
    assert "unreadable" not in bench["coverage"]["skipped"]
    assert bench["coverage"]["eligible_files"] == bench["coverage"]["indexed_files"] == 2


def test_a_file_deleted_before_any_sync_is_neither_indexed_nor_reported(cli, make_project):
    project = _git_project(make_project)
    _delete_docs_file(project.root)
    report = cli("sync", "--no-embed", "--json", "--project", str(project.root)).json()
    assert report["coverage"] == TWO_INDEXED
    assert report["files"]["new"] == 2 and report["files"]["removed"] == 0


def test_a_file_deleted_while_the_sync_runs_is_removed_not_unreadable(cli, make_project, monkeypatch):
    """Listed by discovery, gone when the sync reads it: the race between the two."""
    project = _git_project(make_project)
    sync = ("sync", "--no-embed", "--json", "--project", str(project.root))
    cli(*sync)
    (project.root / "docs/architecture.md").write_text("# Architecture\n\nFour layers now.\n", encoding="utf-8")
    listed = kenning.sync.plan.discover

    def discover_then_delete(found_project):
        found = listed(found_project)
        _delete_docs_file(found_project.root)
        return found

    monkeypatch.setattr(kenning.sync.plan, "discover", discover_then_delete)
    report = cli(*sync).json()
    assert report["coverage"] == TWO_INDEXED
    assert report["files"]["removed"] == 1
    assert report["retired_uris"] == ["docs/architecture.md#architecture"]


def test_the_sync_report_counts_the_ledger_records_it_added_changed_retired_and_kept(cli, make_project):
    project = _git_project(make_project)
    root = str(project.root)
    sync = ("sync", "--no-embed", "--project", root)
    cli(*sync)

    assert cli("ledger", "task", "T-1", "--title", "Add discounts", "--project", root).code == 0
    added = cli(*sync, "--json").json()
    assert added["ledger"] == {"added": 1, "changed": 0, "retired": 0, "kept": 0}
    assert added["excerpts"]["added"] == 0, "excerpts count the files' excerpts only"
    assert added["graph"]["nodes_delta"] == 1

    cli("ledger", "task", "T-1", "--title", "Add discounts and coupons", "--project", root)
    cli("ledger", "task", "T-2", "--title", "Refunds", "--project", root)
    changed = cli(*sync)
    assert "ledger: 1 added, 1 changed, 0 retired, 0 kept" in changed.out

    ledger_file = project.root / ".kenning/ledger.jsonl"
    lines = ledger_file.read_text(encoding="utf-8").splitlines(keepends=True)
    ledger_file.write_text("".join(line for line in lines if '"T-2"' not in line), encoding="utf-8")
    retired = cli(*sync, "--json").json()
    assert retired["ledger"] == {"added": 0, "changed": 0, "retired": 1, "kept": 1}
    assert retired["retired_uris"] == [LEDGER_URI]

    unchanged = cli(*sync)
    assert "ledger:" not in unchanged.out
    assert cli(*sync, "--json").json()["ledger"] == {"added": 0, "changed": 0, "retired": 0, "kept": 0}


def test_the_sync_report_names_the_files_it_skipped_and_the_kinds_it_does_not_read(cli, make_project):
    """A count alone left a user guessing which files were left out (spring-petclinic, walked: its
    12 Thymeleaf templates among ``38 unsupported_type``, read since): the report names the first files
    of each reason and the suffixes it does not read, most frequent first."""
    files = {
        **FILES,
        **{f"locale/fr/page{n}.po": 'msgid "page"\nmsgstr "page"\n' for n in range(3)},
        "static/icon.svg": "<svg></svg>\n",
        "static/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00",
        "gradlew": '#!/bin/sh\n# Gradle start up script for UN*X\nexec java -classpath "$CLASSPATH" "$@"\n',
        "gradlew.bat": "@rem Gradle startup script for Windows\n",
        # an Android Baseline Profile: method signatures a profiler wrote
        "app/src/main/baseline-prof.txt": "HSPLcom/app/data/AppDatabase;-><init>()V\n",
        "docs/notes.md": b"# Notes\n\n\x00binary after all\n",  # kept by discovery, refused once read
        # lockfiles: pnpm's is YAML, read otherwise (every package's name, version and checksum)
        "web/pnpm-lock.yaml": "lockfileVersion: '9.0'\npackages:\n  react@19.0.0:\n    resolution: {integrity: x}\n",
        "Cargo.lock": '[[package]]\nname = "serde"\nversion = "1.0.0"\n',
    }
    project = make_project(files)
    sync = ("sync", "--no-embed", "--project", str(project.root))
    coverage = cli(*sync, "--json").json()["coverage"]
    assert coverage["skipped"] == {
        "binary": 1,
        "build_profile": 1,
        "build_wrapper": 2,
        "lockfile": 2,
        "unsupported_type": 5,
    }
    assert coverage["skipped_paths"] == {
        "binary": ["docs/notes.md"],
        "build_profile": ["app/src/main/baseline-prof.txt"],
        "build_wrapper": ["gradlew", "gradlew.bat"],  # Gradle's own script, the same in every project
        "lockfile": ["Cargo.lock", "web/pnpm-lock.yaml"],
        "unsupported_type": [
            "locale/fr/page0.po",
            "locale/fr/page1.po",
            "locale/fr/page2.po",
            "static/icon.svg",
            "static/logo.png",
        ],
    }
    assert coverage["unsupported_suffixes"] == {".po": 3, ".png": 1, ".svg": 1}
    text = cli(*sync).out
    assert "skipped (unsupported_type): 3 .po, 1 .png, 1 .svg\n" in text, text
    assert "skipped (binary): docs/notes.md\n" in text, text
    assert "skipped (build_wrapper): gradlew, gradlew.bat\n" in text, text
