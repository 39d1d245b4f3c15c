"""The memory core without MCP: strictness, cursor tokens, sessions, tool uses, sync."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.errors import ValidationError
from kenning.memory import cursors
from kenning.memory.observations import Observation, save
from kenning.memory.sessions import get_tool_uses, record_tool_use
from kenning.memory.strictness import is_strong
from kenning.records import Dates, Excerpt, Fact, Freshness, FreshnessState, Source
from kenning.store import secrets as store_secrets
from kenning.store.db import connect


def excerpt(title: str, body: str) -> Excerpt:
    fact = Fact(
        1, "demo", "observation", title, body, Source("manual", "manual:cli"), Dates(None, "2026-11-29T00:00:00Z")
    )
    return Excerpt(fact, Freshness(FreshnessState.UNVERIFIED, "2026-11-29T00:00:00Z"), "", 1.0, 1)


def test_a_strong_match_needs_every_term_at_the_start_of_a_word_ignoring_case_and_accents():
    ex = excerpt("Rotation des jetons in rrfFuse", "Tokens are refreshed by the Détecteur.")
    assert is_strong(ex, ("tokens", "detecteur"))
    assert is_strong(ex, ("token", "jeton"))
    assert is_strong(ex, ("fuse",))  # identifier parts of the title count, as in the keyword index
    assert not is_strong(ex, ("okens",))
    assert not is_strong(ex, ("tokens", "absent"))


def test_every_single_character_change_of_a_cursor_token_is_detected(make_project):
    # The check is an HMAC keyed by the store's own secret: every one-character change of a
    # token is refused as tampered before the row is read, and a token made with another
    # store's key (or the old unkeyed check) is refused too.
    project = make_project({})
    conn = connect(project.db_path, create=True)
    token = cursors.issue(conn, step=1, project=project.name, query="q", options={}, scope={}, disclosed=[], now=NOW)
    key = store_secrets.get(conn, cursors.SECRET)
    assert len(token) == 16 and token[10:] == cursors._check(key, token[1:10])
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    caught = 0
    for position in range(1, len(token)):
        changed = token[:position] + alphabet[(alphabet.index(token[position]) + 1) % 32] + token[position + 1 :]
        try:
            cursors.load(conn, changed, now=NOW)
        except cursors.CursorTampered:
            caught += 1
    assert caught == len(token) - 1
    forged = "c" + token[1:10] + cursors._check(b"another store's key", token[1:10])
    with pytest.raises(cursors.CursorTampered):
        cursors.load(conn, forged, now=NOW)
    assert cursors.load(conn, token, now=NOW).query == "q"
    conn.close()


def test_an_observation_in_a_session_opens_the_session_and_cites_it(make_project):
    project = make_project({})
    conn = connect(project.db_path, create=True)
    saved = save(conn, project.name, Observation("Found the flaky test.", session_id="sess-1"), now=NOW)
    row = conn.execute(
        "SELECT source_kind, source_uri, session_id, producer, type FROM facts WHERE id = ?", (saved.fact_id,)
    ).fetchone()
    session = conn.execute("SELECT project FROM sessions WHERE id = 'sess-1'").fetchone()
    conn.close()
    assert tuple(row) == ("session", "session:sess-1", "sess-1", "agent", "observation")
    assert session[0] == project.name


def test_bad_observations_are_validation_errors_that_write_nothing(make_project):
    project = make_project({})
    conn = connect(project.db_path, create=True)
    for bad in (
        Observation("  "),
        Observation("x", importance=11),
        Observation("x", memory_type="episodic"),
        Observation("x", producer="robot"),
        Observation("x", type="two words"),
    ):
        with pytest.raises(ValidationError):
            save(conn, project.name, bad, now=NOW)
    assert conn.execute("SELECT count(*) FROM facts").fetchone()[0] == 0
    conn.close()


def test_a_tool_use_with_a_known_client_id_is_recorded_once(make_project):
    project = make_project({})
    conn = connect(project.db_path, create=True)
    payload = {
        "session_id": "s",
        "tool_name": "Read",
        "tool_use_id": "toolu_1",
        "tool_input": {"path": "a"},
        "tool_response": "text",
    }
    first = record_tool_use(conn, project.name, payload, now=NOW)
    again = record_tool_use(conn, project.name, payload, now=NOW)
    found, missing = get_tool_uses(conn, [str(first), "toolu_1", "404"])
    conn.close()
    assert first == again and [u.id for u in found] == [first, first] and missing == ["404"]


def test_a_resync_leaves_saved_memories_alone(make_project):
    project = make_project({"notes.md": "# Notes\n\nSome text.\n"})
    resync(project)
    conn = connect(project.db_path)
    saved = save(conn, project.name, Observation("Remember the release freeze."), now=NOW)
    conn.close()
    (project.root / "notes.md").unlink()
    resync(project)
    conn = connect(project.db_path)
    state = conn.execute("SELECT lifecycle FROM facts WHERE id = ?", (saved.fact_id,)).fetchone()[0]
    conn.close()
    assert state == "active"


def test_two_neighbouring_anchors_are_both_marked_as_anchors_in_the_context(make_project):
    """Step 2 of mem_search with two adjacent sections selected showed the second as the first's
    neighbour ("-"), not as the anchor the agent chose (">")."""
    from kenning.memory.timeline import around
    from kenning.store.db import connect

    project = make_project({"docs/a.md": "# A\n\nFirst part.\n\n## B\n\nSecond part.\n\n## C\n\nThird part.\n"})
    resync(project)
    conn = connect(project.db_path)
    try:
        ids = [f for (f,) in conn.execute("SELECT id FROM facts WHERE type = 'doc' ORDER BY id").fetchall()]
        entries = around(conn, project, ids[:2], 1, 1, now=NOW)
    finally:
        conn.close()
    assert [(e.fact.id, e.anchor, e.offset) for e in entries] == [
        (ids[0], ids[0], 0),
        (ids[1], ids[1], 0),
        (ids[2], ids[1], 1),
    ]
