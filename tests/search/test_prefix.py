"""A prefix term finds every word beginning with it, although the word index holds stems
(``deploy`` is held ``deploi``, ``deployment`` ``deploy``): ``search/prefix.py`` reads the
prefix against the store's vocabulary. The same rows on both engines; phrases, column
filters, ``NEAR`` and invalid syntax as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.errors import InvalidQuery
from kenning.search import prefix
from kenning.search.query import parse
from kenning.store import fts, fts_topk, vocabulary
from store.pg_engine import ENGINE as POSTGRESQL  # tests/store: the PostgreSQL test server
from store.pg_engine import engine_store
from store.section_rows import write_sections

WEIGHTS = (2.0, 1.5, 1.2, 1.0)
# Titles and bodies whose words both stemmers (FTS5's porter, Snowball English) agree on
# where it matters: `Deployment` → deploy, `Deplore` → deplor.
CORPUS = [
    ("Deployment", "The release checklist."),
    ("Wednesdays", "We deploy on Wednesdays."),
    ("Deplore", "We deplore the weather."),
    ("Employ", "Nothing to see here."),
]


@pytest.fixture(params=("sqlite", POSTGRESQL))
def store(request: pytest.FixtureRequest, tmp_path: Path):
    conn = engine_store(request.param, tmp_path)
    titles = _write(conn)
    yield conn, titles
    conn.close()


def _write(conn) -> dict[int, str]:
    return write_sections(conn, CORPUS)


def found(store, expression: str) -> set[str]:
    conn, titles = store
    expanded, _ = prefix.expand(conn, expression)
    return {titles[i] for i, _ in fts.words(conn, expanded, fts.Filters(), 10, WEIGHTS)}


def test_a_prefix_finds_every_word_beginning_with_it_whatever_its_stem(store):
    assert found(store, "deploy*") == {"Deployment", "Wednesdays"}
    assert found(store, "title:deploy*") == {"Deployment"}
    # a prefix inside an ending (deploym|ent) reaches the word's stem; in bodies, where the two
    # stemmers part (Snowball holds `deploy` as deploy, porter as deploi), rows follow the stems
    assert found(store, "title:deploym*") == {"Deployment"}
    assert "Deployment" in found(store, "deploym*")
    assert found(store, '"deploy"*') == {"Deployment", "Wednesdays"}
    assert found(store, "deplo*") == {"Deployment", "Wednesdays", "Deplore"}
    assert found(store, "wednes*") == {"Wednesdays"}
    assert found(store, "zzz*") == set()


def test_a_prefix_keeps_its_column_filter_and_its_operators(store):
    assert found(store, "-title:deploy*") == {"Wednesdays"}
    assert found(store, "deploy* NOT title:wednesdays") == {"Deployment"}
    assert found(store, "deploy* AND checklist") == {"Deployment"}
    assert found(store, "(deploy* OR employ) NOT deplore") == {"Deployment", "Wednesdays", "Employ"}


def test_invalid_syntax_around_a_prefix_is_still_invalid_query(store):
    conn, _ = store
    for bad in ("deploy* AND", "(deploy*", "nosuchcolumn:deploy*"):
        with pytest.raises(InvalidQuery):
            prefix.expand(conn, bad)


def test_what_the_expansion_leaves_to_the_engine(sqlite_store):
    """Expressions without a prefix, several-word phrases, NEAR groups, ``^`` and ``+`` are
    returned as they are; an expression FTS5 refuses keeps FTS5's own error."""
    conn, _ = sqlite_store
    for kept in ('"release checklist"', "NEAR(deploy* wednesdays, 5)", "^deploy*", "a + deploy*", '"hybrid search"*'):
        assert prefix.expand(conn, kept) == (kept, ())
    for bad in ("deploy* AND", "checklist deploy* title:", "deploy* * x"):
        with pytest.raises(InvalidQuery) as before:
            fts.words(conn, bad, fts.Filters(), 5, WEIGHTS)
        with pytest.raises(InvalidQuery) as now:
            prefix.expand(conn, bad)
        assert now.value.message == before.value.message


def test_a_prefix_beyond_its_bound_says_so(store, monkeypatch):
    conn, titles = store
    monkeypatch.setattr(prefix, "MAX_TERMS", 1)
    _, notes = prefix.expand(conn, "deplo*")  # the stemmers keep `deplo`: the engine's own prefix
    assert notes == ()
    # porter holds the word `deploy` as deploi: deploy* lists deploi and deploy, over a bound of 1;
    # Snowball keeps deploy, and the engine's own prefix reads it whole
    expanded, notes = prefix.expand(conn, "deploy*")
    if vocabulary.index_terms(conn, ["deploy"]) == ["deploy"]:
        assert notes == ()
    else:
        assert len(notes) == 1 and notes[0].startswith("deploy*: only the first 1 index terms its words reach")
    assert {titles[i] for i, _ in fts.words(conn, expanded, fts.Filters(), 10, WEIGHTS)} <= {"Deployment", "Wednesdays"}


def test_natural_syntax_reads_a_trailing_star_as_a_prefix(make_project):
    assert parse("deploy*").fts == '"deploy"*'
    assert parse("how we deploy* things").fts == '"deploy"* OR "things"'
    assert parse("a.b*").fts == '"a.b"'  # a dotted name stays whole
    project = make_project({"docs/ops.md": "# Operations\n\n## Deployment\n\nWe ship on Wednesdays.\n"})
    resync(project)
    for query, syntax in (("deploy*", "natural"), ("title:deploy*", "fts"), ("deploym*", "fts")):
        answer = search_project(project, query, SearchOptions(syntax=syntax), now=NOW)
        assert [e.fact.title for e in answer.excerpts] == ["Operations > Deployment"], (query, syntax)


def test_a_natural_prefix_is_estimated_before_it_runs_as_fts_syntax_is(make_project, monkeypatch):
    from kenning.errors import QueryTooCostly
    from kenning.store import fts_guard

    project = make_project({"docs/ops.md": "# Deployment\n\nWe deploy on Wednesdays.\n"})
    resync(project)
    monkeypatch.setattr(fts_guard, "MAX_POSTINGS", 0)
    assert search_project(project, "deploy", SearchOptions(), now=NOW).excerpts  # no prefix: not estimated
    with pytest.raises(QueryTooCostly):
        search_project(project, "deploy*", SearchOptions(), now=NOW)


def test_a_chain_of_or_keeps_its_shape_and_its_scores(store):
    """In a plain OR of terms (what natural syntax builds) a prefix's terms join the chain, so a
    disjunction of phrases keeps the exact top-k; FTS5 sums each phrase's share whatever the
    grouping, so the scores are the grouped expression's."""
    conn, _ = store
    flat, _ = prefix.expand(conn, '"deploy"* OR "checklist"')
    grouped, _ = prefix.expand(conn, '"deploy"* AND "deploy"* OR "checklist"')
    assert not flat.startswith("(") and "(" not in flat
    if "*" not in flat:  # porter: deploy is not its own stem, every term is listed
        assert fts_topk.phrases_of(flat) is not None
    assert fts.words(conn, flat, fts.Filters(), 10, WEIGHTS) == fts.words(
        conn, "(" + flat.rsplit(" OR ", 1)[0] + ') OR "checklist"', fts.Filters(), 10, WEIGHTS
    )
    assert grouped.count("(") >= 1 or "*" in grouped


def test_the_answer_says_when_a_prefix_was_cut_to_its_bound(make_project, monkeypatch):
    project = make_project({"docs/ops.md": "# Deployment\n\nWe deploy on Wednesdays.\n"})
    resync(project)
    monkeypatch.setattr(prefix, "MAX_TERMS", 1)  # porter: deploy* reaches deploi (deploy) and deploy (Deployment)
    answer = search_project(project, "deploy*", SearchOptions(syntax="fts"), now=NOW)
    assert answer.excerpts
    assert any(note.startswith("deploy*: only the first 1 index terms its words reach") for note in answer.notes)


def test_phrases_side_by_side_keep_their_implicit_and_with_a_prefix_among_them(store):
    """FTS5 ANDs phrases written side by side, tighter than any operator, but takes no group
    there: a run holding a prefix is written out with AND, in parentheses, the same rows."""
    assert found(store, "deploy* checklist") == {"Deployment"}
    assert found(store, "checklist deploy*") == {"Deployment"}
    assert found(store, "title:deploy* checklist") == {"Deployment"}
    assert found(store, '"deploy" * checklist') == {"Deployment"}
    # `NOT` takes the whole run: the deploy-word rows that also say wednesdays are left out
    assert found(store, "we NOT deploy* wednesdays") == {"Deplore"}


FTS_PIECES = [
    "deploy*",
    "wed*",
    '"deplo"*',
    "checklist",
    '"we"',
    "title:",
    "-body:",
    "{title body}:",
    "NOT",
    "AND",
    "OR",
    "(",
    ")",
    "^",
    "+",
    "NEAR(deploy* we, 3)",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(FTS_PIECES), min_size=1, max_size=7), st.sampled_from([" ", "  ", ""]))
def test_an_expression_is_valid_after_the_expansion_exactly_when_it_was_before(sqlite_store, pieces, joiner):
    conn, _ = sqlite_store
    expression = joiner.join(pieces)

    def valid(text: str) -> bool:
        try:
            fts.words(conn, text, fts.Filters(), 5, WEIGHTS)
        except InvalidQuery:
            return False
        return True

    try:
        expanded, _ = prefix.expand(conn, expression)
    except InvalidQuery:
        assert not valid(expression), expression
        return
    assert valid(expanded) == valid(expression), (expression, expanded)


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory):
    conn = engine_store("sqlite", tmp_path_factory.mktemp("prefix"))
    titles = _write(conn)
    yield conn, titles
    conn.close()


def test_a_prefix_is_not_a_slip_to_correct(make_project):
    """Natural syntax corrects a word no excerpt holds (search/spelling.py); a word typed with
    `*` is a prefix: the words beginning with it are searched, none here, never `widget`."""
    project = make_project({"docs/ui.md": "# Widget\n\nThe widget renders a chart.\n"})
    resync(project)
    slipped = search_project(project, "widgex", SearchOptions(), now=NOW)
    assert [e.fact.title for e in slipped.excerpts] == ["Widget"]  # the slip is corrected
    answer = search_project(project, "widgex*", SearchOptions(), now=NOW)
    assert answer.excerpts == () and not any(note.startswith("spelling") for note in answer.notes)
