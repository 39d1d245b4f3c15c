"""The store contract for text look-ups that depend on columns and on case: a column filter
scores as it matches (FTS5's ``bm25()`` counts a filtered term's hits, and its document
frequency, in the filtered columns only), trigram searches honour the filters they can, and
names compare ignoring case the same way on both engines, beyond ASCII.

Written against the store functions only (no SQL), run on both engines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pg_engine import ENGINE as POSTGRESQL
from pg_engine import engine_store
from section_rows import write_sections

from kenning.errors import InvalidQuery
from kenning.graph import walk
from kenning.store import facts, fts, graph, graph_lookup, graph_write
from kenning.store.db import transaction

ENGINES = ("sqlite", POSTGRESQL)
STAMP = "2026-11-29T12:00:00Z"
WEIGHTS = (2.0, 1.5, 1.2, 1.0)  # search.lexical.WEIGHTS


@pytest.fixture(params=ENGINES)
def store(request: pytest.FixtureRequest, tmp_path: Path):
    conn = engine_store(request.param, tmp_path)
    yield conn
    conn.close()


FILLER = "plain words about something else entirely and nothing more to say here at all"
# "quokka" is common in bodies but in one title; "zephyr" is in four titles, and often in
# the bodies of the same facts.
CORPUS = [
    ("Quokka", "a short note"),
    ("Zephyr", "zephyr zephyr zephyr zephyr zephyr zephyr " + FILLER),
    ("Zephyr brief", "brief"),
    ("Zephyr wind", "zephyr " + FILLER),
    ("Zephyr gust", "a gust"),
    *[(f"Note {n}", f"quokka sighting number {n}") for n in range(6)],
    *[(f"Other {n}", FILLER) for n in range(6)],
]


def ranked(conn, titles: dict[int, str], match: str) -> list[str]:
    return [titles[i] for i, _ in fts.words(conn, match, fts.Filters(), 5, WEIGHTS)]


def test_a_column_filter_scores_only_the_filtered_columns(store):
    titles = write_sections(store, CORPUS)
    # Over every column, the facts repeating "zephyr" in their bodies come first; filtered to
    # titles, only title hits count (the longer bodies then weigh them down).
    assert ranked(store, titles, "zephyr") == ["Zephyr", "Zephyr brief", "Zephyr gust", "Zephyr wind"]
    assert ranked(store, titles, "title:zephyr") == ["Zephyr brief", "Zephyr gust", "Zephyr wind", "Zephyr"]
    assert ranked(store, titles, "{title body}:zephyr") == ranked(store, titles, "zephyr")
    # "quokka" is in seven facts but one title: rare in titles, it outranks every "zephyr"
    # there; over every column it comes last.
    assert ranked(store, titles, "zephyr OR quokka")[4] == "Quokka"
    everything = ["Quokka", "Zephyr brief", "Zephyr gust", "Zephyr wind", "Zephyr"]
    assert ranked(store, titles, "title:zephyr OR title:quokka") == everything
    assert ranked(store, titles, "title:(zephyr OR quokka)") == everything
    assert ranked(store, titles, "title:quokka OR zephyr") == ["Quokka", *ranked(store, titles, "zephyr")[:4]]
    assert ranked(store, titles, "title:(zephyr OR quokka) NOT body:brief") == [
        t for t in everything if t != "Zephyr brief"
    ]


CODE = [
    ("Config loader", "load_config", "src/app/config_loader.py"),
    ("Other thing", "loader helper", "src/other.py"),  # "loader" in keywords only
    ("Readme", "", "docs/loader.md"),
]


def write_code(conn) -> dict[int, str]:
    with transaction(conn):
        ids = [
            facts.insert(
                conn,
                facts.NewFact(
                    type="code",
                    title=title,
                    body="body text",
                    keywords=keywords,
                    source_kind="file",
                    source_uri=f"{path}:1-2",
                    producer="projection",
                    date_indexed=STAMP,
                    path=path,
                ),
            )
            for title, keywords, path in CODE
        ]
    return {i: title for i, (title, _, _) in zip(ids, CODE, strict=True)}


@pytest.mark.parametrize(
    ("match", "titles"),
    [
        ('"loader"', ["Config loader", "Readme"]),  # titles and paths, not keywords
        ('title:"loader"', ["Config loader"]),
        ('path:"loader"', ["Config loader", "Readme"]),
        ('-title:"loader"', ["Config loader", "Readme"]),  # every trigram column but title: path
        ('"title":"oader" NOT path:"docs"', ["Config loader"]),
        ('title:(path:"loader")', []),
        ('"r thi"', ["Other thing"]),
        ('"ader src"', []),  # never across two columns
    ],
)
def test_a_trigram_search_honours_column_filters(store, match, titles):
    named = write_code(store)
    found = fts.trigrams(store, match, fts.Filters(), 10)
    assert sorted(named[i] for i, _ in found) == titles
    assert fts.count_trigrams(store, match, fts.Filters()) == len(titles)


@pytest.mark.parametrize("column", ["keywords", "body"])
def test_a_trigram_filter_on_a_column_it_does_not_hold_is_an_invalid_query(store, column):
    write_code(store)
    for search in (fts.trigrams, lambda *args: fts.count_trigrams(*args[:3])):
        with pytest.raises(InvalidQuery, match=rf"'{column}' is not a column \(columns: title, path;"):
            search(store, f'{column}:"loader"', fts.Filters(), 10)


# --- names ignoring case, beyond ASCII -----------------------------------------------------


def write_names(conn) -> dict[str, int]:
    with transaction(conn):
        writer = graph_write.GraphWriter(conn)
        ids = {
            "Élan": writer.node("decision", "decision:docs/adr/0001-élan.md", "Élan", origin="docs/adr/0001-élan.md"),
            "Straße": writer.node("task", "task:T-1", "Straße", origin="TASKS.md"),
            "ΟΔΟΣ": writer.node("symbol", "symbol:src/m.py:ΟΔΟΣ", "ΟΔΟΣ", origin="src/m.py", qualname="m.ΟΔΟΣ"),
            "Run": writer.node("symbol", "symbol:src/m.py:Run", "Run", origin="src/m.py", qualname="pkg.Ωmega.Run"),
            "İz": writer.node("symbol", "symbol:src/m.py:İz", "İz", origin="src/m.py", qualname="m.İz"),
        }
        writer.flush()
    return ids


@pytest.mark.parametrize(
    ("asked", "name"),
    [("élan", "Élan"), ("ÉLAN", "Élan"), ("STRAßE", "Straße"), ("Οδοσ", "ΟΔΟΣ"), ("iz", "İz"), ("RUN", "Run")],
)
def test_names_compare_ignoring_case_beyond_ascii(store, asked, name):
    ids = write_names(store)
    assert [n.id for n in graph.nodes_by(store, "name_nocase", asked, limit=8)] == [ids[name]]
    rows, how = graph_lookup.exact_nodes(store, asked)
    assert ([r[0] for r in rows], how) == ([ids[name]], "exact")


@pytest.mark.parametrize("asked", ["STRASSE", "οδος", "élans"])  # ß is not ss; a final ς is not σ
def test_names_that_differ_beyond_case_are_not_found(store, asked):
    write_names(store)
    assert graph.nodes_by(store, "name_nocase", asked, limit=8) == []
    assert graph_lookup.exact_nodes(store, asked) == ([], None)


def test_a_qualified_name_suffix_compares_ignoring_case_beyond_ascii(store):
    ids = write_names(store)
    rows, how = graph_lookup.exact_nodes(store, "ωMEGA.run")
    assert ([r[0] for r in rows], how) == ([ids["Run"]], "exact")


def test_the_walk_suffix_and_prefix_look_ups_ignore_case_beyond_ascii(store):
    """``nodes_by``'s suffix and prefix look-ups (what ``graph.walk.find_nodes`` tries before
    names ignoring case) ignore case on both engines: SQLite's ``LIKE`` did for ASCII,
    PostgreSQL's did not at all."""
    ids = write_names(store)
    with transaction(store):
        writer = graph_write.GraphWriter(store)
        ids["file"] = writer.node(
            "file", "file:src/Big_File.py", "src/Big_File.py", origin="src/Big_File.py", path="src/Big_File.py"
        )
        ids["commit"] = writer.node("commit", "commit:abcdef1234", "abcdef1", origin="git")
        writer.flush()

    def found(lookup: str, value: str) -> list[int]:
        return [n.id for n in graph.nodes_by(store, lookup, value, limit=8)]

    assert found("qualname_suffix", "ΩMEGA.run") == found("qualname_suffix", "Ωmega.Run") == [ids["Run"]]
    assert found("qualname_suffix", "ωmega.run") == [ids["Run"]]
    assert found("path_suffix", "big_file.PY") == [ids["file"]]
    assert found("commit_prefix", "ABCDEF1") == [ids["commit"]]
    assert found("qualname_suffix", "mega.run") == []  # a suffix starts at a dot
    assert [n.id for n in walk.find_nodes(store, "BIG_FILE.py")] == [ids["file"]]


ENDS_EARLY = "the expression ends too early"


@pytest.mark.parametrize(
    ("match", "message"),
    [
        ('"unclosed', "a quote is not closed"),
        ('gamma "b', "a quote is not closed"),
        ("gamma AND", ENDS_EARLY),
        ("(gamma", ENDS_EARLY),
        ("title:", ENDS_EARLY),
        ("gamma OR OR delta", "OR needs a term on each side"),
        ("NOT gamma", "NOT needs a term on each side"),
        ("gamma)", "unexpected ')'"),
        ("()", "unexpected ')'"),
        ("*", "a lone '*'"),
    ],
)
def test_a_malformed_expression_says_the_same_on_both_engines(store, match, message):
    write_sections(store, CORPUS)
    with pytest.raises(InvalidQuery, match=f"^invalid search syntax: {re.escape(message)}"):
        fts.words(store, match, fts.Filters(), 5, WEIGHTS)


@pytest.mark.parametrize(
    ("match", "with_and"),
    [
        ("zephyr (brief OR gust)", "zephyr AND (brief OR gust)"),
        ("(brief OR gust) zephyr", "(brief OR gust) AND zephyr"),
        ("(zephyr) (brief)", "(zephyr) AND (brief)"),
        ("zeph* (gust)", "zeph* AND (gust)"),
    ],
)
def test_a_group_beside_a_term_is_invalid_on_both_engines(store, match, with_and):
    """FTS5 joins terms side by side (an implicit AND), never a parenthesised group to what stands
    beside it: a syntax error there, and on PostgreSQL, whose translation read it as an AND; both
    say so (SQLite's said "OR needs a term on each side" of ``a (b OR c)``, a walk of koel found)."""
    write_sections(store, CORPUS)
    beside = "^invalid search syntax: a parenthesised group needs AND, OR or NOT between it and what stands beside it"
    with pytest.raises(InvalidQuery, match=beside):
        fts.words(store, match, fts.Filters(), 5, WEIGHTS)
    fts.words(store, with_and, fts.Filters(), 5, WEIGHTS)  # the same with its AND: valid


def test_terms_side_by_side_bind_tighter_than_not_and_a_spaced_star_is_a_prefix(store):
    """FTS5 reads ``a NOT b c`` as ``a NOT (b c)`` and ``"a" *`` as a prefix; PostgreSQL's
    translation reads them the same (it read ``a NOT b AND c`` and refused the spaced star)."""
    titles = write_sections(store, CORPUS)
    zephyrs = {"Zephyr", "Zephyr brief", "Zephyr wind", "Zephyr gust"}

    def hits(match: str) -> set[str]:
        return {titles[i] for i, _ in fts.words(store, match, fts.Filters(), 20, WEIGHTS)}

    assert hits("zephyr NOT brief gust") == zephyrs  # no fact says both brief and gust
    assert hits("zephyr NOT brief") == zephyrs - {"Zephyr brief"}
    assert hits('"zeph" *') == hits("zeph*") == zephyrs
    assert hits("zeph *") == zephyrs
