"""The cockpit answers questions on store connections it keeps (``interfaces/serve.py``), as
``memory_ask`` does: the same answers as a one-shot ask, also after the store changed."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient
from web_corpus import NOW, build_corpus, write

from kenning.answer.ask import ask_project
from kenning.interfaces.render import to_json_text
from kenning.interfaces.serve import Connections
from kenning.memory.observations import Observation
from kenning.memory.observations import save as save_observation
from kenning.store.db import connect
from kenning.sync.run import sync

QUESTION = "how is freshness computed"


def _free(kept: Connections) -> list:
    """The connections kept free for the next request (without when each was handed back)."""
    return [conn for conn, _ in kept._free]


def _one_shot(project, question: str = QUESTION, limit: int = 10) -> str:
    return to_json_text(ask_project(project, question, now=NOW, limit=limit).to_json()) + "\n"


def test_questions_reuse_one_connection_and_see_every_change(tmp_path: Path):
    corpus = build_corpus(tmp_path)
    client = TestClient(corpus.app(), base_url="http://127.0.0.1")
    kept = client.app.state.cockpit.connections  # type: ignore[attr-defined]
    served = [client.get("/api/ask", params={"q": QUESTION}).text for _ in range(3)]
    assert served == [_one_shot(corpus.alpha)] * 3
    assert len(_free(kept)) == 1
    first = _free(kept)[0]
    assert client.get("/ask", params={"q": QUESTION}).status_code == 200  # the page asks the same way
    assert _free(kept) == [first]

    write(corpus.alpha.root, {"docs/recompute.md": "# Recompute\n\nFreshness is computed again on every read.\n"})
    sync(corpus.alpha, now=NOW)  # another connection, as `kenning sync` in another process
    conn = connect(corpus.alpha.db_path)
    try:
        save_observation(
            conn,
            "alpha",
            Observation(text="Freshness is computed per excerpt.", producer="human", origin="cli"),
            now=NOW,
        )
    finally:
        conn.close()
    after = client.get("/api/ask", params={"q": QUESTION, "limit": 20}).text
    assert after == _one_shot(corpus.alpha, limit=20)
    assert "docs/recompute.md" in after and "computed per excerpt" in after
    assert _free(kept) == [first]


def test_each_running_request_holds_its_own_connection(tmp_path: Path):
    corpus = build_corpus(tmp_path)
    kept = Connections(corpus.alpha)
    with kept.conn() as one, kept.conn() as two:
        assert one is not two
        assert (
            one.execute("SELECT count(*) FROM facts").fetchone() == two.execute("SELECT count(*) FROM facts").fetchone()
        )
    assert sorted(map(id, _free(kept))) == sorted((id(one), id(two)))
    with kept.conn() as again:
        assert again in (one, two)
