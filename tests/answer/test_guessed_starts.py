"""A relation question whose start nodes were guessed from its words, and whose walk finds
nothing, is answered by the words (lexical search) with a degradation saying so; a question
that typed the node's name keeps the graph's empty answer, which says why (branch emptygraph)."""

from __future__ import annotations

import pytest
from engine_projects import files_of, memory_ask, synced

from conftest import NOW
from kenning.answer.ask import GRAPH_GUESS_EMPTY, ask_project
from kenning.answer.naming import typed_names
from store.pg_engine import ENGINE  # tests/store: the PostgreSQL test server

FILES = {
    "README.md": (
        "# Ledger\n\n## Nightly export\n\n"
        "The exporter writes every ledger row to a CSV file each night; cron starts it.\n"
    ),
    "app/__init__.py": "",
    "app/exporter.py": (
        "import csv\n\n\n"
        "def export_rows(rows, path):\n"
        '    """Write the ledger rows to a CSV file."""\n'
        '    with open(path, "w", newline="") as handle:\n'
        "        csv.writer(handle).writerows(rows)\n"
    ),
    "app/ledger.py": (
        "def total(rows):\n"
        "    return sum(amount for _, amount in rows)\n\n\n"
        "def report(rows):\n"
        '    return f"total {total(rows)}"\n'
    ),
    "tests/__init__.py": "",
    "tests/test_ledger.py": (
        "from app.ledger import total\n\n\n"
        "def test_total_adds_the_amounts():\n"
        '    assert total([("a", 1), ("b", 2)]) == 3\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced(make_project, FILES, "ledger", request.param)


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("who calls the exporter", "app/exporter.py (path)"),  # a plain word that is a module's name
        ("which tests cover the nightly CSV export", "(lexical)"),  # words that name no node
        ("quels tests couvrent l'export CSV", "(lexical)"),
    ],
)
def test_a_guessed_start_whose_walk_finds_nothing_is_answered_by_the_words_saying_so(project, question, start):
    answer = ask_project(project, question, now=NOW)
    assert (answer.mode, answer.rule) == ("lexical", "relation")
    assert answer.degradations == (GRAPH_GUESS_EMPTY,)
    assert answer.excerpts and answer.empty_reason is None
    assert {"README.md", "app/exporter.py"} & set(files_of(answer)[:3]), files_of(answer)
    walked = next(n for n in answer.notes if n.startswith("the graph holds no "))
    assert start in walked  # which nodes were guessed, and that the graph found nothing from them


def test_a_plain_word_naming_a_symbol_exactly_is_not_called_a_guess_beside_its_exact_start(project):
    # "report" is exactly app.ledger.report's name: the start note says "(exact)", so the
    # degradation says where the start came from (plain words), not that it was guessed.
    answer = ask_project(project, "who calls report", now=NOW)
    assert "the graph holds no callers of app.ledger.report (exact)" in answer.notes
    assert answer.degradations == (
        "graph found nothing from start nodes taken from the question's plain words (not quoted or typed as code)",
    )
    assert not any("guess" in line for line in (*answer.degradations, *answer.notes))


def test_a_guessed_start_whose_walk_finds_something_stays_a_graph_answer(project):
    answer = ask_project(project, "who calls the total", now=NOW)
    assert (answer.mode, answer.degradations) == ("graph", ())
    assert [e.explain["node"]["name"] for e in answer.excerpts][:1] == ["app.ledger.report"]


@pytest.mark.parametrize("question", ["who calls export_rows", "who calls `export_rows`", "qui appelle export_rows()"])
def test_a_named_node_with_no_relation_keeps_the_graphs_empty_answer_and_says_why(project, question):
    answer = ask_project(project, question, now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    assert answer.excerpts == () and answer.empty_reason.value == "no_match" and answer.degradations == ()
    assert "the graph holds no callers of app.exporter.export_rows (exact)" in answer.notes


def test_kenning_ask_and_memory_ask_both_fall_back_to_the_words(project, cli):
    question = "who calls the exporter"
    from_cli = cli("ask", question, "--project", str(project.root), "--json").json()
    from_mcp = memory_ask(project, question, NOW)
    for answer in (from_cli, from_mcp):
        assert (answer["mode"], answer["degradations"]) == ("lexical", [GRAPH_GUESS_EMPTY])
    assert [e["citation"] for e in from_mcp["excerpts"]] == [e["citation"] for e in from_cli["excerpts"]]


def test_a_call_typed_with_parentheses_is_a_name_not_a_plain_word():
    assert typed_names("who calls drain()?") == ["drain"]
    assert typed_names("who calls drain") == []


def test_a_cpp_or_rust_path_is_typed_as_the_dotted_name_of_its_symbol():
    assert typed_names("who calls TableCache::Evict")[0] == "TableCache.Evict"
    assert typed_names("what does `ns::Parser::new` call") == ["ns.Parser.new"]
    assert typed_names("who calls a::") == []  # no name after the colons: no path


def test_a_ruby_path_or_instance_method_is_typed_as_its_dotted_name():
    assert typed_names("what calls Mod::StoriesController.undelete")[0] == "Mod.StoriesController.undelete"
    assert typed_names("what calls Mod::StoriesController#undelete")[0] == "Mod.StoriesController.undelete"
    assert typed_names("what calls StoriesController#upvote?")[0] == "StoriesController.upvote"


def test_an_acronym_leading_a_word_is_a_typed_name_and_a_plural_acronym_is_not():
    assert typed_names("who calls URLPattern") == ["URLPattern"]
    assert typed_names("which tests cover HTTPTransport") == ["HTTPTransport"]
    assert typed_names("which tests cover the APIs") == []
