"""`kenning sync --retire-missing N` names how many indexed files the user deleted on purpose
(docs/cli.md): on any store, a count that is not the number of indexed files missing here is
refused and writes nothing; the right one is an ordinary sync. On a shared PostgreSQL store it
also lifts the refusal of a sync that finds none of the project's files
(tests/store/test_pg_files_elsewhere.py)."""

from __future__ import annotations

from conftest import resync

FILES = {"docs/a.md": "# A\n\nAlpha words.\n", "docs/b.md": "# B\n\nBeta words.\n"}


def test_a_count_other_than_the_missing_files_writes_nothing(make_project, cli):
    project = make_project(FILES)
    resync(project)
    (project.root / "docs" / "b.md").unlink()
    before = project.db_path.read_bytes()
    refused = cli("sync", "--retire-missing", "2", "--project", str(project.root))
    assert refused.code == 2
    assert refused.err.startswith("error: --retire-missing 2: 1 file(s) indexed for demo are not found under ")
    assert "`kenning sync --retire-missing 1` retires them" in refused.err
    assert project.db_path.read_bytes() == before
    done = cli("sync", "--retire-missing", "1", "--project", str(project.root), "--json")
    assert done.code == 0, done.err
    assert done.json()["files"]["removed"] == 1


def test_retire_missing_is_a_count_and_not_an_option_of_the_global_sync(cli):
    assert cli("sync", "--retire-missing", "-1").code == 2
    refused = cli("sync", "--global", "--retire-missing", "1")
    assert refused.code == 2 and "--global syncs the transverse memory" in refused.err
