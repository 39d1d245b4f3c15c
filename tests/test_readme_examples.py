"""The README's query examples, run against this repository (a clone with the working tree's
files), answer without a degradation; "why did we choose SQLite" is answered from an ADR."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import resync
from kenning.answer.naming import typed_names
from kenning.config import init_project

ROOT = Path(__file__).resolve().parents[1]
QUERY_COMMANDS = ("ask", "search", "graph")


def readme_queries() -> list[list[str]]:
    """The `kenning ask|search|graph …` lines of the README's command block, comments cut."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for line in re.findall(r"^kenning .*$", text, flags=re.M):
        words = shlex.split(line.split("  #", 1)[0])
        if words[1] in QUERY_COMMANDS:
            found.append(words[1:])
    return found


@pytest.fixture(scope="module")
def repository(tmp_path_factory):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    target = tmp_path_factory.mktemp("readme") / "kenning"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(target)], check=True)
    listed = (
        subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"], check=True, capture_output=True
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):  # the working tree as it is, over the clone's history
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / name)
    return target


def test_the_readme_lists_relation_and_graph_examples():
    queries = readme_queries()
    assert ["ask", "why did we choose SQLite"] in queries
    assert any(q[0] == "graph" for q in queries) and any(q[0] == "search" for q in queries)


def test_the_readme_says_its_example_code_names_are_kennings_own_for_a_user_to_replace():
    """On a user's project ``rrf_fuse`` answers nothing: the block says whose names they are."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Use it on your project", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    comments = [line for line in block.splitlines() if line.lstrip().startswith("#")]
    names = {n for q in readme_queries() for n in typed_names(" ".join(q[1:])) if "_" in n or "/" in n}
    assert names >= {"rrf_fuse", "src/kenning/store/db.py"}
    for name in names:
        assert any(name in c and "kenning's own" in c and "yours" in c for c in comments), (name, comments)


def test_every_readme_query_example_answers_on_this_repository_without_degradation(
    repository, cli, monkeypatch, tmp_path
):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    project, _ = init_project(repository, "kenning")
    resync(project)
    for words in readme_queries():
        args = [*words, "--project", str(repository)]
        if "--json" not in args:
            args.append("--json")
        result = cli(*args)
        assert result.code == 0, (words, result.err)
        answer = result.json()
        assert answer["degradations"] == [], (words, answer["degradations"])
        assert answer["excerpts"], (words, answer["notes"])
        if words[:1] == ["ask"]:
            assert answer["mode"] == "graph", (words, answer["notes"])
    sqlite = cli("ask", "why did we choose SQLite", "--json", "--project", str(repository)).json()
    first = sqlite["excerpts"][0]
    assert first["type"] == "decision" and first["source"]["uri"].startswith("docs/adr/0001-one-sqlite-file")
    assert first["explain"]["relation"] == "decisions"
    callers = cli("ask", "what calls rrf_fuse", "--json", "--project", str(repository)).json()
    assert callers["excerpts"][0]["explain"]["relation"] == "callers"
    assert all(e["explain"]["node"]["name"] != "kenning.search.fusion.rrf_fuse" for e in callers["excerpts"])
