"""What a sync says is left to embed (``dense.pace``): read from the batches after each model's
first (which also loads the model), a model without a pace of its own priced by its relative
cost, its load counted once, a tenth more, rounded up to 5 s — or nothing when there is no pace
to go by."""

from __future__ import annotations

import pytest

from kenning.dense.pace import KEPT, Measured, Pace, keep, kept, seconds_left

COST = {"minilm": 1.0, "use": 0.25}


def paced(*batches: tuple[str, int, float]) -> Pace:
    pace = Pace()
    for name, count, seconds in batches:
        pace.record(name, count, seconds)
    return pace


def left(pace: Pace, pending: dict[str, int]) -> float | None:
    return seconds_left(pace.measured(), pending, COST)


def test_the_first_batch_of_a_model_gives_no_pace_it_also_loads_the_model():
    pace = paced(("use", 8, 1.2), ("use", 8, 0.2))  # one batch after the first: not enough
    assert left(pace, {"use": 100}) is None


def test_nothing_is_left_when_no_excerpt_is_pending():
    pace = paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2))
    assert left(pace, {"use": 0, "minilm": 0}) is None


def test_the_pace_after_the_first_batch_and_the_load_once_make_the_estimate():
    # 0.025 s per excerpt after the first batch; the first took 0.8 s more than that pace: the load.
    pace = paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2))
    need = 0.8 + 400 * 0.025  # 10.8 s, a tenth more: 11.88, rounded up to 5 s
    assert left(pace, {"use": 400}) == 15.0 == 5 * -(-(need * 1.1) // 5)


def test_a_model_that_did_not_embed_is_priced_by_its_cost_and_loads_as_the_other_did():
    pace = paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2))
    # MiniLM: 4 times the multilingual model's 0.025 s per excerpt, and about its 0.8 s load.
    assert left(pace, {"minilm": 1000}) == pytest.approx(5 * -(-((0.8 + 1000 * 0.1) * 1.1) // 5))
    both = left(pace, {"minilm": 1000, "use": 400})
    assert both == 5 * -(-((0.8 + 100 + 0.8 + 10) * 1.1) // 5) == 125.0


def test_a_syncs_paces_are_kept_for_status_by_model(tmp_path):
    """``kenning status`` prices what is left at the pace the last sync kept on this machine."""
    state = tmp_path / ".kenning"
    state.mkdir()
    pace = paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2))
    keep(state, pace.measured(), {"use": "use-v3", "minilm": "minilm-l6"})
    assert kept(state, {"use": "use-v3"}) == {"use": Measured(0.025, pytest.approx(0.8))}
    assert seconds_left(kept(state, {"use": "use-v3"}), {"use": 400}, COST) == left(pace, {"use": 400})
    assert kept(state, {"use": "use-v4"}) == {}  # another model's pace prices nothing
    keep(state, paced(("minilm", 8, 2.0), ("minilm", 8, 0.8), ("minilm", 8, 0.8)).measured(), {"minilm": "minilm-l6"})
    assert set(kept(state, {"use": "use-v3", "minilm": "minilm-l6"})) == {"use", "minilm"}  # one model's kept beside


def test_nothing_is_kept_without_a_pace_or_a_project_folder_and_a_spoiled_file_reads_as_none(tmp_path):
    state = tmp_path / ".kenning"
    keep(state, paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2)).measured(), {"use": "use-v3"})
    assert not state.exists()  # not a project folder: nothing written
    state.mkdir()
    keep(state, paced(("use", 8, 1.0)).measured(), {"use": "use-v3"})  # one batch: no pace
    assert not (state / KEPT).exists()
    (state / KEPT).parent.mkdir()
    (state / KEPT).write_text('{"use": {"model": "use-v3", "per_excerpt": "fast"}}')
    assert kept(state, {"use": "use-v3"}) == {}
    (state / KEPT).write_text("not json")
    assert kept(state, {"use": "use-v3"}) == {}


def test_a_pace_the_project_folder_cannot_take_is_not_kept_and_the_sync_goes_on(tmp_path):
    state = tmp_path / ".kenning"
    (state / KEPT).mkdir(parents=True)  # the file's place taken: writing it fails as on a read-only folder
    keep(state, paced(("use", 8, 1.0), ("use", 8, 0.2), ("use", 8, 0.2)).measured(), {"use": "use-v3"})
    assert kept(state, {"use": "use-v3"}) == {} and not list((state / KEPT).parent.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("dense", "left", "said"),
    [
        ({}, 15.0, "`kenning sync` completes the index (its budget: 15 s)"),  # the least default budget
        ({}, 20.0, "`kenning sync --embed-budget 20` completes the index in one sync"),
        ({"budget_seconds": 60}, 45.0, "`kenning sync` completes the index (its budget: 60 s)"),
        ({"budget_seconds": 0}, 5.0, "`kenning sync --embed-budget 5` completes the index in one sync"),
    ],
)
def test_the_plain_command_is_offered_when_the_next_syncs_own_budget_covers_what_is_left(tmp_path, dense, left, said):
    pytest.importorskip("numpy", reason="the dense extra is not installed: pip install '.[dense]'")
    from kenning.dense.index import next_budget
    from kenning.dense.pace import left_note
    from kenning.project import Project, ProjectConfig

    budget = next_budget(Project(tmp_path, ProjectConfig(name="p", extra={"dense": dense})))
    assert left_note(left, "this sync's", budget) == f"about {left:g} s of embedding left at this sync's pace: {said}"
