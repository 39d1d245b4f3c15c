"""`kenning hook session-start`: the pack as Claude Code's SessionStart context, never failing."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import NOW, bump_mtime, resync
from kenning.pack.session import NOT_BUILT

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "core_corpus"


def corpus_files() -> dict[str, str]:
    return {str(p.relative_to(CORPUS)): p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*")) if p.is_file()}


def hook(cli, project) -> tuple[int, str]:
    result = cli("hook", "session-start", "--project", str(project.root))
    payload = json.loads(result.out)
    assert set(payload) == {"hookSpecificOutput"}
    assert payload["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    return result.code, payload["hookSpecificOutput"]["additionalContext"]


def status_line(context: str) -> str:
    return context.splitlines()[0]


def test_with_no_pack_the_hook_prints_the_not_built_line_and_exits_0(make_project, cli):
    project = make_project(corpus_files())
    resync(project)
    code, context = hook(cli, project)
    assert code == 0 and context == NOT_BUILT


def test_outside_any_project_the_hook_still_exits_0_with_the_line(tmp_path, cli):
    result = cli("hook", "session-start", "--project", str(tmp_path))
    assert result.code == 0
    context = json.loads(result.out)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith(NOT_BUILT) and "no kenning project" in context


def test_a_corrupt_manifest_becomes_the_status_line_not_a_failure(make_project, cli):
    project = make_project(corpus_files())
    resync(project)
    assert cli("pack", "build", "--project", str(project.root)).code == 0
    (project.state_dir / "cache" / "pack.json").write_text("{not json", encoding="utf-8")
    code, context = hook(cli, project)
    assert code == 0 and context.startswith(NOT_BUILT)


def test_a_built_pack_is_injected_with_its_status_line(make_project, cli):
    project = make_project(corpus_files())
    resync(project)
    manifest = json.loads(cli("pack", "build", "--project", str(project.root), "--json").out)
    code, context = hook(cli, project)
    assert code == 0
    assert (
        status_line(context) == f"project core: 2 decisions, 3 conventions, fingerprint {manifest['fingerprint'][7:19]}"
    )
    assert (project.state_dir / "cache" / "pack.md").read_text(encoding="utf-8").rstrip() in context


def test_changing_one_decision_changes_the_fingerprint_and_the_next_session_start_names_it(make_project, cli):
    project = make_project(corpus_files())
    resync(project)
    before = json.loads(cli("pack", "build", "--project", str(project.root), "--json").out)
    hook(cli, project)  # the previous session start
    adr = project.root / "docs" / "adr" / "0002-rrf-fusion.md"
    adr.write_text(adr.read_text(encoding="utf-8").replace("k = 60", "k = 20"), encoding="utf-8")
    bump_mtime(adr)
    resync(project, NOW)
    _, stale_context = hook(cli, project)
    assert "the store changed since the pack was built" in status_line(stale_context)
    after = json.loads(cli("pack", "build", "--project", str(project.root), "--json").out)
    assert after["fingerprint"] != before["fingerprint"]
    changed = [d for d in after["decisions"] if d["fingerprint"] not in {b["fingerprint"] for b in before["decisions"]}]
    assert [d["title"] for d in changed] == ["Fuse rankings with RRF"]
    code, context = hook(cli, project)
    assert code == 0
    assert status_line(context).startswith("1 decision changed: Fuse rankings with RRF; project core: 2 decisions")
    _, quiet = hook(cli, project)  # said once: the next start is back to the plain line
    assert status_line(quiet).startswith("project core: 2 decisions")


def test_a_new_decision_is_named_as_added(make_project, cli):
    project = make_project(corpus_files())
    resync(project)
    cli("pack", "build", "--project", str(project.root))
    hook(cli, project)
    (project.root / "docs" / "adr" / "0004-trigram.md").write_text(
        "---\ntype: decision\n---\n# Index identifiers with trigrams\n\n"
        "## Decision\n\nTitles and paths get a trigram index.\n",
        encoding="utf-8",
    )
    resync(project)
    cli("pack", "build", "--project", str(project.root))
    _, context = hook(cli, project)
    assert status_line(context).startswith(
        "1 decision added: Index identifiers with trigrams; project core: 3 decisions"
    )


def test_the_project_comes_from_claude_project_dir_when_not_given(make_project, cli, monkeypatch, tmp_path):
    project = make_project(corpus_files())
    resync(project)
    cli("pack", "build", "--project", str(project.root))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project.root))
    monkeypatch.chdir(tmp_path)
    result = cli("hook", "session-start", "--plain")
    assert result.code == 0 and result.out.splitlines()[0].startswith("project core: 2 decisions")


def test_the_hook_finds_the_project_exactly_as_the_config_loader_does(make_project, tmp_path):
    from kenning.config import find_root
    from kenning.interfaces import session_start
    from kenning.project import CONFIG_NAME, DB_NAME, STATE_DIR

    project = make_project({"src/deep/x.md": "# X\n"})
    assert (session_start.STATE_DIR, session_start.CONFIG_NAME, session_start.DB_NAME) == (
        STATE_DIR,
        CONFIG_NAME,
        DB_NAME,
    )
    deep = project.root / "src" / "deep"
    assert Path(session_start.find_state_dir(deep)) == find_root(deep) / STATE_DIR


def test_the_console_script_serves_the_hook_without_importing_click(make_project, cli):
    import subprocess
    import sys

    project = make_project(corpus_files())
    resync(project)
    cli("pack", "build", "--project", str(project.root))
    code = (
        "import sys\n"
        "from kenning.interfaces.cli.entry import run\n"
        "try:\n    run(['hook', 'session-start', '--project', sys.argv[1]])\n"
        "except SystemExit as e:\n    assert e.code == 0, e.code\n"
        "assert 'click' not in sys.modules, 'click was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(project.root)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"].startswith("project core: 2 decisions")


def test_one_decision_and_one_convention_are_counted_in_the_singular(make_project, cli):
    project = make_project(
        {
            "README.md": "# Shop\n\nA shop.\n",
            "docs/adr/0001-use-sqlite.md": "# Use SQLite\n\n## Decision\n\nWe use SQLite for the catalogue.\n",
            "CONVENTIONS.md": "# Conventions\n\n## Naming\n\nAlways use snake_case for module names.\n",
        }
    )
    resync(project)
    built = cli("pack", "build", "--project", str(project.root))
    assert built.code == 0 and built.out.startswith("project core: 1 decision, 1 convention, fingerprint ")
    code, context = hook(cli, project)
    assert code == 0 and status_line(context).startswith("project core: 1 decision, 1 convention, fingerprint ")


def test_the_plain_output_shows_control_characters_instead_of_sending_them(tmp_path, cli):
    """As every other command's text output: `--plain` goes to a terminal."""
    where = tmp_path / "odd\x1b[2Jname"
    where.mkdir()
    plain = cli("hook", "session-start", "--plain", "--project", str(where))
    assert plain.code == 0
    assert "\x1b" not in plain.out and "odd\\x1b[2Jname" in plain.out
    hooked = json.loads(cli("hook", "session-start", "--project", str(where)).out)  # JSON carries it as data
    assert "odd\x1b[2Jname" in hooked["hookSpecificOutput"]["additionalContext"]
