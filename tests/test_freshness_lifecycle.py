from __future__ import annotations

from datetime import timedelta

from conftest import NOW, bump_mtime, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.answer.stale import stale_report
from kenning.lifecycle import confirm, remember, supersede
from kenning.records import FreshnessState, Lifecycle
from kenning.store.db import connect

DOC = "# Cache\n\nThe cache expires after ten minutes.\n"


def _search(project, query, now=NOW, **options):
    return search_project(project, query, SearchOptions(**options), now=now)


def test_a_synced_doc_is_served_current(make_project):
    project = make_project({"cache.md": DOC})
    resync(project)
    [excerpt] = _search(project, "cache expires").excerpts
    assert excerpt.freshness.state is FreshnessState.CURRENT


def test_a_doc_edited_after_sync_is_served_stale_with_its_change_date(make_project):
    project = make_project({"cache.md": DOC})
    resync(project)
    path = project.root / "cache.md"
    path.write_text(DOC.replace("ten", "five"))
    bump_mtime(path)
    [excerpt] = _search(project, "cache expires").excerpts
    assert excerpt.freshness.state is FreshnessState.STALE
    assert excerpt.freshness.changed is not None and excerpt.freshness.changed.startswith("20")


def test_a_deleted_doc_is_not_served_is_listed_as_missing_then_retired_at_the_next_sync(make_project):
    project = make_project({"cache.md": DOC, "other.md": "# Other\n\nUnrelated.\n"})
    resync(project)
    (project.root / "cache.md").unlink()
    answer = _search(project, "cache expires")
    assert answer.excerpts == () and answer.filtered == {"source_missing": 1}
    conn = connect(project.db_path)
    report = stale_report(conn, project, now=NOW)
    conn.close()
    assert [(e.fact.source.uri, e.freshness.state) for e in report.excerpts] == [
        ("cache.md#cache", FreshnessState.SOURCE_MISSING)
    ]
    assert resync(project).retired == 1
    assert _search(project, "cache expires").filtered == {"retired": 1}


def test_a_remembered_fact_is_unverified_then_hypothesis_after_270_days_and_never_current(make_project):
    project = make_project({"README.md": "# Readme\n"})
    conn = connect(project.db_path, create=True)
    saved = remember(conn, "We deploy on Fridays only.", now=NOW)
    conn.close()
    for days, state in [
        (0, FreshnessState.UNVERIFIED),
        (270, FreshnessState.UNVERIFIED),
        (271, FreshnessState.HYPOTHESIS),
        (2000, FreshnessState.HYPOTHESIS),
    ]:
        [excerpt] = _search(project, "deploy fridays", now=NOW + timedelta(days=days)).excerpts
        assert excerpt.fact.id == saved.fact_id
        assert excerpt.freshness.state is state, days
        assert excerpt.freshness.age_days == days


def test_confirming_a_fact_resets_its_age(make_project):
    project = make_project({"README.md": "# Readme\n"})
    conn = connect(project.db_path, create=True)
    saved = remember(conn, "Ports below 1024 need root.", now=NOW)
    later = NOW + timedelta(days=300)
    confirm(conn, project.name, saved.fact_id, now=later)
    conn.close()
    [excerpt] = _search(project, "ports root", now=later + timedelta(days=1)).excerpts
    assert excerpt.freshness.state is FreshnessState.UNVERIFIED and excerpt.freshness.age_days == 1


def test_remembering_the_same_note_twice_answers_already_saved(make_project):
    project = make_project({"README.md": "# Readme\n"})
    conn = connect(project.db_path, create=True)
    first = remember(conn, "Same note.", now=NOW)
    second = remember(conn, "Same note.", now=NOW)
    conn.close()
    assert first.created and not second.created and first.fact_id == second.fact_id


def test_a_superseded_fact_is_hidden_and_served_marked_with_include_superseded(make_project):
    project = make_project({"README.md": "# Readme\n"})
    conn = connect(project.db_path, create=True)
    old = remember(conn, "Retention is 30 days.", now=NOW)
    new = remember(conn, "Retention is 90 days for audit logs.", now=NOW)
    supersede(conn, project.name, old.fact_id, new.fact_id, now=NOW, reason="policy changed")
    conn.close()
    served = _search(project, "retention days")
    assert [e.fact.id for e in served.excerpts] == [new.fact_id]
    widened = _search(project, "retention days", include_superseded=True)
    marked = {e.fact.id: e.fact for e in widened.excerpts}
    assert marked[old.fact_id].lifecycle is Lifecycle.SUPERSEDED
    assert marked[old.fact_id].superseded_by == new.fact_id
