"""`kenning search --explain` in text: one line per result tracing its score — the base
ranking (BM25, trigram, or their RRF for a code name), each factor that moved it, the score."""

from __future__ import annotations

import re

import pytest

from conftest import resync
from kenning import registry
from kenning.config import kenning_home

FILES = {
    "src/fusion.py": 'def rrf_fuse(lists):\n    """Reciprocal rank fusion of ranked lists."""\n    return lists\n',
    "tests/test_fusion.py": "from fusion import rrf_fuse\n\n\ndef test_rrf_fuse():\n    assert rrf_fuse([]) == []\n",
    "docs/guide.md": "# Guide\n\n## Ranking\n\nBM25 ranks the excerpts of the ranking guide.\n",
}


@pytest.fixture
def project(make_project):
    project = make_project(FILES)
    resync(project)
    return project


def _explained(cli, project, *args: str) -> tuple[list[str], list[dict]]:
    """Each result's explain line (text) and its excerpt (JSON), in rank order."""
    text = cli("search", *args, "--explain", "--project", str(project.root))
    assert text.code == 0, text.err
    answer = cli("search", *args, "--explain", "--json", "--project", str(project.root)).json()
    blocks = re.split(r"\n(?=\d+\. \[)", text.out)[1:]
    lines = [[line.strip() for line in b.splitlines() if line.strip().startswith("explain:")] for b in blocks]
    assert [len(found) for found in lines] == [1] * len(answer["excerpts"]), text.out
    return [found[0] for found in lines], answer["excerpts"]


def test_each_result_has_one_explain_line_ending_in_its_score(project, cli):
    lines, excerpts = _explained(cli, project, "ranking guide")
    assert excerpts
    for line, excerpt in zip(lines, excerpts, strict=True):
        assert line.endswith(f"= {excerpt['score']:.4f}")
        assert line.startswith(f"explain: bm25 #{excerpt['explain']['bm25_rank']} {excerpt['explain']['bm25']:.4f}")


def test_a_code_name_shows_the_fused_ranks_the_definition_boost_and_the_test_demotion(project, cli):
    lines, excerpts = _explained(cli, project, "rrf_fuse")
    by_path = {e["source"]["uri"].split("#")[0].split(":")[0]: line for e, line in zip(excerpts, lines, strict=True)}
    definition = next(line for uri, line in by_path.items() if uri.startswith("src/fusion.py"))
    assert re.search(r"^explain: rrf \d\.\d{4} \(bm25 #\d+(, trigram #\d+)?\) × definition 3 = ", definition)
    test_file = next(line for uri, line in by_path.items() if uri.startswith("tests/test_fusion.py"))
    assert " × test file 0.5 = " in test_file


def test_a_stale_excerpt_shows_its_freshness_demotion(project, cli):
    (project.root / "docs" / "guide.md").write_text(
        "# Guide\n\n## Ranking\n\nBM25 now ranks the ranking guide's excerpts differently.\n", encoding="utf-8"
    )
    lines, excerpts = _explained(cli, project, "ranking guide")
    stale = [line for line, e in zip(lines, excerpts, strict=True) if e["freshness"]["state"] == "stale"]
    assert stale and all(" × freshness 0.5 = " in line for line in stale)


def test_without_explain_no_explain_line_is_printed(project, cli):
    out = cli("search", "rrf_fuse", "--project", str(project.root)).out
    assert "rrf_fuse" in out and "explain:" not in out


def test_across_projects_the_line_ends_with_the_project_rank_and_the_rrf_that_placed_it(make_project, cli):
    for name in ("alpha", "beta"):
        project = make_project({"docs/guide.md": f"# Guide {name}\n\n## Ranking\n\nBM25 ranks {name}.\n"}, name=name)
        resync(project)
        registry.register(kenning_home(), project.name, project.root)
    result = cli("search", "ranking", "--all-projects", "--explain", "--limit", "2")
    assert result.code == 0, result.err
    lines = [line.strip() for line in result.out.splitlines() if line.strip().startswith("explain:")]
    assert len(lines) == 2
    assert all(line.endswith("· project rank 1 → rrf 0.016393") for line in lines), lines  # both say "ranking"
    beta = make_project({"docs/other.md": "# Other\n\nNothing about it here.\n"}, name="gamma")
    resync(beta)
    registry.register(kenning_home(), beta.name, beta.root)
    result = cli("search", "ranking OR nothing", "--all-projects", "--explain", "--limit", "3")
    lines = [line.strip() for line in result.out.splitlines() if line.strip().startswith("explain:")]
    weighed = [line for line in lines if " × store weight " in line]
    assert weighed and all(line.split(" × store weight ")[1].startswith("0.") for line in weighed), lines
