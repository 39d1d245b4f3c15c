"""Relation questions in words, asked as `kenning ask` asks them, on a fixture project with
Python and JavaScript code, ADRs (one superseded), a ledger and commits (issue 12)."""

from __future__ import annotations

import relations_project

from conftest import NOW, resync
from kenning.answer.ask import GRAPH_GUESS_EMPTY, ask_project
from kenning.bench.project_questions import matches

TOP = 3


def _row(answer, expected: list[str]) -> tuple[int | None, list[str]]:
    names = [(e.explain or {}).get("node", {}).get("name") or e.fact.title for e in answer.excerpts]
    rank = next(
        (r for r, ex in enumerate(answer.excerpts, 1) if any(matches(ex, e) or ex.fact.title == e for e in expected)),
        None,
    )
    return rank, names


def test_relation_questions_in_english_and_french_are_answered_from_the_graph_with_an_expected_node_in_the_top_3(
    make_project,
):
    project = relations_project.build(make_project)
    resync(project)
    rows = relations_project.questions()
    assert len(rows) >= 30
    lines = [f"{'ok':<3} {'mode':<7} {'rank':<4} question -> top {TOP}"]
    good = 0
    for row in rows:
        answer = ask_project(project, row["question"], now=NOW)
        rank, names = _row(answer, row["expected"])
        ok = answer.mode == "graph" and rank is not None and rank <= TOP and not answer.degradations
        good += ok
        lines.append(
            f"{'yes' if ok else 'NO':<3} {answer.mode:<7} {rank or '-':<4} {row['question']} -> "
            f"{', '.join(map(str, names[:TOP]))}"
        )
    score = good / len(rows)
    print(
        "\n" + "\n".join(lines) + f"\nscore: {good}/{len(rows)} = {score:.1%} answered in graph mode with an "
        f"expected node in the top {TOP}"
    )
    assert score >= 0.9


def test_what_imports_a_file_in_french_walks_its_importers_and_what_matters_most_is_searched(make_project):
    """ "qu'est-ce qui importe X" asks what imports X; "qu'est-ce qui importe le plus" is the idiom
    "what matters most", a lexical question (route.relations)."""
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "qu'est-ce qui importe app/retry.py", now=NOW)
    assert (answer.mode, answer.rule) == ("graph", "relation")
    assert _row(answer, ["app/client.py"])[0] is not None and _row(answer, ["tests/retry_checks.py"])[0] is not None
    matters = ask_project(project, "qu'est-ce qui importe le plus ici", now=NOW)
    assert (matters.mode, matters.rule) == ("lexical", "default")


def test_a_who_calls_answer_lists_callers_first_never_the_node_itself_and_says_what_it_followed(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "what calls Client.send", now=NOW)
    assert answer.mode == "graph" and answer.rule == "relation"
    names = [e.explain["node"]["name"] for e in answer.excerpts]
    assert "app.client.Client.send" not in names
    # the resolved call (extracted, after `client = Client()`: branch receivers) first; then the
    # guesses: `client.send()` on an untyped parameter (the caller's file holds the only `send`), and
    # a call on an unknown receiver (`generator.send`)
    assert names == ["app.cli.main", "app.client.sync_all", "app.jobs.drain"]
    first = answer.excerpts[0]
    assert first.explain["relation"] == "callers" and first.explain["direction"] == "incoming"
    assert first.explain["start"][0] == {
        "kind": "symbol",
        "name": "app.client.Client.send",
        "named_by": "Client.send",
        "resolved_by": "exact",
    }
    step = first.path[-1]
    assert step["type"] == "calls" and step["link"] == "extracted" and step["walked"] == "backward"
    assert step["source"]["uri"].startswith("app/cli.py") and step["freshness"] == "current"
    assert [s["link"] for s in answer.excerpts[1].path] == ["heuristic"]
    assert [s["link"] for s in answer.excerpts[2].path] == ["heuristic"]


def test_what_a_test_exercises_is_asked_the_other_way_from_its_tests(make_project):
    """ "what is tested by X", "what does X test", "que teste X": X is the test, its answer the code
    whose tests it is (``tested_by`` walked back); "which tests cover X" still gives X's tests."""
    project = relations_project.build(make_project)
    resync(project)

    def names(question: str) -> list[str]:
        answer = ask_project(project, question, now=NOW)
        assert (answer.mode, answer.rule) == ("graph", "relation"), (question, answer.notes)
        return [(e.explain or {}).get("node", {}).get("name") for e in answer.excerpts]

    assert names("what is tested by test_backoff_doubles") == ["app.retry.backoff_delay"]
    assert names("qu'est-ce qui est testé par test_retry_returns_the_answer") == ["app.retry.retry"]
    for question in ("what does tests/retry_checks.py test", "que teste tests/retry_checks.py ?"):
        assert set(names(question)) == {"app.retry.backoff_delay", "app.retry.retry"}, question
    assert "tests.retry_checks.test_backoff_doubles" in names("which tests cover backoff_delay")


def test_a_class_named_with_its_case_is_not_a_method_of_the_same_name(make_project, cli):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "what calls Timeout", now=NOW)
    assert answer.excerpts[0].explain["start"][0]["name"] == "app.retry.Timeout"
    path = cli("graph", "path", "Timeout", "Client", "--json", "--project", str(project.root)).json()
    start, second = path["excerpts"][:2]
    assert start["path"] == [] and start["explain"]["node"]["name"] == "app.retry.Timeout"  # the path's first node
    first = second["path"][0]
    assert "app.retry.Timeout" in (first["from"]["name"], first["to"]["name"])
    steps = [end["name"] for ex in path["excerpts"] for s in ex["path"] for end in (s["from"], s["to"])]
    assert "app.client.Client.timeout" not in steps


def test_why_did_we_answers_with_the_decision_and_marks_the_superseded_one(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "why did we choose SQLite", now=NOW)
    assert answer.mode == "graph" and not answer.degradations
    first, second = [e for e in answer.excerpts if "section" not in e.explain][:2]  # the decisions themselves
    assert first.fact.type == "decision" and first.explain["node"]["name"] == "ADR-0002"
    reasons = answer.excerpts[1]  # right after its decision, the section that states it
    assert reasons.explain["section"] == "Decision" and reasons.explain["node"]["name"] == "ADR-0002"
    assert reasons.snippet.startswith("## Decision Keep every record in one SQLite database file")
    assert first.explain["relation"] == "decisions" and first.explain["start"][0]["resolved_by"] == "lexical"
    assert second.explain["node"]["name"] == "ADR-0001" and second.explain["superseded"] is True
    assert second.path[0]["type"] == "supersedes"
    assert "T-2" in [e.explain["node"]["name"] for e in answer.excerpts]


def test_words_that_name_no_node_find_start_nodes_by_lexical_search_over_node_bearing_excerpts(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "quelles tâches touchent le formatage des dates", now=NOW)
    assert answer.mode == "graph"
    start = answer.excerpts[0].explain["start"]
    assert start[0]["resolved_by"] == "lexical" and start[0]["name"] == "formatDate"
    assert answer.excerpts[0].explain["node"]["name"] == "T-3"


def test_the_fixture_questions_file_is_read_by_kenning_bench(make_project, cli):
    project = relations_project.build(make_project, with_questions=True)
    resync(project)
    report = cli("bench", "--json", "--project", str(project.root)).json()
    own = report["project_questions"]
    assert own["questions"] == len(relations_project.questions())
    assert own["router"]["rule_agreement"] == 1.0 and own["router"]["mode_agreement"] == 1.0
    assert own["retrieval"]["recall@5"] >= 0.9


def test_a_named_identifier_the_graph_does_not_hold_is_a_degradation_not_a_stand_in(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "what calls parse_headers", now=NOW)
    assert (answer.mode, answer.rule) == ("lexical", "relation")
    assert answer.degradations == ("graph found no node named 'parse_headers'",)  # as `kenning graph` names it
    both = ask_project(project, "what is the path between `parse_headers` and send_mail()", now=NOW)
    assert both.degradations == ("graph found no node named 'parse_headers' or 'send_mail'",)


def test_words_that_lead_to_no_node_are_named_in_the_degradation_as_searched(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "who calls the zebra stampede", now=NOW)
    assert (answer.mode, answer.rule) == ("lexical", "relation")
    assert answer.degradations == ("graph found no node for the words 'zebra stampede'",)
    assert "words searched (the relation words left out): zebra stampede" in answer.notes


def test_a_node_with_no_caller_gives_an_empty_graph_answer_that_says_so(make_project):
    project = relations_project.build(make_project)
    resync(project)
    answer = ask_project(project, "who calls drain()", now=NOW)  # typed as a call: named, not guessed
    assert answer.mode == "graph" and answer.excerpts == () and answer.empty_reason.value == "no_match"
    assert "the graph holds no callers of app.jobs.drain (exact)" in answer.notes
    guessed = ask_project(project, "who calls drain", now=NOW)  # a plain word: the words answer instead
    assert guessed.mode == "lexical" and guessed.degradations == (GRAPH_GUESS_EMPTY,)
    assert "the graph holds no callers of app.jobs.drain (exact)" in guessed.notes


def test_a_test_named_after_what_it_tests_comes_first(make_project):
    """Tests found at the same hops and trust came in the order the walk met them (by path): a test
    named after the function (``test_slugify``) now comes before one that merely calls it."""
    project = make_project(
        {
            "app/text.py": "def slugify(value):\n    return value.lower()\n",
            "tests/test_a_pages.py": (
                "from app.text import slugify\n\n\ndef test_page_titles():\n    assert slugify('A') == 'a'\n"
            ),
            "tests/test_b_text.py": (
                "from app.text import slugify\n\n\ndef test_slugify_lowers():\n    assert slugify('B') == 'b'\n"
            ),
        }
    )
    resync(project)
    answer = ask_project(project, "which tests cover slugify", now=NOW)
    titles = [e.fact.title for e in answer.excerpts if e.fact.meta.get("symbol")]
    assert titles[:2] == ["def test_slugify_lowers()", "def test_page_titles()"], (answer.notes, titles)
