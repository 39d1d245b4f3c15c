"""``vectors.drop_stale`` (run for each model at every sync with dense) deletes exactly the
vectors of facts no longer active or whose text changed, looking each vector's fact up by its
id: it was a scan of the active facts per vector, 5.7 s for the 4,501 vectors of this
repository's complete multilingual index, taken from every sync's embedding budget."""

from __future__ import annotations

import numpy as np

from kenning.records import Lifecycle
from kenning.store import facts as fact_store
from kenning.store import vectors
from kenning.store.db import connect, transaction

STAMP = "2026-11-29T12:00:00Z"
MANIFEST = {"model_id": "m", "weights_sha256": "0" * 64, "dimension": 4, "pooling": "mean", "fingerprint": "f"}


def _store(tmp_path, count: int) -> tuple:
    conn = connect(tmp_path / "kenning.db", create=True)
    with transaction(conn):
        ids = [
            fact_store.insert(
                conn,
                fact_store.NewFact(
                    type="fact",
                    title=f"note {i}",
                    body=f"body {i}",
                    source_kind="manual",
                    source_uri="manual:test",
                    producer="human",
                    date_indexed=STAMP,
                ),
            )
            for i in range(count)
        ]
        hashes = dict(conn.execute("SELECT id, content_hash FROM facts").fetchall())
        vectors.reset(conn, "minilm", MANIFEST, created=STAMP)
        vectors.put(conn, "minilm", ((i, hashes[i], np.ones(4, dtype=np.float32)) for i in ids))
    return conn, ids, hashes


def test_drop_stale_deletes_the_vectors_of_retired_and_changed_facts_only(tmp_path):
    conn, ids, hashes = _store(tmp_path, 40)
    retired, changed = set(ids[::7]), set(ids[3::11]) - set(ids[::7])
    with transaction(conn):
        for fact_id in retired:
            fact_store.set_lifecycle(conn, fact_id, Lifecycle.RETIRED, when=STAMP)
        vectors.put(conn, "minilm", ((i, "an older text", np.ones(4, dtype=np.float32)) for i in changed))
        assert vectors.drop_stale(conn, "minilm") == len(retired) + len(changed)
    kept = {row[0] for row in conn.execute("SELECT fact_id FROM dense_vectors")}
    assert kept == set(ids) - retired - changed
    assert vectors.coverage(conn, "minilm") == (len(kept), len(ids) - len(retired))
    conn.close()


def test_drop_stale_work_grows_with_the_vectors_not_with_vectors_times_facts(tmp_path):
    """SQLite virtual-machine steps (``set_progress_handler``), not time: deterministic."""
    steps = []
    for count in (500, 2000):
        (tmp_path / str(count)).mkdir()
        conn, _, _ = _store(tmp_path / str(count), count)
        calls = [0]

        def tick(calls: list[int] = calls) -> int:
            calls[0] += 1
            return 0

        conn.set_progress_handler(tick, 100)
        with transaction(conn):
            assert vectors.drop_stale(conn, "minilm") == 0
        conn.set_progress_handler(None, 0)
        steps.append(calls[0])
        conn.close()
    # 4 times the vectors: about 4 times the work (a scan per vector made it 16 times)
    assert steps[1] < 6 * steps[0], steps
