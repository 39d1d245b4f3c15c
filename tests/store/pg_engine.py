"""The PostgreSQL engine for the store contract tests: SQLite always runs; PostgreSQL when
``KENNING_TEST_DATABASE_URL`` names a reachable server (``.ci/run`` starts one).

Outside CI an unreachable server skips the PostgreSQL runs with the reason; with CI=true it
fails them. A contract test not in ``PG_READY`` runs on PostgreSQL as a strict xfail
("not implemented on postgresql yet"): it must fail there, so it cannot silently start
passing without being moved into ``PG_READY``.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import replace
from functools import cache

import pytest

from kenning.errors import StoreUnavailable
from kenning.project import Project
from kenning.store.postgres.connection import PgConnection
from kenning.store.postgres.connection import connect as pg_connect

NOT_YET = "not implemented on postgresql yet"
# Contract tests that pass on PostgreSQL (all of them today: a new one starts as a strict xfail).
PG_READY = {
    "test_word_candidates_are_best_first_and_respect_the_filters",
    "test_memory_type_filters_word_candidates",
    "test_a_malformed_expression_is_an_invalid_query",
    "test_a_column_filter_keeps_a_term_to_its_columns",
    "test_an_unknown_column_is_an_invalid_query",
    "test_a_bare_term_holding_punctuation_is_an_invalid_query",
    "test_a_phrase_of_no_word_is_left_out_of_its_expression",
    "test_trigram_candidates_match_inside_identifiers",
    "test_match_tests_and_counts",
    "test_a_fact_reads_back_as_written_and_a_missing_one_is_not_found",
    "test_fact_ids_are_never_reused_after_a_delete",
    "test_the_sync_reads_active_file_facts_by_content_hash_and_by_uri",
    "test_a_fact_is_repointed_refreshed_and_refingerprinted",
    "test_the_store_version_of_something_that_is_not_a_store_is_none",
    "test_the_manifest_is_written_touched_read_and_deleted",
    "test_locations_keep_one_row_per_place_and_read_in_order",
    "test_writes_are_counted_and_a_sync_run_is_recorded",
    "test_a_session_opens_once_and_its_tool_uses_list_oldest_first",
    "test_a_tool_use_is_found_by_row_id_or_client_id",
    "test_a_summary_keeps_its_parts_and_its_session",
    "test_an_identical_active_note_is_found_by_content_and_source_kind",
    "test_recent_memories_are_newest_first_and_filtered",
    "test_dated_facts_are_newest_first_within_the_window",
    "test_a_saved_memory_neighbours_are_the_memories_saved_around_it",
    "test_a_session_memory_neighbours_are_the_memories_saved_before_and_after_it_in_its_session",
    "test_a_file_excerpt_neighbours_are_the_excerpts_above_and_below_it",
    "test_fact_states_follow_content_and_lifecycle",
    "test_convention_facts_are_typed_tagged_or_in_a_convention_file",
    "test_decision_facts_are_the_active_decisions",
    "test_manifest_paths_are_every_indexed_file_sorted",
    "test_located_ids_are_active_and_in_file_order",
    "test_ids_with_a_path_are_the_facts_whose_own_path_it_is",
    "test_a_cursor_reads_back_as_written_and_closes",
    "test_only_cursors_expired_before_the_cut_are_purged",
    "test_status_reports_the_engine_and_the_index_size",
    "test_written_nodes_are_found_by_each_named_lookup",
    "test_edges_of_a_node_come_outgoing_first_strongest_link_first",
    "test_references_are_read_targeted_and_their_edges_dropped",
    "test_candidates_of_many_targets_are_those_of_each_target_looked_up_alone",
    "test_an_origin_is_dropped_with_its_nodes_and_references",
    "test_add_node_keeps_the_first_node_with_a_key",
    "test_graph_source_states_are_put_touched_and_deleted",
    "test_equal_length_paths_are_chosen_by_content_whatever_the_batch_order",
    "test_bench_reads_counts_candidates_and_lifecycles",
    "test_the_store_version_moves_with_every_write_and_reads_without_migrating",
}


@cache
def _reachable() -> str | None:
    """The test server's URL, or why there is none."""
    url = os.environ.get("KENNING_TEST_DATABASE_URL")
    if not url:
        return None
    try:
        pg_connect(url, "probe").close()
    except StoreUnavailable as exc:
        return f"!{exc}"
    return url


ENGINE = pytest.param("postgresql", marks=pytest.mark.postgres)


def pg_store(request: pytest.FixtureRequest) -> PgConnection:
    """A migrated PostgreSQL store for a project of its own (a fresh name: tests share one
    database); a test not in ``PG_READY`` becomes a strict xfail."""
    if request.node.originalname not in PG_READY:
        request.node.add_marker(pytest.mark.xfail(reason=NOT_YET, strict=True))
    return pg_connect(server_url(), f"test-{uuid.uuid4().hex[:12]}")


def pg_project(request: pytest.FixtureRequest, project: Project) -> Project:
    """``project`` served by the test server under a fresh name (tests share one database); a
    test not in ``PG_READY`` becomes a strict xfail."""
    if request.node.originalname not in PG_READY:
        request.node.add_marker(pytest.mark.xfail(reason=NOT_YET, strict=True))
    name = f"{project.name}-{uuid.uuid4().hex[:12]}"
    return replace(project, config=replace(project.config, name=name, store=server_url()))


def server_url() -> str:
    """The test server's URL; skips (fails with CI=true) when there is none."""
    url = _reachable()
    if url is None or url.startswith("!"):
        reason = "no PostgreSQL server: set KENNING_TEST_DATABASE_URL (`.ci/postgres.sh` starts one)"
        reason = reason if url is None else url[1:]
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: the PostgreSQL contract runs are required)")
        pytest.skip(reason)
    return url
