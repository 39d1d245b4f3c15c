from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CODE = 'def rrf_fuse(rankings, k=60):\n    """Fuse rankings."""\n    return rankings\n'
DOC = "# Guide\n\n## Cache\n\nThe cache expires after ten minutes.\n"


@pytest.fixture
def project_dir(make_project):
    return make_project({"src/fusion.py": CODE, "docs/guide.md": DOC}).root


def test_search_json_follows_the_answer_contract(cli, project_dir):
    assert cli("sync", "--project", str(project_dir)).code == 0
    result = cli("search", "cache expires", "--json", "--project", str(project_dir))
    assert result.code == 0
    answer = result.json()
    assert answer["schema"] == "kenning.answer/v1"
    assert {"query", "scope", "mode", "rule", "level", "degradations", "empty_reason", "excerpts"} <= set(answer)
    [excerpt] = answer["excerpts"]
    assert {
        "id",
        "project",
        "type",
        "title",
        "snippet",
        "source",
        "dates",
        "freshness",
        "lifecycle",
        "score",
        "rank",
    } <= set(excerpt)
    assert set(excerpt["source"]) >= {"kind", "uri", "fingerprint"}
    assert set(excerpt["dates"]) >= {"source", "indexed", "confirmed"}
    assert excerpt["source"]["uri"] == "docs/guide.md#cache"
    assert len(excerpt["source"]["fingerprint"]) == 64
    assert excerpt["freshness"]["state"] == "current"
    assert excerpt["project"] == "demo" and excerpt["rank"] == 1


def test_text_output_carries_badge_uri_date_and_citation(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    out = cli("search", "rrf_fuse", "--project", str(project_dir)).out
    assert "[current]" in out and "src/fusion.py:1-3" in out and "kn://demo/" in out


def test_invalid_fts_syntax_exits_2_with_the_error_and_changes_nothing(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    db = project_dir / ".kenning" / "kenning.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    result = cli("search", "foo AND (", "--syntax", "fts", "--project", str(project_dir))
    assert result.code == 2
    assert "invalid search syntax" in result.err and result.out == ""
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_an_empty_result_is_success(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    result = cli("search", "zebra", "--json", "--project", str(project_dir))
    assert result.code == 0 and result.json()["empty_reason"] == "no_match"


def test_remember_get_supersede_confirm_forget_round_trip(cli, project_dir):
    first = cli(
        "remember", "Deploys happen on Tuesdays.", "--tags", "ops,deploy", "--json", "--project", str(project_dir)
    ).json()
    again = cli("remember", "Deploys happen on Tuesdays.", "--project", str(project_dir))
    assert f"already saved as kn://demo/{first['id']}" in again.out
    second = cli("remember", "Deploys happen on Thursdays.", "--json", "--project", str(project_dir)).json()
    got = cli("get", f"kn://demo/{first['id']}", str(second["id"]), "--json", "--project", str(project_dir)).json()
    assert [f["freshness"]["state"] for f in got["facts"]] == ["unverified", "unverified"]
    assert got["facts"][0]["tags"] == ["ops", "deploy"]
    assert cli("supersede", str(first["id"]), str(second["id"]), "--project", str(project_dir)).code == 0
    hits = cli("search", "deploys", "--json", "--project", str(project_dir)).json()["excerpts"]
    assert [h["id"] for h in hits] == [second["id"]]
    assert cli("confirm", str(second["id"]), "--project", str(project_dir)).code == 0
    assert cli("forget", str(second["id"]), "--reason", "wrong", "--project", str(project_dir)).code == 0
    missing = cli("get", str(second["id"]), "--project", str(project_dir))
    assert missing.code == 1 and f"error: no fact #{second['id']} in project 'demo'" in missing.err


def test_a_forgotten_fact_id_is_never_given_again(cli, project_dir):
    def remember(text: str) -> dict:
        return cli("remember", text, "--json", "--project", str(project_dir)).json()

    def forget(fact: dict) -> None:
        assert cli("forget", str(fact["id"]), "--project", str(project_dir)).code == 0

    first = remember("The newest fact, forgotten below.")
    forget(first)
    second = remember("A later fact.")  # one insert
    assert second["id"] > first["id"]
    old_citation = cli("get", f"kn://demo/{first['id']}", "--project", str(project_dir))
    assert old_citation.code == 1 and f"no fact #{first['id']}" in old_citation.err
    forget(second)  # the highest id again, then a sync's batch of new excerpts
    cli("sync", "--project", str(project_dir))
    synced = [
        f["id"]
        for f in cli("search", "cache OR rankings", "--syntax", "fts", "--json", "--project", str(project_dir)).json()[
            "excerpts"
        ]
    ]
    assert synced and min(synced) > second["id"]


def test_a_citation_from_another_project_is_refused_as_out_of_scope(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    result = cli("get", "1", "kn://elsewhere/1", "--project", str(project_dir))  # among this project's ids
    assert result.code == 1 and "belongs to project 'elsewhere'" in result.err
    alone = cli("get", "kn://elsewhere/1", "--project", str(project_dir))  # alone: read where it points
    assert alone.code == 1 and "no project 'elsewhere' is registered on this machine" in alone.err


def test_stale_json_lists_a_deleted_doc_as_source_missing(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    (project_dir / "docs" / "guide.md").unlink()
    listed = cli("stale", "--json", "--project", str(project_dir)).json()
    assert [(e["source"]["uri"], e["freshness"]["state"]) for e in listed["excerpts"]] == [
        ("docs/guide.md#guide", "source_missing"),
        ("docs/guide.md#cache", "source_missing"),
    ]


def test_commands_outside_a_project_fail_with_a_hint(cli, tmp_path):
    result = cli("search", "x", "--project", str(tmp_path))
    assert result.code == 1 and "kenning init" in result.err


def test_status_reports_level_and_engines_in_service(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    data = cli("status", "--json", "--project", str(project_dir)).json()
    assert data["level"] == 0 and data["engines"]["fts5"]["available"]
    assert data["engines"]["dense"]["available"] is False
    assert any("dense" in d for d in data["degradations"])
    assert data["engines"]["graph"]["available"] and data["engines"]["graph"]["edges"] > 0
    assert data["engines"]["core_pack"] == {
        "available": False,
        "reason": "core pack not built: run `kenning pack build`",
    }
    assert cli("pack", "build", "--project", str(project_dir)).code == 0
    built = cli("status", "--json", "--project", str(project_dir)).json()["engines"]["core_pack"]
    assert built["available"] and built["fingerprint"].startswith("sha256:")


def test_init_registers_the_project_and_projects_list_shows_it(cli, tmp_path):
    root = tmp_path / "fresh"
    root.mkdir()
    assert cli("init", "--project", str(root), "--name", "fresh").code == 0
    listed = cli("projects", "list", "--json").json()["projects"]
    row = next(r for r in listed if r["name"] == "fresh")
    assert (row["path"], row["readable"], row["state"], row["confidential"]) == (
        str(root.resolve()),
        True,
        "not_synced",
        False,
    )


def test_the_installed_console_script_runs_end_to_end(project_dir):
    exe = shutil.which("kenning", path=str(Path(sys.executable).parent))
    assert exe, "the kenning console script is installed with the package"
    subprocess.run([exe, "sync", "--project", str(project_dir)], check=True, capture_output=True)
    proc = subprocess.run([exe, "search", "rrf_fu", "--project", str(project_dir)], capture_output=True, text=True)
    assert proc.returncode == 0 and "src/fusion.py:1-3" in proc.stdout
    assert proc.stderr == ""


def test_a_damaged_store_is_a_clear_error_not_a_traceback(cli, project_dir):
    cli("sync", "--project", str(project_dir))
    (project_dir / ".kenning" / "kenning.db").write_bytes(b"garbage" * 1000)
    for name in ("kenning.db-wal", "kenning.db-shm"):
        (project_dir / ".kenning" / name).unlink(missing_ok=True)
    result = cli("sync", "--project", str(project_dir))
    assert result.code == 1
    assert "error: the project store cannot be read" in result.err and "Traceback" not in result.err
    assert "not a database" not in result.err  # SQLite's wording stays inside


def test_python_dash_m_kenning_runs_the_console_script(project_dir):
    """`python -m kenning` failed ("'kenning' is a package and cannot be directly executed"):
    an MCP client configured with the interpreter could not start the server."""
    import subprocess
    import sys

    from kenning import __version__

    done = subprocess.run([sys.executable, "-m", "kenning", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and __version__ in done.stdout, done.stderr
    for args, said in ((["sync"], "excerpts:"), (["search", "zzzunfindable"], "0 result(s)")):
        done = subprocess.run(
            [sys.executable, "-m", "kenning", *args, "--project", str(project_dir)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0 and said in done.stdout, (args, done.stdout, done.stderr)


def test_the_text_says_what_the_limit_left_out_in_words(cli, make_project):
    """``hidden: 2 past --limit`` (a walker read ``hidden: 2 limit`` as a limit of two); JSON keeps the key."""
    callers = "".join(f"\n\ndef caller_{i}():\n    return target()\n" for i in range(3))
    root = make_project({"app/core.py": "def target():\n    return 1\n" + callers}, name="limits").root
    assert cli("sync", "--no-embed", "--project", str(root)).code == 0
    text = cli("ask", "who calls target", "--limit", "1", "--project", str(root)).out
    assert "hidden: 2 past --limit" in text, text
    shown = cli("ask", "who calls target", "--limit", "1", "--json", "--project", str(root)).json()
    assert shown["filtered"]["limit"] == 2
