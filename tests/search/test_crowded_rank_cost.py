"""An answer whose files crowd it (a file's excerpts past ``PER_FILE`` weighed down in turn) is
picked from a heap, and asked again whether deeper hits can still enter only as the scored hits
grow: the picks were made again at every scored hit, each scanning every hit left, and commits
were checked one git process each, so that "how do I test a websocket endpoint" on express (its
tests crowded by file) ran past the query budget at the default limit (docs/benchmarks.md,
"crowdcost"). The picks are the same as scanning every hit left for each one."""

from __future__ import annotations

import random
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, commit_all, git, module_store, resync
from kenning.answer.ask import ask_project
from kenning.answer.graph import GraphOptions, run_query
from kenning.answer.search import SearchOptions, search_conn
from kenning.freshness import FileCheck, commit_reads
from kenning.ingest.spans import split
from kenning.search.query import parse
from kenning.search.ranker import Ranker
from kenning.search.weights import COPY_FACTOR, FILE_REPEAT_FACTOR, PER_FILE
from kenning.store.db import open_store

WORDS = ("socket", "frame", "close", "handshake", "ping", "buffer", "event", "stream")


def _crowded() -> dict[str, str]:
    """Test modules of thirty short tests each, repeating the question's words (demoted, and
    crowding the answer by file), and a few modules of code that say them once."""
    rng = random.Random(7)
    files = {}
    for m in range(24):
        tests = [
            f'def test_socket_{m}_{t}():\n    """socket {rng.choice(WORDS)} {rng.choice(WORDS)}."""\n    assert True\n'
            for t in range(30)
        ]
        files[f"tests/test_socket{m}.py"] = "\n\n".join(tests)
    for m in range(4):
        files[f"src/socket{m}.py"] = f'def open_socket_{m}(url):\n    """Open a socket to url: {" ".join(WORDS)}."""\n'
    return files


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    with module_store(tmp_path_factory, _crowded()) as store:
        yield store


def test_a_crowded_answer_is_picked_again_as_the_hits_grow_not_at_each_one(crowded, monkeypatch):
    project, conn = crowded
    picks, scored = [], []
    real_ranked, real_score = Ranker._ranked, Ranker._score

    def counted_ranked(self):
        if self._top is None:
            picks.append(len(self.scored))
        return real_ranked(self)

    def counted_score(self, *args):
        scored.append(1)
        return real_score(self, *args)

    monkeypatch.setattr(Ranker, "_ranked", counted_ranked)
    monkeypatch.setattr(Ranker, "_score", counted_score)
    options = SearchOptions(limit=100, per_file=PER_FILE)
    answer = search_conn(conn, project, parse("socket frame"), options, now=NOW)
    assert len(answer.excerpts) == 100
    assert len(scored) > 150  # deep: the tests are demoted and crowd each other out
    # picked again each time the scored hits grew by an eighth: about 8 × ln(scored / limit) times
    assert 0 < len(picks) <= 40, (len(picks), len(scored))
    # ... and the answer is the one the same question gives at a smaller limit
    smaller = search_conn(conn, project, parse("socket frame"), SearchOptions(limit=30, per_file=PER_FILE), now=NOW)
    assert [e.fact.id for e in smaller.excerpts] == [e.fact.id for e in answer.excerpts][:30]


def _by_scanning(items, limit: int, per_file: int) -> list[tuple[int, float]]:
    """The picks as the ranker made them before the heap: each the best of every hit left once the
    picks so far weigh it (``(tier, score, order, file, copy key)`` items)."""
    left, counts, copies, top = list(items), {}, {}, []
    while left and len(top) < limit:
        best = None
        for item in left:
            tier, score, order, path, key = item
            weight = FILE_REPEAT_FACTOR ** max(0, counts.get(path, 0) - per_file + 1)
            elsewhere = sum(n for other, n in copies.get(key, {}).items() if other != path)
            candidate = ((tier, -score * weight * COPY_FACTOR**elsewhere, order), item)
            best = candidate if best is None or candidate[0] < best[0] else best
        (tier, weighed, order), item = best
        left.remove(item)
        counts[item[3]] = counts.get(item[3], 0) + 1
        copies.setdefault(item[4], {})
        copies[item[4]][item[3]] = copies[item[4]].get(item[3], 0) + 1
        top.append((order, -weighed))
    return top


HITS = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=1),  # tier
        st.sampled_from([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),  # score: ties on purpose
        st.integers(min_value=0, max_value=5),  # file
        st.integers(min_value=0, max_value=3),  # copy key
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hits=HITS, limit=st.integers(min_value=1, max_value=40), per_file=st.integers(min_value=1, max_value=3))
def test_the_heap_picks_what_scanning_every_hit_left_picked(crowded, hits, limit, per_file):
    project, conn = crowded
    ranking = Ranker(conn, project, (), SearchOptions(limit=limit, per_file=per_file), now=NOW)
    items = sorted(
        ((tier, score, order, f"f{path}", f"k{key}") for order, (tier, score, path, key) in enumerate(hits)),
        key=lambda item: (item[0], -item[1], item[2]),
    )
    ranking.scored = [(tier, score, order, None, None, None) for tier, score, order, _, _ in items]
    ranking._files = {order: path for _, _, order, path, _ in items}
    ranking._copies = {order: ("copy", key) for _, _, order, _, key in items}  # a ``copy_key``: any file's
    ranking._crowded = True
    expected = _by_scanning([(t, s, o, p, ("copy", k)) for t, s, o, p, k in items], limit, per_file)
    assert [(item[2], item[1]) for item in ranking._ranked()] == expected


def test_commits_are_checked_in_one_git_process(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    shas = []
    for i in range(5):
        (root / "a.txt").write_text(f"{i}\n")
        shas.append(commit_all(root, f"change {i}"))
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    absent = "0123456789abcdef0123456789abcdef01234567"
    odd = "HEAD"  # not an id as a sync stores one: asked alone, as before
    asked = [*shas, tree, absent, odd]
    expected = {sha: commit_reads(str(root), sha) for sha in asked}
    assert list(expected.values()) == [True] * 5 + [False, False, True]
    runs: list[list[str]] = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: runs.append(args) or real(args, **kw))
    files = FileCheck(root, None, split)
    files.preload_commits(asked)
    assert len(runs) == 1 and runs[0][-2:] == ["cat-file", "--batch-check"]
    assert {sha: files.commit_exists(sha) for sha in asked} == expected
    assert len(runs) == 2  # the odd one, asked alone
    files.preload_commits(shas)  # known: git is not asked again
    assert len(runs) == 2


def test_commits_read_missing_when_git_cannot_answer(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no git here
    files = FileCheck(tmp_path, None, split)
    files.preload_commits(["0123456789abcdef", "fedcba9876543210"])
    assert files.commit_exists("0123456789abcdef") is False


def test_an_answer_asks_git_about_its_commits_a_chunk_at_a_time(make_project, monkeypatch):
    project = make_project({"src/app.py": "def main():\n    return 0\n"})
    commit_all(project.root)
    for i in range(40):
        (project.root / "src" / "app.py").write_text(f"def main():\n    return {i + 1}\n")
        commit_all(project.root, f"socket frame fix {i}")
    resync(project)
    runs: list[list[str]] = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: runs.append(args) or real(args, **kw))
    answer = ask_project(project, "socket frame fix", now=NOW, limit=30)
    served = [e for e in answer.excerpts if e.fact.type == "commit"]
    assert len(served) == 30 and all(e.freshness.state.value == "current" for e in served)
    checks = [args for args in runs if "cat-file" in args]
    assert 1 <= len(checks) <= 3, checks  # one per chunk read (30, then 60 hits), not one per commit
    runs.clear()
    conn = open_store(project)
    try:
        touched = run_query(conn, project, "touches", "src/app.py", GraphOptions(limit=30), now=NOW)
    finally:
        conn.close()
    assert len(touched.excerpts) == 30 and all(e.freshness.state.value == "current" for e in touched.excerpts)
    assert len([args for args in runs if "cat-file" in args]) == 1  # the commits, and the edges' sources
