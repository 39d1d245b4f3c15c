"""Freshness per excerpt (issue 13): an edit to one part of a file leaves the file's other
excerpts ``current``; the edited span is ``stale``, a span gone is ``source_missing``."""

from __future__ import annotations

import hashlib

from conftest import NOW, bump_mtime, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.answer.stale import stale_report
from kenning.records import FreshnessState
from kenning.store import facts as fact_store
from kenning.store.db import connect

CONFIG = '''"""Timeouts, limits and proxies for the client."""

DEFAULT_TIMEOUT = 5.0


class Timeout:
    """How long the client waits: connect, read, write and pool timeouts."""

    def __init__(self, timeout=DEFAULT_TIMEOUT, *, connect=None, read=None):
        self.connect = connect if connect is not None else timeout
        self.read = read if read is not None else timeout

    def as_dict(self):
        return {"connect": self.connect, "read": self.read}


class Limits:
    """Connection pool limits: how many keepalive connections are kept."""

    def __init__(self, max_connections=100, max_keepalive=20):
        self.max_connections = max_connections
        self.max_keepalive = max_keepalive


def merge_timeouts(first, second):
    """Merge two timeout configurations, the second one winning."""
    return Timeout(second.read or first.read)
'''


def _states(project) -> dict[str, FreshnessState]:
    """Every active excerpt of config.py: symbol -> freshness state, read as an answer would."""
    answer = search_project(project, "timeout OR limits OR merge OR connections", _options(), now=NOW)
    return {e.fact.meta["symbol"]: e.freshness.state for e in answer.excerpts}


def _options() -> SearchOptions:
    return SearchOptions(limit=50, include_missing=True, types=("code",))


def _ranking(project, query: str) -> list[str]:
    answer = search_project(project, query, SearchOptions(limit=10), now=NOW)
    return [e.fact.source.uri.split(":")[0] + " " + e.fact.meta.get("symbol", e.fact.title) for e in answer.excerpts]


def _edit(project, text: str) -> None:
    path = project.root / "config.py"
    path.write_text(text)
    bump_mtime(path)


def test_appending_a_comment_line_keeps_the_other_excerpts_current_and_their_ranking(make_project):
    project = make_project({"config.py": CONFIG, "README.md": "# Client\n\nTimeouts are configured per client.\n"})
    resync(project)
    before = _states(project)
    assert set(before.values()) == {FreshnessState.CURRENT}
    ranking = _ranking(project, "how are timeouts configured")
    assert any("Timeout" in r for r in ranking[:3])

    _edit(project, CONFIG + "# a comment appended at the end\n")
    after = _states(project)
    assert after == before  # no excerpt holds the new line: each still says what its lines say
    assert _ranking(project, "how are timeouts configured") == ranking
    resync(project)  # the next sync reads it, in an excerpt of its own lines (``python/15``)
    found = search_project(project, "comment appended", _options(), now=NOW).excerpts
    assert [e.fact.source.uri for e in found] == ["config.py:28-28"]


def test_lines_inserted_above_move_every_span_and_keep_them_current(make_project):
    project = make_project({"config.py": CONFIG})
    resync(project)
    _edit(project, CONFIG.replace('"""Timeouts, limits', '# -*- coding: utf-8 -*-\n\n"""Timeouts, limits'))
    states = _states(project)
    assert {s for s, state in states.items() if state is not FreshnessState.CURRENT} == {"config"}


def test_editing_one_function_makes_only_it_stale(make_project):
    project = make_project({"config.py": CONFIG})
    resync(project)
    _edit(project, CONFIG.replace("return Timeout(second.read or first.read)", "return Timeout(second.connect)"))
    states = _states(project)
    assert {s for s, state in states.items() if state is not FreshnessState.CURRENT} == {"merge_timeouts"}
    assert states["merge_timeouts"] is FreshnessState.STALE
    # One line longer: the spans after it move, and stay current.
    _edit(
        project,
        CONFIG.replace("        self.read = read", "        # read defaults to timeout\n        self.read = read"),
    )
    states = _states(project)
    assert {s for s, state in states.items() if state is not FreshnessState.CURRENT} == {"Timeout.__init__"}


def test_a_removed_function_is_source_missing_and_the_others_stay_current(make_project):
    project = make_project({"config.py": CONFIG})
    resync(project)
    _edit(project, CONFIG[: CONFIG.index("def merge_timeouts")])
    states = _states(project)
    assert states["merge_timeouts"] is FreshnessState.SOURCE_MISSING
    assert {s for s, state in states.items() if state is not FreshnessState.CURRENT} == {"merge_timeouts"}
    conn = connect(project.db_path)
    try:
        report = stale_report(conn, project, now=NOW)
    finally:
        conn.close()
    assert [(e.fact.meta["symbol"], e.freshness.state) for e in report.excerpts] == [
        ("merge_timeouts", FreshnessState.SOURCE_MISSING)
    ]
    assert report.excerpts[0].freshness.detail == "config.py:25-27 is gone"
    # Served by default? A missing span is left out and counted.
    default = search_project(project, "merge timeout configurations", SearchOptions(limit=10), now=NOW)
    assert "merge_timeouts" not in [e.fact.meta.get("symbol") for e in default.excerpts]
    assert default.filtered.get("source_missing") == 1


def test_markdown_sections_are_judged_one_by_one(make_project):
    doc = "# Guide\n\n## Install\n\nRun pip install client.\n\n## Usage\n\nCall client.get(url).\n"
    project = make_project({"guide.md": doc})
    resync(project)
    path = project.root / "guide.md"
    path.write_text(doc.replace("client.get(url)", "client.get(url, timeout=5)"))
    bump_mtime(path)
    answer = search_project(project, "install OR usage", SearchOptions(limit=10), now=NOW)
    states = {e.fact.source.uri: e.freshness.state for e in answer.excerpts}
    assert states == {"guide.md#install": FreshnessState.CURRENT, "guide.md#usage": FreshnessState.STALE}


def test_a_location_keeps_its_span_fingerprint_and_the_fact_its_file_fingerprint(make_project):
    project = make_project({"config.py": CONFIG})
    resync(project)
    conn = connect(project.db_path)
    try:
        answer = search_project(project, "merge timeouts", SearchOptions(limit=1), now=NOW)
        fact = fact_store.get(conn, project.name, answer.excerpts[0].fact.id)
    finally:
        conn.close()
    [location] = fact.locations
    assert location.fingerprint == fact_store.content_hash(fact.type, fact.title, fact.body)
    assert fact.source.fingerprint == hashlib.sha256(CONFIG.encode()).hexdigest()


def test_the_next_sync_keeps_the_unchanged_excerpts(make_project):
    project = make_project({"config.py": CONFIG})
    resync(project)
    ids = {e.fact.meta["symbol"]: e.fact.id for e in search_project(project, "timeout", _options(), now=NOW).excerpts}
    _edit(project, CONFIG.replace("return Timeout(second.read or first.read)", "return Timeout(second.connect)"))
    report = resync(project)
    assert report.replaced == 1 and report.kept == 6  # only the edited function is replaced
    after = {e.fact.meta["symbol"]: e for e in search_project(project, "timeout", _options(), now=NOW).excerpts}
    assert all(e.freshness.state is FreshnessState.CURRENT for e in after.values())
    assert after["Timeout"].fact.id == ids["Timeout"]
