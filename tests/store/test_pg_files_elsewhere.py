"""Level 2 is shared by machines that may not hold the project's files: an agent host or a
second machine with only `.kenning/config.toml` (the same project name, the same server).
Before, every file and commit excerpt read there as `source_missing`, so answers hid them all
(`hidden: 11 source_missing`: only saved notes came back), `kenning stale` listed every file
as missing, and a `kenning sync` there retired every excerpt of the project for every machine.
Now such excerpts are `unverified` with the reason and the answer says so in its
degradations; stale says there is nothing to compare; the sync is refused and writes nothing.
A machine with the files still sees a deleted file as `source_missing`; SQLite never changes."""

from __future__ import annotations

import shutil
import uuid

import pytest
from pg_engine import server_url

from conftest import NOW, commit_all, git, resync
from kenning.answer.ask import ask_project
from kenning.answer.search import search_project
from kenning.answer.stale import stale_report
from kenning.config import load_project
from kenning.errors import UsageError
from kenning.freshness import NOT_HERE, NOT_HERE_DEGRADATION
from kenning.records import FreshnessState
from kenning.search.serve import SearchOptions
from kenning.store import lookups
from kenning.store.db import open_store
from kenning.store.status import index_size

FILES = {
    "README.md": "# Widget service\n\nWidget service computes widget prices.\n",
    "docs/deploy.md": "# Deploying\n\nDeploy widgets with make deploy from the main branch.\n",
    "src/pricing.py": "def widget_price(size):\n    '''The price of a widget.'''\n    return 2 * size\n",
}
QUESTION = "how do we deploy widgets"


@pytest.fixture
def shared(make_project, tmp_path, monkeypatch):
    """The project synced from its checkout, and the same project on a machine with only its
    config (the same name and server)."""
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    name = f"widgets-{uuid.uuid4().hex[:10]}"
    config = f'name = "{name}"\nstore = "{server_url()}"\n'
    project = make_project(FILES, name="checkout", config=config)
    commit_all(project.root)
    resync(project)
    bare = tmp_path / "agent-host"
    (bare / ".kenning").mkdir(parents=True)
    shutil.copy(project.state_dir / "config.toml", bare / ".kenning" / "config.toml")
    return project, load_project(bare)


def _active(project) -> int:
    conn = open_store(project)
    try:
        return index_size(conn).by_lifecycle.get("active", 0)
    finally:
        conn.close()


def test_answers_on_a_machine_without_the_files_serve_the_excerpts_unverified_and_say_why(shared):
    checkout, elsewhere = shared
    here = ask_project(checkout, QUESTION, now=NOW)
    there = ask_project(elsewhere, QUESTION, now=NOW)
    assert [e.fact.id for e in there.excerpts] == [e.fact.id for e in here.excerpts]
    assert "source_missing" not in there.filtered
    files = [e for e in there.excerpts if e.fact.source.kind in ("file", "commit")]
    assert files and {(e.freshness.state, e.freshness.detail) for e in files} == {(FreshnessState.UNVERIFIED, NOT_HERE)}
    assert NOT_HERE_DEGRADATION in there.degradations and NOT_HERE_DEGRADATION not in here.degradations
    searched = search_project(elsewhere, "widget", SearchOptions(), now=NOW)
    assert searched.excerpts and NOT_HERE_DEGRADATION in searched.degradations


def test_stale_on_a_machine_without_the_files_has_nothing_to_compare(shared):
    _, elsewhere = shared
    conn = open_store(elsewhere)
    try:
        report = stale_report(conn, elsewhere, now=NOW)
    finally:
        conn.close()
    assert report.excerpts == ()
    assert NOT_HERE_DEGRADATION in report.degradations
    assert report.notes[0].startswith("none of the 3 indexed file(s) is under ")


def test_a_sync_from_a_machine_without_the_files_is_refused_and_retires_nothing(shared):
    checkout, elsewhere = shared
    before = _active(checkout)
    with pytest.raises(
        UsageError,
        match=r"would retire every excerpt of their 3 file\(s\) \(\d+ excerpt\(s\)\) on the shared PostgreSQL store",
    ):
        resync(elsewhere)
    assert _active(checkout) == before > 0


def test_a_file_deleted_in_the_checkout_is_still_source_missing(shared):
    checkout, _ = shared
    (checkout.root / "docs" / "deploy.md").unlink()
    answer = ask_project(checkout, QUESTION, now=NOW)
    assert answer.filtered.get("source_missing") == 1
    assert NOT_HERE_DEGRADATION not in answer.degradations


def test_a_top_level_folder_deleted_in_the_checkout_is_still_source_missing(shared):
    """The missing file's own top-level entry is gone too: the other entries say the checkout
    is here."""
    checkout, _ = shared
    shutil.rmtree(checkout.root / "docs")
    answer = ask_project(checkout, QUESTION, now=NOW)
    assert answer.filtered.get("source_missing") == 1
    assert NOT_HERE_DEGRADATION not in answer.degradations


def test_a_sync_in_the_checkout_does_not_read_every_indexed_path_to_refuse(shared, monkeypatch):
    """The refusal is told from the manifest the sync reads anyway: a no-op sync, and one with
    an edit, no longer read the project's every indexed path a second time (60,000 paths: about
    50 ms a sync)."""
    checkout, _ = shared
    reads = []
    real = lookups.manifest_paths
    monkeypatch.setattr(lookups, "manifest_paths", lambda conn: reads.append(1) or real(conn))
    assert resync(checkout).files_unchanged == len(FILES)
    (checkout.root / "docs" / "deploy.md").write_text("# Deploying\n\nDeploy widgets on Tuesdays.\n")
    assert resync(checkout).files_changed == 1
    assert reads == []


def _file_excerpts(project) -> int:
    """The project's active excerpts of files (commits and notes aside), on the server."""
    conn = open_store(project)
    try:
        return len(lookups.active_ids_located_in(conn, list(FILES)))
    finally:
        conn.close()


def test_files_all_deleted_on_purpose_are_retired_once_the_user_says_how_many(shared, cli):
    """Before, a project whose every file was deleted could not be emptied on level 2: the sync
    was refused as if run from a machine without the files, with no way round it. The refusal
    now says how many files and what to run; `--retire-missing 3` retires them."""
    checkout, _ = shared
    git(checkout.root, "rm", "-q", "-r", *FILES)  # the folders go with their last file
    commit_all(checkout.root, "The widget service is retired")
    before = _file_excerpts(checkout)
    assert before > 0
    refused = cli("sync", "--project", str(checkout.root))
    assert refused.code == 2 and refused.out == ""
    assert f"none of the 3 file(s) indexed for {checkout.name} is under {checkout.root}" in refused.err
    assert "`kenning sync --retire-missing 3` there retires them" in refused.err
    assert _file_excerpts(checkout) == before

    done = cli("sync", "--retire-missing", "3", "--project", str(checkout.root), "--json")
    assert done.code == 0, done.err
    report = done.json()
    assert report["files"]["removed"] == 3 and report["excerpts"]["retired"] >= before
    assert _file_excerpts(checkout) == 0
    assert cli("sync", "--project", str(checkout.root)).code == 0  # nothing indexed is missing now


def test_retire_missing_with_another_count_writes_nothing(shared, cli):
    checkout, _ = shared
    git(checkout.root, "rm", "-q", "-r", *FILES)
    before = _file_excerpts(checkout)
    refused = cli("sync", "--retire-missing", "2", "--project", str(checkout.root))
    assert refused.code == 2
    assert "--retire-missing 2: 3 file(s) indexed for" in refused.err and "not 2; nothing written" in refused.err
    assert "`kenning sync --retire-missing 3` retires them" in refused.err
    assert _file_excerpts(checkout) == before > 0


def test_retire_missing_from_a_directory_that_is_not_the_checkout_is_refused(shared, cli):
    """The agent host's folder (only the config, no repository) says the right count but holds
    none of the project's history: it cannot empty the project for the team."""
    checkout, elsewhere = shared
    before = _file_excerpts(checkout)
    refused = cli("sync", "--retire-missing", "3", "--project", str(elsewhere.root))
    assert refused.code == 2
    assert f"{elsewhere.root} is not a checkout of {checkout.name}: the last commit indexed" in refused.err
    assert _file_excerpts(checkout) == before > 0


def test_a_project_outside_git_is_emptied_on_the_count_alone(make_project, cli, monkeypatch):
    """No history indexed, nothing to tell a checkout by: the count is the only check (said in
    docs/postgresql.md)."""
    monkeypatch.delenv("KENNING_DATABASE_URL", raising=False)
    name = f"plain-{uuid.uuid4().hex[:10]}"
    project = make_project(FILES, name="plain", config=f'name = "{name}"\nstore = "{server_url()}"\n')
    resync(project)
    for top in ("README.md", "docs", "src"):
        path = project.root / top
        path.unlink() if path.is_file() else shutil.rmtree(path)
    assert cli("sync", "--project", str(project.root)).code == 2
    done = cli("sync", "--retire-missing", "3", "--project", str(project.root), "--json")
    assert done.code == 0, done.err
    assert done.json()["files"]["removed"] == 3 and _file_excerpts(project) == 0
