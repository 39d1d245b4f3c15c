from __future__ import annotations

import hashlib

import graph_repo

from conftest import resync
from kenning.store.db import connect


def _edges(project) -> list[tuple]:
    conn = connect(project.db_path)
    try:
        return conn.execute(
            "SELECT e.type, e.link, a.kind, a.name, b.kind, b.name, e.source_kind, e.source_uri "
            "FROM graph_edges_sourced e "
            "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst"
        ).fetchall()
    finally:
        conn.close()


def test_graph_touches_a_module_returns_its_tasks_evidence_verdicts_and_commits_as_paths_of_sourced_edges(
    make_project, cli
):
    project = graph_repo.build(make_project)
    resync(project)
    result = cli("graph", "touches", "src/demo/fusion.py", "--json", "--project", str(project.root))
    assert result.code == 0, result.err
    answer = result.json()
    assert answer["mode"] == "graph" and answer["schema"] == "kenning.answer/v1"
    by_type = {}
    for ex in answer["excerpts"]:
        by_type.setdefault(ex["type"], []).append(ex)
        assert ex["path"], ex["title"]
        for edge in ex["path"]:
            assert {"type", "link", "source"} <= set(edge)
            assert edge["link"] in ("declared", "heuristic", "extracted")
            assert edge["source"]["uri"] and edge["source"]["kind"] in ("file", "commit")
    assert {"task", "evidence", "verdict", "commit", "decision"} <= set(by_type)
    assert [ex["title"] for ex in by_type["decision"]] == ["Fuse rankings with RRF"]  # ADR-0003 is superseded
    task = by_type["task"][0]
    assert task["title"].startswith("T-1") and [e["type"] for e in task["path"]] == ["touches"]
    assert task["path"][0]["source"]["uri"] == ".kenning/ledger.jsonl#task/T-1" and task["path"][0]["line"] >= 1
    verdict = by_type["verdict"][0]
    assert [e["type"] for e in verdict["path"]] == ["touches", "evidence_of", "verdict_of"]
    commit = next(c for c in by_type["commit"] if c["title"] == "Add rank fusion for T-1")
    assert commit["path"][0] == {**commit["path"][0], "type": "touches", "link": "declared"}
    assert commit["path"][0]["source"]["kind"] == "commit" and commit["freshness"]["state"] == "current"
    assert commit["dates"]["source"] == "2026-03-01T10:00:00Z"


def test_neighbours_of_rrf_fuse_give_its_file_line_range_and_its_callers_with_their_locations(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    answer = cli("graph", "neighbours", "rrf_fuse", "--json", "--project", str(project.root)).json()
    first = answer["excerpts"][0]
    assert first["path"] == [] and first["explain"]["node"] == {
        "kind": "symbol",
        "name": "demo.fusion.rrf_fuse",
        "path": "src/demo/fusion.py",
        "lines": [4, 6],
    }
    assert first["locations"][0]["uri"] == "src/demo/fusion.py:4-6"
    defines = [ex for ex in answer["excerpts"] if ex["path"] and ex["path"][0]["type"] == "defines"]
    assert defines[0]["explain"]["node"]["path"] == "src/demo/fusion.py"
    callers = {
        ex["explain"]["node"]["name"]: ex["path"][0]
        for ex in answer["excerpts"]
        if ex["path"] and ex["path"][0]["type"] == "calls" and ex["path"][0]["walked"] == "backward"
    }
    assert set(callers) == {
        "demo.search.hybrid",
        "demo.search.Engine.run",
        "tests.test_demo_fusion.test_rrf_fuse_orders",
    }
    hybrid = callers["demo.search.hybrid"]
    assert hybrid["source"]["uri"] == "src/demo/search.py:5-5" and hybrid["line"] == 5
    assert hybrid["from"]["lines"] == [4, 5] and hybrid["link"] == "extracted"


def test_no_heuristic_edge_is_ever_served_as_declared(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    stored = {}
    for type_, link, akind, _aname, bkind, _bname, _skind, suri in _edges(project):
        stored.setdefault((type_, akind, bkind, suri), set()).add(link)
    heuristic = [k for k, links in stored.items() if "heuristic" in links]
    assert any(k[0] == "touches" and k[2] == "task" for k in heuristic)  # "T-1" in a commit message
    conn = connect(project.db_path)
    names = [r[0] for r in conn.execute("SELECT key FROM graph_nodes")]
    conn.close()
    served = 0
    for key in names:
        for query in ("neighbours", "touches", "impact"):
            args = [
                "graph",
                query,
                key,
                "--json",
                "--project",
                str(project.root),
                "--limit",
                "200",
                "--include-superseded",
            ] + (["--hops", "2"] if query == "neighbours" else [])
            for ex in cli(*args).json()["excerpts"]:
                for edge in ex["path"]:
                    links = stored[(edge["type"], edge["from"]["kind"], edge["to"]["kind"], edge["source"]["uri"])]
                    assert edge["link"] in links
                    if links == {"heuristic"}:
                        assert edge["link"] == "heuristic"
                    served += 1
    assert served > 50


def test_a_superseded_adr_is_hidden_by_default_served_on_request_and_superseded_by_adr_0007(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    root = ("--project", str(project.root))
    hidden = cli("search", "BM25 only", "--json", *root).json()
    assert all("0003" not in ex["source"]["uri"] for ex in hidden["excerpts"])
    shown = cli("search", "BM25 only", "--json", "--include-superseded", *root).json()
    old = next(ex for ex in shown["excerpts"] if ex["source"]["uri"].startswith("docs/adr/0003"))
    assert old["lifecycle"] == "superseded" and old["type"] == "decision"
    new = cli("get", str(old["superseded_by"]), "--json", *root).json()["facts"][0]
    assert new["source"]["uri"].startswith("docs/adr/0007") and new["meta"]["decision"]["status"] == "accepted"
    assert new["dates"]["source"] == "2026-03-02T00:00:00Z"
    assert cli("graph", "neighbours", "ADR-0003", "--json", *root).json()["filtered"] == {"superseded": 1}
    graph = cli("graph", "neighbours", "ADR-0003", "--json", "--include-superseded", *root).json()
    supersedes = [e for ex in graph["excerpts"] for e in ex["path"] if e["type"] == "supersedes"]
    assert supersedes and all(e["from"]["name"] == "ADR-0007" and e["to"]["name"] == "ADR-0003" for e in supersedes)
    assert all(e["link"] == "declared" for e in supersedes)


def test_a_resync_with_nothing_changed_writes_nothing_to_the_graph_and_new_commits_alone_are_read(make_project):
    project = graph_repo.build(make_project)
    first = resync(project)
    assert first.graph["commits"] == 2 and first.graph["edges"] > 20
    digest = hashlib.sha256(project.db_path.read_bytes()).hexdigest()
    second = resync(project)
    assert second.writes == 0 and second.graph == {}
    assert hashlib.sha256(project.db_path.read_bytes()).hexdigest() == digest
    (project.root / "NOTES.txt").write_text("notes for T-2\n", encoding="utf-8")
    graph_repo.commit(project.root, "Notes for T-2", "2026-03-04T10:00:00+00:00")
    third = resync(project)
    assert third.graph["commits"] == 1
    assert ("touches", "heuristic", "commit", "task", "T-2") in {
        (e[0], e[1], e[2], e[4], e[5]) for e in _edges(project)
    }


def test_changing_a_file_rebuilds_its_part_and_keeps_edges_from_other_sources_pointing_at_it(make_project):
    project = graph_repo.build(make_project)
    resync(project)
    path = project.root / "src/demo/fusion.py"
    path.write_text(graph_repo.FUSION.replace("def _score", "\n\ndef _score"), encoding="utf-8")
    resync(project)
    edges = _edges(project)
    assert ("calls", "extracted", "symbol", "hybrid", "symbol", "rrf_fuse") in {e[:6] for e in edges}
    assert ("touches", "declared", "task", "T-1", "file", "src/demo/fusion.py") in {e[:6] for e in edges}
    path.unlink()
    resync(project)
    assert not [e for e in _edges(project) if "rrf_fuse" in (e[3], e[5])]


def test_typescript_files_give_symbol_excerpts_and_defines_and_imports_edges(make_project, cli):
    project = graph_repo.build(make_project)
    resync(project)
    answer = cli("graph", "neighbours", "web/app.ts", "--json", "--project", str(project.root)).json()
    defined = {
        ex["explain"]["node"]["name"] for ex in answer["excerpts"] if ex["path"] and ex["path"][0]["type"] == "defines"
    }
    assert {"Query", "Client", "Client.search", "main"} <= defined
    client = cli("search", "Client", "--json", "--project", str(project.root)).json()["excerpts"]
    assert any(ex["source"]["uri"].startswith("web/app.ts:7-") for ex in client)
    conn = connect(project.db_path)
    imports = conn.execute(  # '': a reference's origin is its node's (0017), a node's its path (0018)
        "SELECT r.target FROM graph_refs r JOIN graph_nodes n ON n.id = r.src "
        "WHERE r.type = 'imports' AND coalesce(nullif(r.origin, ''), nullif(n.origin, ''), n.path) = 'web/app.ts'"
    ).fetchall()
    conn.close()
    assert [r[0] for r in imports] == ["web/api"]
