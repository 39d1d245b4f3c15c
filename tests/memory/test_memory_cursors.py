"""mem_search guided and automatic flows, and every cursor rejection, through a client session."""

from __future__ import annotations

import re

from memory_helpers import Clock, call, make_server, save_direct, text

from conftest import NOW


def setup(make_project):
    project = make_project({})
    clock = Clock(NOW)
    server = make_server(project, clock)
    ids = []
    for n in range(8):
        ids.append(
            save_direct(
                project,
                clock,
                f"Release checklist item {n}: tag, build, sign and publish.",
                title=f"Release checklist {n}",
            )
        )
        clock.advance(minutes=1)
    return project, clock, server, ids


def cursor_of(result) -> str:
    return re.search(r"^Continue with: (\S+)$", text(result), re.M).group(1)


def index_ids(result) -> list[int]:
    return [e["id"] for e in result.structuredContent["excerpts"]]


def rejected(result, kind: str) -> None:
    assert result.isError, text(result)
    assert result.structuredContent["error"]["type"] == kind, text(result)
    assert "\nNext: " in text(result)


def test_guided_flow_walks_index_then_context_then_details(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist", mode="guided", limit=5)
    assert "mem-search step 1 of 3" in text(step1) and "Next:" in text(step1)
    token = cursor_of(step1)
    assert len(token) <= 16 and "release" not in token
    anchor = index_ids(step1)[0]
    step2 = call(server, "mem_search", continuation=token, selectedIds=[str(anchor)])
    assert "mem-search step 2 of 3" in text(step2)
    context_ids = [row["id"] for row in step2.structuredContent["context"]]
    assert anchor in context_ids and len(context_ids) > 1
    neighbour = next(i for i in context_ids if i != anchor)
    step3 = call(server, "mem_search", continuation=cursor_of(step2), selectedIds=[neighbour, str(anchor)])
    assert "mem-search step 3 of 3" in text(step3)
    assert [f["id"] for f in step3.structuredContent["facts"]] == [neighbour, anchor]
    assert "sign and publish" in text(step3)


def test_step_three_without_step_two_is_rejected(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    result = call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]], step=3)
    rejected(result, "SkippedStep")
    assert "call step 2 first" in text(result)


def test_selected_ids_without_any_cursor_are_a_skipped_step(make_project):
    _, _, server, ids = setup(make_project)
    rejected(call(server, "mem_search", selectedIds=[ids[0]]), "SkippedStep")


def test_an_id_not_disclosed_by_the_previous_step_is_rejected(make_project):
    _, _, server, ids = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist", limit=2)
    hidden = next(i for i in ids if i not in index_ids(step1))
    rejected(call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[hidden]), "UndisclosedId")
    step2 = call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]])
    shown = {row["id"] for row in step2.structuredContent["context"]}
    outside = next(i for i in ids if i not in shown)
    rejected(call(server, "mem_search", continuation=cursor_of(step2), selectedIds=[outside]), "UndisclosedId")


def test_changed_options_or_scope_are_rejected(make_project):
    project, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist", limit=5, maxDetails=2)
    token, first = cursor_of(step1), index_ids(step1)[0]
    rejected(call(server, "mem_search", continuation=token, selectedIds=[first], limit=6), "OptionsChanged")
    rejected(call(server, "mem_search", continuation=token, selectedIds=[first], maxDetails=3), "OptionsChanged")
    rejected(call(server, "mem_search", continuation=token, selectedIds=[first], query="other"), "OptionsChanged")
    rejected(call(server, "mem_search", continuation=token, selectedIds=[first], project="elsewhere"), "ScopeChanged")
    rejected(
        call(server, "mem_search", continuation=token, selectedIds=[first], type_filter="decision"), "ScopeChanged"
    )
    same = call(server, "mem_search", continuation=token, selectedIds=[first], limit=5, project=project.name)
    assert not same.isError


def test_a_modified_token_is_rejected(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    token = cursor_of(step1)
    modified = token[:5] + ("a" if token[5] != "a" else "b") + token[6:]
    rejected(call(server, "mem_search", continuation=modified, selectedIds=[index_ids(step1)[0]]), "CursorTampered")


def test_an_expired_token_is_rejected_after_fifteen_minutes(make_project):
    _, clock, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    clock.advance(minutes=14, seconds=59)
    assert not call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]]).isError
    clock.advance(seconds=2)
    result = call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]])
    rejected(result, "CursorExpired")
    assert 'mem_search(query="release checklist"' in text(result)


def test_a_cursor_survives_a_new_server_object_on_the_same_store(make_project):
    project, clock, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    restarted = make_server(project, clock)
    step2 = call(restarted, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]])
    assert not step2.isError and "step 2 of 3" in text(step2)


def test_a_cursor_is_refused_when_a_disclosed_fact_changed(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    call(server, "forget", target=index_ids(step1)[-1], reason="obsolete")
    rejected(
        call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]]), "ResultsChanged"
    )


def test_empty_selected_ids_end_the_search(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist")
    ended = call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[])
    assert not ended.isError and "ended" in text(ended)
    rejected(
        call(server, "mem_search", continuation=cursor_of(step1), selectedIds=[index_ids(step1)[0]]), "SearchEnded"
    )


def test_more_details_than_max_details_are_a_validation_error(make_project):
    _, _, server, _ = setup(make_project)
    step1 = call(server, "mem_search", query="release checklist", maxDetails=1)
    step2 = call(server, "mem_search", continuation=cursor_of(step1), selectedIds=index_ids(step1)[:1])
    two = [row["id"] for row in step2.structuredContent["context"]][:2]
    rejected(call(server, "mem_search", continuation=cursor_of(step2), selectedIds=two), "ValidationError")


def test_auto_mode_runs_every_step_in_one_deterministic_call(make_project):
    _, _, server, _ = setup(make_project)
    first = call(server, "mem_search", query="release checklist", mode="auto", maxDetails=2, limit=6)
    again = call(server, "mem_search", query="release checklist", mode="auto", maxDetails=2, limit=6)
    assert "index (6 candidate(s)) → context" in text(first) and "details (2 record(s))" in text(first)
    assert len(first.structuredContent["facts"]) == 2
    assert text(first) == text(again)
    assert "Continue with:" not in text(first)


def test_mem_search_bounds_are_validation_errors(make_project):
    _, _, server, _ = setup(make_project)
    for bad in ({"limit": 21}, {"limit": 0}, {"maxDetails": 6}, {"depthBefore": 4}, {"depthAfter": -1}):
        result = call(server, "mem_search", query="release", **bad)
        assert result.isError and text(result).startswith("error (ValidationError): `"), bad


def test_a_search_with_no_match_gives_no_cursor(make_project):
    _, _, server, _ = setup(make_project)
    result = call(server, "mem_search", query="zebra")
    assert "Continue with:" not in text(result) and "nothing matched" in text(result)
