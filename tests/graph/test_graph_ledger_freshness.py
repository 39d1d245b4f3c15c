"""A ledger fact's source is its record, not the append-only file: appending other records
leaves it current; a later version of the same record makes it stale until the next sync."""

from __future__ import annotations

from conftest import resync


def _task(cli, root, ident):
    answer = cli("search", ident, "--type", "task", "--include-superseded", "--json", *root).json()
    return {ex["title"]: ex for ex in answer["excerpts"] if ex["title"].startswith(ident + " ")}


def test_appending_other_records_leaves_a_ledger_fact_and_its_edges_current(make_project, cli):
    project = make_project({"src/app.py": "def main():\n    return 1\n"})
    root = ("--project", str(project.root))
    assert cli("ledger", "task", "T-1", "--title", "Ship it", "--touches", "src/app.py", *root).code == 0
    resync(project)
    assert cli("ledger", "task", "T-2", "--title", "Then polish", *root).code == 0
    assert (
        cli("ledger", "evidence", "E-1", "--task", "T-1", "--command", "pytest", "--result", "green", *root).code == 0
    )

    [task] = _task(cli, root, "T-1").values()
    assert task["freshness"]["state"] == "current"
    assert task["source"]["uri"] == ".kenning/ledger.jsonl#task/T-1"
    touches = cli("graph", "touches", "src/app.py", "--json", *root).json()["excerpts"]
    [edge] = touches[0]["path"]
    assert edge["source"]["uri"] == ".kenning/ledger.jsonl#task/T-1" and edge["line"] == 1
    assert edge["freshness"] == "current"
    stale = cli("stale", "--json", *root).json()
    assert not [item for item in stale["excerpts"] if item["type"] == "task"]


def test_a_new_version_of_a_record_makes_its_fact_stale_until_the_sync_supersedes_it(make_project, cli):
    project = make_project({"a.md": "# A\n"})
    root = ("--project", str(project.root))
    assert cli("ledger", "task", "T-1", "--title", "Ship it", *root).code == 0
    resync(project)
    assert cli("ledger", "task", "T-1", "--title", "Ship it", "--status", "done", *root).code == 0

    [task] = _task(cli, root, "T-1").values()
    assert task["freshness"]["state"] == "stale"
    resync(project)
    versions = _task(cli, root, "T-1")
    assert versions["T-1 Ship it [done]"]["freshness"]["state"] == "current"
    assert versions["T-1 Ship it [open]"]["lifecycle"] == "superseded"


def test_a_deleted_ledger_serves_its_facts_as_source_missing(make_project, cli):
    project = make_project({"a.md": "# A\n"})
    root = ("--project", str(project.root))
    assert cli("ledger", "task", "T-1", "--title", "Ship it", *root).code == 0
    resync(project)
    (project.state_dir / "ledger.jsonl").unlink()
    stale = cli("stale", "--json", *root).json()
    assert [(ex["type"], ex["freshness"]["state"]) for ex in stale["excerpts"]] == [("task", "source_missing")]


def test_a_store_from_before_record_fingerprints_is_rewritten_by_the_next_sync(make_project, cli):
    import hashlib

    from kenning.store.db import connect

    project = make_project({"a.md": "# A\n"})
    root = ("--project", str(project.root))
    assert cli("ledger", "task", "T-1", "--title", "Ship it", *root).code == 0
    resync(project)
    whole_file = hashlib.sha256((project.state_dir / "ledger.jsonl").read_bytes()).hexdigest()
    conn = connect(project.db_path)
    with conn:  # as an older kenning left it: the whole file's fingerprint everywhere
        conn.execute("UPDATE facts SET fingerprint = ? WHERE path = '.kenning/ledger.jsonl'", (whole_file,))
        conn.execute("UPDATE locations SET fingerprint = ? WHERE path = '.kenning/ledger.jsonl'", (whole_file,))
        conn.execute("DELETE FROM graph_sources WHERE name = 'ledger'")  # what migration 0008 does
    conn.close()
    [task] = _task(cli, root, "T-1").values()
    assert task["freshness"]["state"] == "stale"
    resync(project)
    [task] = _task(cli, root, "T-1").values()
    assert task["freshness"]["state"] == "current" and task["source"]["fingerprint"] != whole_file


def test_freshness_names_the_ledger_where_the_ledger_module_puts_it():
    from kenning import freshness, ledger

    assert freshness._LEDGER_PATH == ledger.LEDGER_PATH  # kept apart for start-up time
