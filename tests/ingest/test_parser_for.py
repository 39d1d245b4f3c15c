"""`parser_for` reads a path's suffix as `PurePosixPath.suffix` does (without building a path:
a sync asks for every file), case-insensitively, then a few whole names (`Makefile`)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kenning.ingest.parsers import _BY_NAME, _BY_SUFFIX, SCRIPT_PARSER, parser_for

NAMES = ["a.py", "dir/a.PY", "x/.bashrc", "a.", ".md", "a.tar.gz", "dir.d/README", "dir.md/x", "a.b.md",
         "..md", "a..md", "x/y/z.Rs", "noext", "docs/guide.MDX", "a/b/c.txt"]  # fmt: skip


def _by_pathlib(path: str) -> str | None:
    pure = PurePosixPath(path)
    return _BY_SUFFIX.get(pure.suffix.lower()) or _BY_NAME.get(pure.name.lower())


@pytest.mark.parametrize("path", NAMES)
def test_parser_for_reads_the_suffix_as_pathlib_does(path: str) -> None:
    assert parser_for(path) == _by_pathlib(path)


def test_known_kinds_are_found() -> None:
    assert parser_for("src/app.py") is not None and parser_for("README.MD") == parser_for("README.md") is not None
    assert parser_for("Makefile") == parser_for("src/makefile") == SCRIPT_PARSER
    assert parser_for(".md") is None and parser_for("LICENSES") is None and parser_for("bin/deploy") is None
    # a project's documents by their customary names, without a suffix: plain text, as ``.txt`` is
    assert parser_for("LICENSE") == parser_for("ChangeLog") == parser_for("docs/INSTALL") == parser_for("a.txt")
    assert parser_for("LICENSE-MIT") == parser_for("LICENSE-APACHE") == parser_for("UNLICENSE") == parser_for("a.txt")
    # an agent's rules for the project, written in Markdown (Cursor's ``.mdc``), are documents
    assert parser_for(".cursor/rules/test-running.mdc") == parser_for("README.md")
    assert parser_for(".cursorrules") == parser_for("app/.windsurfrules") == parser_for(".clinerules") == "markdown/9"
    # a data project's reports: Quarto and R Markdown
    assert parser_for("reports/churn.qmd") == parser_for("analysis.Rmd") == "markdown/9"


@given(st.lists(st.sampled_from(["a", "b", ".", "/", "md", "py", "MD", "rs", "txt", "é"]), max_size=12))
def test_parser_for_agrees_with_pathlib_on_generated_paths(parts: list[str]) -> None:
    # discovery hands normalised relative paths: no empty or "." components ("a.md/." is "a.md" to pathlib)
    path = "/".join(c for c in "".join(parts).split("/") if c not in ("", ".")) or "a"
    assert parser_for(path) == _by_pathlib(path)


def test_an_agents_rules_file_answers_as_a_document(cli, make_project):
    rules = "---\ndescription: How to run tests\nalwaysApply: false\n---\n\n# Running tests\n\nRun `pnpm test` once.\n"
    project = make_project({".cursor/rules/tests.mdc": rules, ".windsurfrules": "# Style\n\nTabs, never spaces.\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    found = cli("ask", "how do I run the tests", "--project", str(project.root), "--json").json()
    assert found["excerpts"][0]["source"]["uri"] == ".cursor/rules/tests.mdc#running-tests"
    style = cli("search", "tabs spaces", "--project", str(project.root), "--json").json()
    assert [e["source"]["uri"] for e in style["excerpts"]] == [".windsurfrules#style"]


def test_every_parser_version_is_in_docs_parsers_md():
    """A bump of a parser's version is said in docs/parsers.md, whose table lists each current one."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "parsers.md").read_text(encoding="utf-8")
    listed = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `")}
    assert listed == set(_BY_SUFFIX.values()) | set(_BY_NAME.values())
