"""`kenning bench`: deterministic, complete, offline."""

from __future__ import annotations

import socket

import pytest

from conftest import resync

CORPUS = {
    "README.md": "# Demo\n\nA small project used to check the bench.\n\n## Install\n\nRun make install.\n",
    "docs/guide.md": (
        "# Guide\n\n## Incremental sync\n\nThe manifest records size and mtime of each file.\n\n"
        "## Freshness states\n\nCurrent, stale, source missing, unverified, hypothesis.\n"
    ),
    "docs/decisions/sqlite.md": (
        "---\ntype: decision\n---\n# Store everything in SQLite\n\nOne file per project, FTS5 for search.\n"
    ),
    "src/fusion.py": (
        '"""Rank fusion."""\n\n\ndef rrf_fuse(lists):\n    """Fuse ranked lists."""\n    return lists\n\n\n'
        "class Ranker:\n    def score(self, item):\n        return 1\n"
    ),
}

MEASURES = ("coverage", "attribution", "served_freshness", "superseded_served", "retrieval", "router", "core_cost")


@pytest.fixture
def project(make_project):
    project = make_project(CORPUS)
    resync(project)
    return project


def test_two_runs_of_bench_json_give_identical_bytes(project, cli):
    first = cli("bench", "--json", "--project", str(project.root))
    second = cli("bench", "--json", "--project", str(project.root))
    assert first.code == 0, first.err
    assert first.out == second.out


def test_every_measure_is_present_and_undefined_ones_are_null(project, cli):
    report = cli("bench", "--json", "--project", str(project.root)).json()
    assert report["schema"] == "kenning.bench/v1"
    assert all(name in report for name in MEASURES)
    assert report["questions"]["by_kind"]["section"] > 0
    assert report["questions"]["by_kind"]["symbol"] > 0
    assert report["questions"]["by_kind"]["decision"] == 1
    assert report["coverage"]["eligible_files"] == 4
    assert report["coverage"]["rate"] == 1.0
    assert report["attribution"]["rate"] == 1.0
    assert report["served_freshness"]["stale_or_missing_served_as_current"] == 0
    assert report["superseded_served"]["not_active"] == 0
    lexical = report["retrieval"]["lexical"]
    assert lexical["available"] is True
    assert set(lexical["all"]) == {"questions", "recall@1", "recall@5", "recall@10", "mrr"}
    assert lexical["decision"]["recall@10"] == 1.0
    for mode in ("dense", "hybrid"):
        assert report["retrieval"][mode]["available"] is False
        assert report["retrieval"][mode]["reason"]
    for optional in ("router", "core_cost"):
        entry = report[optional]
        assert (entry["value"] is None) == (entry["note"] is not None)
    assert report["limits"]


def test_rates_over_zero_items_are_null(make_project, cli):
    project = make_project({"notes.bin": b"\x00\x01"})
    resync(project)
    report = cli("bench", "--json", "--project", str(project.root)).json()
    assert report["questions"]["total"] == 0
    assert report["coverage"]["rate"] is None
    assert report["attribution"]["rate"] is None
    assert report["served_freshness"]["rate"] is None
    assert report["superseded_served"]["rate"] is None
    assert report["retrieval"]["lexical"]["all"]["recall@1"] is None
    assert report["retrieval"]["lexical"]["all"]["mrr"] is None
    assert set(report["questions"]["absent"]) == {"section", "symbol", "decision", "edge"}
    assert report["retrieval"]["graph"]["available"] is False and report["retrieval"]["graph"]["reason"]


def test_a_changed_source_is_not_counted_as_verified(project, cli):
    (project.root / "docs" / "guide.md").write_text("# Guide\n\n## Incremental sync\n\nRewritten.\n", encoding="utf-8")
    report = cli("bench", "--json", "--per-kind", "50", "--project", str(project.root)).json()
    states = report["served_freshness"]["by_state"]
    assert states.get("stale", 0) >= 1
    assert report["attribution"]["verified"] < report["attribution"]["served_excerpts"]
    assert report["served_freshness"]["stale_or_missing_served_as_current"] == 0


def test_bench_makes_no_network_call(project, cli, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("network call attempted")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    result = cli("bench", "--json", "--speed", "--project", str(project.root))
    assert result.code == 0, result.err
    assert "speed" in result.json()


def test_speed_is_a_separate_section_only_when_asked(project, cli):
    plain = cli("bench", "--json", "--project", str(project.root)).json()
    timed = cli("bench", "--json", "--speed", "--project", str(project.root)).json()
    assert "speed" not in plain
    assert {k: v for k, v in timed.items() if k != "speed"} == plain
    assert timed["speed"]["files"] == 4


def test_out_writes_the_report_to_a_file(project, cli, tmp_path):
    target = tmp_path / "report.json"
    result = cli("bench", "--json", "--out", str(target), "--project", str(project.root))
    assert result.code == 0
    assert result.out == ""
    assert target.read_text(encoding="utf-8") == cli("bench", "--json", "--project", str(project.root)).out


def test_another_seed_can_pick_other_questions(make_project, cli):
    files = {f"docs/topic{i}.md": f"# Topic {i}\n\n## Part alpha{i}\n\nText {i}.\n" for i in range(30)}
    project = make_project(files)
    resync(project)
    one = cli("bench", "--json", "--seed", "1", "--per-kind", "5", "--project", str(project.root)).json()
    two = cli("bench", "--json", "--seed", "2", "--per-kind", "5", "--project", str(project.root)).json()
    assert [q["text"] for q in one["questions_asked"]] != [q["text"] for q in two["questions_asked"]]


def test_edge_questions_come_from_declared_graph_edges_and_the_router_agrees_with_its_table(project, cli):
    from kenning.route.examples import EXAMPLES
    from kenning.store.db import connect

    conn = connect(project.db_path)
    declared = {
        (a, b)
        for a, b in conn.execute(
            "SELECT a.name, b.name FROM graph_edges_sourced e JOIN graph_nodes a ON a.id = e.src "
            "JOIN graph_nodes b ON b.id = e.dst WHERE e.link = 'declared'"
        )
    }
    conn.close()
    assert declared, "the fixture has declared edges (defines, supersedes, links_to)"
    report = cli("bench", "--json", "--project", str(project.root)).json()
    edge_questions = [q["text"] for q in report["questions_asked"] if q["kind"] == "edge"]
    assert edge_questions and report["questions"]["by_kind"]["edge"] == len(edge_questions)
    assert all(any(q == f"what links {a} to {b}?" for a, b in declared) for q in edge_questions)
    assert report["router"]["note"] is None
    assert report["router"]["value"]["examples"] == len(EXAMPLES)
    assert report["router"]["value"]["mode_agreement"] == 1.0


def test_graph_mode_answers_the_edge_questions_and_serves_the_declared_edge(project, cli):
    report = cli("bench", "--json", "--project", str(project.root)).json()
    graph = report["retrieval"]["graph"]
    edges = report["questions"]["by_kind"]["edge"]
    assert graph["available"] is True and graph["edge"]["questions"] == edges > 0
    assert graph["edge"]["recall@10"] == 1.0 and graph["edge"]["edge_found"] == 1.0
    assert "edge" not in report["retrieval"]["lexical"]  # asked through `kenning ask`: the graph served them
    assert report["questions"]["served_by"]["graph"] == edges
    assert all(
        row["mode"] == "graph" and row["rule"] == "relation"
        for row in report["questions_asked"]
        if row["kind"] == "edge"
    )
    assert "graph edge" in cli("bench", "--project", str(project.root)).out


def test_a_path_step_is_the_declared_edge_only_with_its_type_and_both_ends():
    from kenning.bench.report import _is_edge

    step = {"type": "calls", "from": {"name": "Store.flush"}, "to": {"name": "write_rows"}}
    assert _is_edge(step, ("flush", "write_rows", "calls"))
    assert not _is_edge(step, ("flush", "write_rows", "imports"))
    assert not _is_edge(step, ("write_rows", "flush", "calls"))
    assert not _is_edge(step, None)


def test_bench_without_an_index_says_so_and_fails(make_project, cli):
    project = make_project({"README.md": "# Demo\n"})
    result = cli("bench", "--project", str(project.root))
    assert result.code == 1
    assert "kenning sync" in result.err
    assert not project.db_path.exists()


def test_a_commit_served_as_current_is_verified_against_git_not_counted_as_wrong(make_project):
    import subprocess

    from conftest import NOW, resync
    from kenning.answer.search import SearchOptions, search_conn
    from kenning.bench.measures import served_checks
    from kenning.search.query import parse
    from kenning.store.db import connect

    project = make_project({"README.md": "# Demo\n"})
    env = {
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@example.org",
        "PATH": "/usr/bin:/bin",
    }
    for args in (["init", "-q"], ["add", "README.md"], ["commit", "-qm", "Add the zebra cache layer"]):
        subprocess.run(["git", "-C", str(project.root), *args], check=True, env=env)
    resync(project)
    conn = connect(project.db_path)
    answer = search_conn(conn, project, parse("zebra cache layer"), SearchOptions(types=("commit",)), now=NOW)
    served = {e.fact.id: e for e in answer.excerpts}
    checks = served_checks(project, conn, served)
    conn.close()
    assert served and checks["attribution"]["verified"] == len(served)
    assert checks["served_freshness"]["stale_or_missing_served_as_current"] == 0


def test_project_questions_are_reported_apart_with_their_recall_and_router_agreement(project, cli):
    import json

    rows = [
        {"question": "what calls rrf_fuse", "expected": ["src/fusion.py"], "rule": "relation", "mode": "graph"},
        {
            "question": "why did we store everything in SQLite",
            "expected": ["docs/decisions/sqlite.md"],
            "rule": "relation",
        },
        {"question": "where is rrf_fuse defined", "expected": ["rrf_fuse"], "rule": "default"},  # routed: identifier
        {"question": "how do I install it", "expected": ["README.md"], "rule": "default", "mode": "lexical"},
    ]
    (project.state_dir / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    report = cli("bench", "--json", "--project", str(project.root)).json()
    own = report["project_questions"]
    print("\nproject questions:", json.dumps(own["retrieval"]), json.dumps(own["router"]))
    assert own["present"] is True and own["questions"] == 4
    assert own["retrieval"]["questions"] == 4 and own["retrieval"]["recall@10"] is not None
    assert [r["rule"] for r in own["rows"]] == ["relation", "relation", "identifier", "default"]
    assert own["router"]["rule_agreement"] == 0.75 and own["router"]["mode_agreement"] == 1.0
    assert own["router"]["disagreements"] == [
        {"question": "where is rrf_fuse defined", "expected": [None, "default"], "got": ["lexical", "identifier"]}
    ]
    # router agreement is measured on the project's questions; the built-in table is reported as what it is
    assert report["router"]["source"] == ".kenning/questions.jsonl"
    assert report["router"]["value"]["examples"] == 4 and report["router"]["value"]["rule_agreement"] == 0.75
    assert report["router"]["builtin"]["value"]["examples"] > 40
    assert sum(report["questions"]["served_by"].values()) == report["questions"]["total"]
    asked = {row["text"] for row in report["questions_asked"]}
    assert not asked & {r["question"] for r in rows}  # project questions are not mixed into generated ones
    text = cli("bench", "--project", str(project.root)).out
    assert "project questions (.kenning/questions.jsonl): n=4" in text and "built-in example table" in text


def test_without_project_questions_the_router_says_it_measured_the_built_in_table(project, cli):
    report = cli("bench", "--json", "--project", str(project.root)).json()
    assert report["project_questions"]["present"] is False
    assert report["router"]["source"].startswith("built-in example table")


def test_a_malformed_project_question_is_a_clear_error_naming_its_line(project, cli):
    (project.state_dir / "questions.jsonl").write_text(
        '{"question": "ok", "expected": ["a"]}\n{"q": 1}\n', encoding="utf-8"
    )
    result = cli("bench", "--project", str(project.root))
    assert result.code != 0 and "questions.jsonl line 2" in result.err


LEDGER = (
    '{"kind": "task", "id": "T-1", "title": "Add discounts", "status": "open", "touches": ["src/fusion.py"]}\n'
    '{"kind": "evidence", "id": "E-1", "task": "T-1", "command": "pytest", "result": "3 passed"}\n'
    '{"kind": "verdict", "id": "V-1", "evidence": "E-1", "outcome": "accepted"}\n'
)


def _ledger_project(make_project):
    project = make_project(CORPUS)
    (project.state_dir / "ledger.jsonl").write_text(LEDGER, encoding="utf-8")
    resync(project)
    return project


def _ledger_questions(report: dict) -> list[str]:
    return [q["text"] for q in report["questions_asked"] if any(i in q["text"] for i in ("T-1", "E-1", "V-1"))]


def test_ledger_records_served_as_current_verify_against_their_record(make_project, cli):
    project = _ledger_project(make_project)
    report = cli("bench", "--json", "--project", str(project.root)).json()
    assert _ledger_questions(report), "the bench asks about the ledger's records (their declared edges)"
    assert report["attribution"]["verified"] == report["attribution"]["served_excerpts"] > 0
    assert report["served_freshness"]["stale_or_missing_served_as_current"] == 0
    text = cli("bench", "--project", str(project.root)).out
    assert (
        "attribution: {0}/{0} served excerpts verify (100.0%)".format(report["attribution"]["served_excerpts"]) in text
    )
    assert "served freshness: 0 stale or missing served as current" in text


def test_a_ledger_record_changed_since_the_sync_is_stale_and_does_not_verify(make_project, cli):
    project = _ledger_project(make_project)
    with (project.state_dir / "ledger.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"kind": "task", "id": "T-1", "title": "Add discounts", "status": "done", "touches": []}\n')
    report = cli("bench", "--json", "--project", str(project.root)).json()
    assert report["served_freshness"]["by_state"].get("stale") == 1
    assert report["attribution"]["verified"] == report["attribution"]["served_excerpts"] - 1
    assert report["served_freshness"]["stale_or_missing_served_as_current"] == 0


def test_dense_and_hybrid_not_served_say_why_as_the_answers_did(project, cli):
    report = cli("bench", "--json", "--project", str(project.root)).json()
    disabled = "dense disabled ([dense] enabled = false in .kenning/config.toml)"  # tests/conftest.py turns it off
    assert report["retrieval"]["hybrid"] == {"available": False, "reason": disabled}
    assert report["retrieval"]["dense"]["reason"].endswith(f"which served none: {disabled}")
    text = cli("bench", "--project", str(project.root)).out
    assert f"  hybrid: not measured — {disabled}" in text
    assert "no embedding model installed" not in text


def test_a_served_note_is_counted_apart_not_read_as_an_attribution_that_failed(project, cli):
    """A note has no source to re-read: "14/15 served excerpts verify" alone read as one excerpt
    whose source no longer matched. The text says how many had nothing to verify (the JSON's
    ``without_rereadable_source``), as it says the rest."""
    where = ("--project", str(project.root))
    assert cli("remember", "The incremental sync reads the manifest first", *where).code == 0
    report = cli("bench", "--json", *where).json()
    att = report["attribution"]
    assert att["without_rereadable_source"] == 1 and att["verified"] == att["served_excerpts"] - 1
    text = cli("bench", *where).out
    line = next(line for line in text.splitlines() if line.startswith("attribution:"))
    assert line.endswith("; 1 without a source to re-read (notes, memories): nothing to verify"), line
