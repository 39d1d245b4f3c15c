from __future__ import annotations

import json

from conftest import resync
from kenning import ledger


def test_ledger_commands_append_validated_records_and_the_sync_turns_them_into_facts_and_edges(make_project, cli):
    project = make_project({"src/app.py": "def main():\n    return 1\n"})
    root = ("--project", str(project.root))
    assert cli("ledger", "task", "T-1", "--title", "Ship it", "--touches", "src/app.py", *root).code == 0
    assert (
        cli("ledger", "evidence", "E-1", "--task", "T-1", "--command", "pytest", "--result", "green", *root).code == 0
    )
    assert cli("ledger", "verdict", "V-1", "--evidence", "E-1", "--outcome", "accepted", *root).code == 0
    lines = (project.state_dir / "ledger.jsonl").read_text().splitlines()
    assert [json.loads(line)["kind"] for line in lines] == ["task", "evidence", "verdict"]
    resync(project)
    answer = cli("graph", "touches", "src/app.py", "--json", *root).json()
    assert [ex["type"] for ex in answer["excerpts"]] == ["task", "evidence", "verdict"]
    assert answer["excerpts"][0]["freshness"]["state"] == "current"


def test_a_record_that_fails_validation_exits_2_and_writes_nothing(make_project, cli):
    project = make_project({"a.md": "# A\n"})
    root = ("--project", str(project.root))
    bad = cli("ledger", "evidence", "E-1", "--task", "T-404", "--path", "a.md", "--result", "ok", *root)
    assert bad.code == 2 and "no task 'T-404'" in bad.err
    assert cli("ledger", "task", "bad id!", "--title", "x", *root).code == 2
    assert cli("ledger", "task", "T-1", "--title", "x", "--touches", "/etc/passwd", *root).code == 2
    assert not (project.state_dir / "ledger.jsonl").exists()


def test_ledger_import_reads_gh_issue_list_json_and_is_idempotent(make_project, cli, tmp_path):
    project = make_project({"a.md": "# A\n"})
    issues = [
        {
            "number": 12,
            "title": "Graph",
            "state": "OPEN",
            "body": "Depends on #11",
            "labels": [{"name": "core"}],
            "createdAt": "2026-11-01T10:00:00Z",
            "closedAt": None,
        },
        {
            "number": 11,
            "title": "Store",
            "state": "CLOSED",
            "body": "",
            "labels": [],
            "createdAt": "2026-10-01T10:00:00Z",
            "closedAt": "2026-10-20T10:00:00Z",
        },
    ]
    dump = tmp_path / "issues.json"
    dump.write_text(json.dumps(issues))
    root = ("--project", str(project.root))
    assert cli("ledger", "import", str(dump), "--json", *root).json()["imported"] == 2
    assert cli("ledger", "import", str(dump), "--json", *root).json() == {
        "imported": 0,
        "unchanged": 2,
        "ledger": str(project.state_dir / "ledger.jsonl"),
    }
    entries = {e.record["id"]: e.record for e in ledger.read(project.state_dir / "ledger.jsonl").entries}
    assert entries["#12"]["depends_on"] == ["#11"] and entries["#11"]["status"] == "closed"
    assert entries["#12"]["labels"] == ["core"] and entries["#11"]["date"] == "2026-10-20T10:00:00Z"
    resync(project)
    impact = cli("graph", "impact", "#11", "--json", *root).json()
    assert [(ex["title"], ex["path"][0]["type"]) for ex in impact["excerpts"]] == [("#12 Graph [open]", "depends_on")]


def test_a_broken_ledger_line_is_counted_and_never_stops_the_sync(make_project):
    project = make_project({"a.md": "# A\n"})
    (project.state_dir / "ledger.jsonl").write_text(
        '{"kind": "task", "id": "T-1", "title": "ok"}\nnot json\n{"kind": "task"}\n', encoding="utf-8"
    )
    report = resync(project)
    assert report.graph["ledger_invalid"] == 2
    assert [e.record["id"] for e in ledger.read(project.state_dir / "ledger.jsonl").entries] == ["T-1"]
