"""Dense vectors at level 2 with the real dense extra: `kenning sync` embeds into PostgreSQL as
it does into SQLite (the same vectors), `ask` answers a paraphrase in hybrid mode from the
server, and `status` says how vectors are searched there."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from pg_engine import server_url

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

import kenning.dense  # noqa: E402
from conftest import DENSE_DOCS, write_files  # noqa: E402
from kenning.config import load_project  # noqa: E402
from kenning.store import facts, vectors  # noqa: E402
from kenning.store.db import connect, open_store  # noqa: E402

pytestmark = pytest.mark.postgres
DOCS = DENSE_DOCS
PARAPHRASE = "stop a request that takes too long"  # no word of docs/cancel.md


@pytest.fixture
def dense_project(make_project, monkeypatch):
    monkeypatch.setattr(kenning.dense, "ENABLED", True)
    monkeypatch.setenv("KENNING_NOW", "2026-11-30T00:00:00Z")
    project = make_project({}, name=f"pg-dense-{uuid.uuid4().hex[:10]}", config="[dense]\nenabled = true\n")
    write_files(project.root, DOCS)
    return project


def test_sync_embeds_into_postgresql_and_ask_answers_in_hybrid_mode(cli, dense_project, monkeypatch):
    root = str(dense_project.root)
    local = cli("sync", "--project", root, "--json").json()["dense"]
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    remote = cli("sync", "--project", root, "--json").json()["dense"]
    assert remote["available"] is True
    assert {n: e["embedded"] for n, e in remote["embedders"].items()} == {
        n: e["embedded"] for n, e in local["embedders"].items()
    }
    assert all(e["embedded"] == e["total"] == len(DOCS) for e in remote["embedders"].values())
    answer = cli("ask", PARAPHRASE, "--project", root, "--json").json()
    assert (answer["mode"], answer["level"]) == ("hybrid", 2)
    assert not [d for d in answer["degradations"] if d.startswith("dense")]
    assert answer["excerpts"][0]["title"] == "Cancelling slow calls"
    status = cli("status", "--project", root, "--json").json()
    dense = status["engines"]["dense"]
    assert status["level"] == 2 and dense["available"] is True
    assert dense["search"] in (  # Debian's PostgreSQL has no pgvector (tests/store/test_pg_vector.py: with it)
        "exact: bytea vectors scored in the client (pgvector is not available on this server)",
        "exact: bytea vectors scored in the client (pgvector is available on this server, but kenning's "
        "migration could not create it in this database)",
    )
    assert dense["approximate"] is False and "ef_search" not in dense
    text = cli("status", "--project", root).out
    assert f"dense search: {dense['search']}" in text.splitlines()
    assert not any("dense" in d for d in status["degradations"])
    again = cli("sync", "--project", root, "--json").json()["dense"]
    assert all(e["added"] == 0 for e in again["embedders"].values())


def test_the_server_holds_the_same_vectors_as_the_local_file_and_only_this_projects(cli, dense_project, monkeypatch):
    root = str(dense_project.root)
    cli("sync", "--project", root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    cli("sync", "--project", root)
    server = load_project(dense_project.root)
    local = connect(dense_project.db_path)
    remote = open_store(server)
    try:
        for name in ("minilm", "use"):
            dimension = vectors.manifest(remote, name)["dimension"]
            assert vectors.manifest(remote, name) | {"created": ""} == vectors.manifest(local, name) | {"created": ""}
            ids_pg, pg_matrix = vectors.load(remote, name, dimension)
            ids_sqlite, sqlite_matrix = vectors.load(local, name, dimension)
            assert len(ids_pg) == len(DOCS)
            assert np.allclose(
                pg_matrix[np.argsort([_uri(remote, i) for i in ids_pg])],
                sqlite_matrix[np.argsort([_uri(local, i) for i in ids_sqlite])],
                atol=1e-6,
            )
        other = remote.execute(
            "SELECT count(*) FROM dense_vectors v JOIN facts f ON f.id = v.fact_id WHERE v.project = %s "
            "AND f.project <> v.project",
            (remote.project,),
        ).fetchone()[0]
        assert other == 0
    finally:
        local.close()
        remote.close()


def _uri(conn, fact_id: int) -> str:
    return facts.get_many(conn, "p", [int(fact_id)])[int(fact_id)].source.uri


def test_a_note_saved_into_a_complete_index_on_postgresql_is_embedded_and_answers_stay_hybrid(
    cli, dense_project, monkeypatch
):
    root = str(dense_project.root)
    monkeypatch.setenv("KENNING_DATABASE_URL", server_url())
    assert cli("sync", "--project", root, "--json").code == 0
    saved = cli("remember", "We deploy on Wednesdays now", "--project", root, "--json").json()
    assert saved["dense"] == {"embedded": ["minilm", "use"]}
    status = cli("status", "--project", root, "--json").json()
    assert status["level"] == 2 and not [d for d in status["degradations"] if d.startswith("dense")]
    assert cli("ask", "when do we deploy", "--project", root, "--json").json()["mode"] == "hybrid"
    assert cli("forget", str(saved["id"]), "--project", root).code == 0
    conn = open_store(load_project(dense_project.root))
    try:
        assert [vectors.coverage(conn, name) for name in ("minilm", "use")] == [(len(DOCS), len(DOCS))] * 2
    finally:
        conn.close()
