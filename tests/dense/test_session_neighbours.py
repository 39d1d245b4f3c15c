"""Session neighbours in the hybrid fusion: a memory saved in an agent session gains a share of
the fused score of the memories saved just before and after it in the same session (the
question in one turn, its answer in the reply). Real SQLite store, real MiniLM from the
installed package; documents (no session) keep the plain convex order."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from conftest import NOW, module_home, write_files  # noqa: E402
from kenning import dense  # noqa: E402
from kenning.config import init_project, load_project  # noqa: E402
from kenning.dense import index as dense_index  # noqa: E402
from kenning.interfaces.render import answer_text  # noqa: E402
from kenning.memory.observations import Observation, save  # noqa: E402
from kenning.search import hybrid  # noqa: E402
from kenning.search.query import parse  # noqa: E402
from kenning.search.serve import SearchOptions  # noqa: E402
from kenning.store.db import connect  # noqa: E402

QUESTION = "what eviction policy did the image service choose"
ANSWER = "Least recently used, capped at a thousand entries: the oldest thumbnails go first."
SESSIONS = {
    "s1": [
        ("Ana", "Which eviction policy should the image service use for its thumbnail cache?"),
        ("Ben", ANSWER),
        ("Ana", "Fine, I will write it down in the design notes tomorrow."),
    ],
    "s2": [
        ("Ana", "The cache directory lives under /var/tmp and is cleared on every deploy."),
        ("Ben", "Cache hits and misses are logged at debug level by the image service."),
        ("Ana", "The thumbnail service runs three workers behind the load balancer."),
        ("Ben", "Deploys happen on Tuesdays after the test suite passes."),
    ],
}
DOCS = {
    "docs/cache.md": "# Cache\n\nThe thumbnail cache evicts the least recently used entries.\n",
    "docs/deploy.md": "# Deploys\n\nDeploys run on Tuesdays once the suite passes.\n",
    "docs/workers.md": "# Workers\n\nThree workers serve thumbnails behind the load balancer.\n",
}


@pytest.fixture(scope="module")
def talked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """A project holding two agent sessions as memories and three documents, fully embedded."""
    root = tmp_path_factory.mktemp("neighbours") / "project"
    root.mkdir()
    write_files(root, DOCS)
    from kenning.sync.run import sync

    with module_home(tmp_path_factory):
        init_project(root, "neighbours")
        with (root / ".kenning" / "config.toml").open("a", encoding="utf-8") as handle:
            handle.write("\n[dense]\nenabled = true\nmultilingual = false\n")
        sync(load_project(root), now=NOW)
        project = load_project(root)
    conn = connect(project.db_path)
    ids = {}
    for session, turns in SESSIONS.items():
        for speaker, text in turns:
            obs = Observation(text=text, title=speaker, session_id=session, memory_type="working")
            ids[text] = save(conn, project.name, obs, now=NOW).fact_id
    conn.commit()
    summary = dense.update(conn, project)
    assert summary["embedders"]["minilm"]["embedded"] == summary["embedders"]["minilm"]["total"] == 10
    conn.close()
    return root, ids


def served(root: Path, question: str, fusion: hybrid.Fusion | None = None, *, explain: bool = False):
    project = load_project(root)
    conn = connect(project.db_path)
    embedder = dense_index.embedders(project)["minilm"]
    options = SearchOptions(limit=10, explain=explain)
    try:
        return hybrid.search(conn, project, parse(question), options, now=NOW, embedder=embedder, fusion=fusion)
    finally:
        conn.close()


def test_the_reply_to_the_matching_question_rises_with_its_session_neighbour(talked):
    root, ids = talked
    question_turn = ids[SESSIONS["s1"][0][1]]
    plain = [e.fact.id for e in served(root, QUESTION, replace(hybrid.FUSION, neighbour=0.0)).excerpts]
    boosted = [e.fact.id for e in served(root, QUESTION).excerpts]
    assert plain[0] == boosted[0] == question_turn
    assert plain.index(ids[ANSWER]) > 1  # without neighbours the answer sits below other cache talk
    assert boosted.index(ids[ANSWER]) == 1  # the reply to the best match comes right after it
    assert sorted(plain) == sorted(boosted)  # re-ordered, nothing added or dropped


def test_explain_names_the_neighbour_and_its_contribution(talked):
    root, ids = talked
    answer = served(root, QUESTION, explain=True)
    reply = next(e for e in answer.excerpts if e.fact.id == ids[ANSWER])
    part = reply.explain["lists"]["neighbour"]
    assert part["fact"] == ids[SESSIONS["s1"][0][1]]
    top = answer.excerpts[0].explain["lists"]
    fused_top = top["lexical"]["contribution"] + top["dense"]["contribution"]
    assert part["contribution"] == pytest.approx(hybrid.FUSION.neighbour * fused_top, abs=1e-5)
    assert "session neighbours 0.4" in reply.explain["fusion"]
    assert f"neighbour (fact {part['fact']}) +{part['contribution']:.4f}" in answer_text(answer)


def test_excerpts_outside_sessions_keep_the_plain_convex_order(talked):
    root, ids = talked
    for question in ("how are thumbnails evicted from the cache", "when do deploys happen", "load balancer workers"):
        plain = served(root, question, replace(hybrid.FUSION, neighbour=0.0), explain=True).excerpts
        boosted = served(root, question, explain=True).excerpts
        documents = [e.fact.id for e in plain if e.fact.source.kind == "file"]
        assert documents and documents == [e.fact.id for e in boosted if e.fact.source.kind == "file"]
        assert all("neighbour" not in e.explain["lists"] for e in boosted if e.fact.source.kind == "file")


def test_boost_neighbours_adds_the_share_of_the_better_neighbour_and_keeps_ties_in_order():
    found = [(1, 1.0, {}), (2, 0.5, {}), (3, 0.5, {}), (4, 0.2, {})]
    neighbours = {2: (None, 4), 3: (1, 9), 4: (2, None)}  # 9 is not a candidate: it counts for nothing
    boosted = hybrid.boost_neighbours(found, neighbours, 0.5)
    assert [(key, round(score, 6)) for key, score, _ in boosted] == [(1, 1.0), (3, 1.0), (2, 0.6), (4, 0.45)]
    assert boosted[1][2]["neighbour"] == {"fact": 1, "contribution": 0.5}
    assert hybrid.boost_neighbours(found, neighbours, 0.0) is found
