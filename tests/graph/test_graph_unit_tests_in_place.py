"""Tests that live where the path does not say so (ripgrep and spring-petclinic, walked as a new
user): Rust keeps its unit tests in the file they test (``#[cfg(test)] mod tests`` of ``#[test]``
functions), so "which tests cover parse_reader" had no answer and its word fallback served nothing;
Maven's and Gradle's tests sit in ``src/test/java/<package>/OwnerControllerTests.java``, apart from
``src/main/java/<package>/OwnerController.java``, and reach it through the web layer
(``mockMvc.perform(get("/owners/new"))``), calling nothing of it by name."""

from __future__ import annotations

import json

import pytest
from graph_edges import callees, covering, paths_testing

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.grammars import grammar
from kenning.ingest.parsers import load_relations
from kenning.ingest.rust_tests import spans_of_tests
from kenning.ingest.test_files import class_under_test, file_under_test
from kenning.store.db import open_store

CONFIG_RS = """pub fn parse_reader(text: &str) -> usize {
    text.len()
}

#[cfg(not(test))]
pub fn load() -> usize {
    parse_reader("x")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> usize {
        parse_reader("helper")
    }

    #[test]
    fn basic() {
        let n = parse_reader("a b");
        assert_eq!(n, 3);
    }

    #[test]
    fn counts_words() {
        assert_eq!(count_words("a b"), 2);
    }

    #[test]
    fn measures_through_a_pointer() {
        let measure: fn(&str) -> usize = word_len;
        assert_eq!(measure("ab"), 2);
    }
}

pub fn count_words(text: &str) -> usize {
    text.split_whitespace().count()
}

pub fn word_len(text: &str) -> usize {
    text.len()
}
"""

RUST = {
    "Cargo.toml": '[package]\nname = "cfg"\nversion = "0.1.0"\n',
    "src/config.rs": CONFIG_RS,
    "src/main.rs": 'mod config;\n\nfn main() {\n    let n = config::parse_reader("x");\n    println!("{n}");\n}\n',
}


@pytest.mark.parametrize(
    ("source", "tests"),
    [
        ("#[test]\nfn basic() {}\n", ["fn basic() {}"]),
        ("#[tokio::test]\nasync fn runs() {}\n", ["async fn runs() {}"]),
        ("#[derive(Debug)]\n/// doc\n#[test]\nfn after_a_comment() {}\n", ["fn after_a_comment() {}"]),
        ("#[cfg(all(test, unix))]\nmod unix_tests {}\n", ["mod unix_tests {}"]),
        ("#[cfg(not(test))]\nfn shipped() {}\n", []),
        ("#[inline]\nfn fast() {}\n#[test_case(1)]\nfn case(n: u8) {}\n", ["fn case(n: u8) {}"]),
    ],
)
def test_rust_items_marked_as_tests_are_test_code(source, tests):
    from tree_sitter import Parser

    text = source.encode()
    spans = spans_of_tests(Parser(grammar("rust")).parse(text).root_node)
    assert [text[a:b].decode() for a, b in spans] == tests


def test_which_tests_cover_a_rust_function_finds_its_unit_tests_in_its_file(make_project):
    project = make_project(RUST, name="rusty")
    resync(project)
    testers = covering(project, "parse_reader")
    assert {path for _, path, _ in testers} == {"src/config.rs"}  # the tests module's callers, nothing else
    conn = open_store(project)
    try:
        rows = conn.execute("SELECT meta FROM facts WHERE type = 'code' AND path = 'src/config.rs'").fetchall()
    finally:
        conn.close()
    metas = {meta["symbol"]: meta.get("test") for meta in (json.loads(row[0]) for row in rows)}
    assert metas["tests.basic"] is True and metas["tests.helper"] is True
    assert metas["parse_reader"] is None and metas["load"] is None  # ``cfg(not(test))`` ships

    answer = ask_project(project, "which tests cover parse_reader", now=NOW)
    titles = [ex.fact.title for ex in answer.excerpts]
    assert answer.mode == "graph" and any("fn basic()" in t for t in titles), (answer.notes, titles)
    assert not any("fn load()" in t or "fn main()" in t for t in titles)


JAVA = {
    "pom.xml": "<project><artifactId>clinic</artifactId></project>\n",
    "src/main/java/org/clinic/owner/OwnerController.java": (
        "package org.clinic.owner;\n\npublic class OwnerController {\n"
        '    public String initCreationForm() {\n        return "owners/createOrUpdateOwnerForm";\n    }\n}\n'
    ),
    "src/test/java/org/clinic/owner/OwnerControllerTests.java": (
        "package org.clinic.owner;\n\nclass OwnerControllerTests {\n"
        '    void testInitCreationForm() throws Exception {\n        mockMvc.perform(get("/owners/new"));\n    }\n}\n'
    ),
    "src/test/java/org/clinic/ClinicIntegrationTests.java": "package org.clinic;\n\nclass ClinicIntegrationTests {}\n",
}


def test_a_maven_test_class_tests_the_class_its_name_and_package_mirror(make_project):
    assert file_under_test("src/test/java/org/clinic/owner/OwnerControllerTests.java") == (
        "src/main/java/org/clinic/owner/OwnerController.java"
    )
    assert file_under_test("app/src/test/kotlin/a/RepoTest.kt") == "app/src/main/kotlin/a/Repo.kt"
    assert file_under_test("src/main/java/org/clinic/owner/OwnerControllerTest.java") is None  # not a test set
    project = make_project(JAVA, name="clinic")
    resync(project)
    assert paths_testing(project, "src/main/java/org/clinic/owner/OwnerController.java") == {
        ("src/test/java/org/clinic/owner/OwnerControllerTests.java", "extracted")
    }
    # the class named as its file stands for that file, and the test class's tests are served
    answer = ask_project(project, "which tests cover OwnerController", now=NOW)
    titles = [ex.fact.title for ex in answer.excerpts]
    assert answer.mode == "graph" and "void testInitCreationForm() throws Exception {" in titles, (answer.notes, titles)
    paths = {ex.fact.source.uri.split(":")[0] for ex in answer.excerpts}
    assert paths == {"src/test/java/org/clinic/owner/OwnerControllerTests.java"}
    # and the other way: what the test class tests is the class its name mirrors, not its own tests
    tested = ask_project(project, "what is tested by OwnerControllerTests", now=NOW)
    paths = [ex.fact.source.uri.split(":")[0] for ex in tested.excerpts]
    assert tested.mode == "graph" and paths[:1] == ["src/main/java/org/clinic/owner/OwnerController.java"], (
        tested.notes,
        paths,
    )
    assert "relation tested (incoming) from OwnerControllerTests (exact)" in tested.notes


NAMED = {
    "src/App/Orders/OrderService.cs": (
        "namespace App.Orders;\n\npublic class OrderService\n{\n"
        "    public int Total(int n)\n    {\n        return n;\n    }\n}\n"
    ),
    # the same name in another language, and in a test project: not the code under test
    "src/Web/ClientApp/OrderService.ts": "export class OrderService {\n  total(n: number) { return n; }\n}\n",
    "tests/App.UnitTests/Helpers/OrderService.cs": "namespace App.UnitTests;\n\npublic class OrderService { }\n",
    "tests/App.UnitTests/Orders/OrderServiceTests.cs": (
        "namespace App.UnitTests.Orders;\n\npublic class OrderServiceTests\n{\n"
        "    [Fact]\n    public void TotalIsTheSum()\n    {\n        Assert.Equal(2, 2);\n    }\n}\n"
    ),
    # a MediatR feature: the command and its handler in a file named after the feature, and its tests
    "src/App/Orders/CreateOrder.cs": (
        "namespace App.Orders;\n\npublic record CreateOrderCommand(int Id);\n\n"
        "public class CreateOrderCommandHandler\n{\n"
        "    public int Handle(CreateOrderCommand request) => request.Id;\n}\n"
        "\npublic class CreateOrderly\n{\n}\n"
    ),
    "tests/App.UnitTests/Orders/CreateOrderTests.cs": (
        "namespace App.UnitTests.Orders;\n\npublic class CreateOrderTests\n{\n"
        "    [Fact]\n    public void CreatesAnOrder()\n    {\n    }\n}\n"
    ),
    "app/Services/Invoice.php": "<?php\n\nnamespace App\\Services;\n\nclass Invoice\n{\n}\n",
    "tests/Unit/InvoiceTest.php": (
        "<?php\n\nclass InvoiceTest extends TestCase\n{\n    public function test_it_sums()\n    {\n    }\n}\n"
    ),
}


def test_a_test_class_tests_the_nearest_class_of_its_language_its_name_names(make_project):
    """.NET's, PHPUnit's and XCTest's test classes sit in test projects that mirror the code's folders
    loosely (CleanArchitecture's ``tests/Application.FunctionalTests/TodoItems/Commands/
    CreateTodoItemTests.cs`` of ``src/Application/TodoItems/Commands/CreateTodoItem/CreateTodoItem.cs``):
    ``OrderServiceTests.cs`` tests the nearest ``OrderService.cs`` of the code's own, not a namesake in
    another language or among the tests."""
    assert class_under_test("tests/App.UnitTests/Orders/OrderServiceTests.cs") == "OrderService"
    assert class_under_test("src/test/java/org/clinic/owner/OwnerControllerTests.java") is None  # Maven's: a path
    assert class_under_test("src/App/Orders/OrderServiceTests.cs") is None  # not test code
    project = make_project(NAMED, name="shop")
    resync(project)
    assert paths_testing(project, "src/App/Orders/OrderService.cs") == {
        ("tests/App.UnitTests/Orders/OrderServiceTests.cs", "extracted")
    }
    assert paths_testing(project, "app/Services/Invoice.php") == {("tests/Unit/InvoiceTest.php", "extracted")}
    assert not paths_testing(project, "src/Web/ClientApp/OrderService.ts")
    answer = ask_project(project, "which tests cover OrderService", now=NOW)
    paths = {ex.fact.source.uri.split(":")[0] for ex in answer.excerpts}
    assert answer.mode == "graph" and paths == {"tests/App.UnitTests/Orders/OrderServiceTests.cs"}, answer.notes
    # a type named after its file and more (``CreateOrderCommandHandler`` in ``CreateOrder.cs``): the
    # file's tests; a type whose name only begins as the file's (``CreateOrderly``): not from the graph
    handler = ask_project(project, "which tests cover CreateOrderCommandHandler", now=NOW)
    paths = {ex.fact.source.uri.split(":")[0] for ex in handler.excerpts}
    assert handler.mode == "graph" and paths == {"tests/App.UnitTests/Orders/CreateOrderTests.cs"}, handler.notes
    other = ask_project(project, "which tests cover CreateOrderly", now=NOW)
    assert "the graph holds no tests of CreateOrderly (exact)" in other.notes


RAILS = {
    "app/models/story.rb": "class Story < ApplicationRecord\n  def title_as_url\n    title.parameterize\n  end\nend\n",
    "lib/story.rb": "module Legacy\n  class Story\n  end\nend\n",  # a namesake elsewhere: not the model
    "app/controllers/stories_controller.rb": (
        "class StoriesController < ApplicationController\n  def show\n  end\nend\n"
    ),
    "spec/models/story_spec.rb": (
        "describe Story do\n  it 'makes a url of its title' do\n    expect(1).to eq(1)\n  end\nend\n"
    ),
    "test/controllers/stories_controller_test.rb": (
        "class StoriesControllerTest < ActionDispatch::IntegrationTest\n  test 'shows' do\n  end\nend\n"
    ),
    "spec/requests/search_spec.rb": "describe 'search' do\n  it 'finds' do\n  end\nend\n",  # no search.rb
}


def test_an_rspec_or_minitest_file_tests_the_file_its_path_names(make_project):
    """Rails' layout: ``spec/models/story_spec.rb`` (RSpec) and
    ``test/controllers/stories_controller_test.rb`` (minitest) test ``app/models/story.rb`` and
    ``app/controllers/stories_controller.rb``, the class the file holds (``Story``, ``StoriesController``)
    with it."""
    assert class_under_test("spec/models/story_spec.rb") == "models/story"
    assert class_under_test("spec/spec_helper.rb") is None
    project = make_project(RAILS, name="news")
    resync(project)
    assert paths_testing(project, "app/models/story.rb") == {("spec/models/story_spec.rb", "extracted")}
    assert paths_testing(project, "app/controllers/stories_controller.rb") == {
        ("test/controllers/stories_controller_test.rb", "extracted")
    }
    assert not paths_testing(project, "lib/story.rb")
    answer = ask_project(project, "which tests cover StoriesController", now=NOW)
    paths = {ex.fact.source.uri.split(":")[0] for ex in answer.excerpts}
    assert answer.mode == "graph" and paths == {"test/controllers/stories_controller_test.rb"}, answer.notes


@pytest.mark.parametrize(
    ("body", "calls"),
    [
        ('assert_eq!(count_words("a b"), 2);', [("count_words", None, False)]),
        ("assert!(p.run(1) == 1);", [("run", None, True)]),  # on the name before ``.`` (its type unknown here)
        ("assert!(matches!(Parser::new(), _));", [("new", "Parser", True)]),  # through the path before ``::``
        ("assert!(super::parse_excludes_file(&data).is_none());", [("parse_excludes_file", None, False)]),
        ("assert_eq!(v, (a, (b)));", []),  # a comma between a name and parentheses: no call
        ("assert!((x).len() > 0);", []),  # on no name
        ("assert!(vec![1].is_empty());", []),  # a macro's own name, a method on its result
    ],
)
def test_a_name_followed_by_parenthesised_tokens_in_a_macro_is_a_call(body, calls):
    chunks, relations = load_relations("code/40")(f"fn check() {{\n    {body}\n}}\n", "src/lib.rs")
    found = [(r.target, r.hint, r.qualified) for r in relations.refs if r.type == "calls"]
    assert [(name, qualified) for name, _, qualified in found] == [(name, q) for name, _, q in calls]
    for (_, hint, _), (_, owner, _) in zip(found, calls, strict=True):
        assert owner is None or owner in (hint or ""), (hint, owner)


def test_a_call_inside_a_macro_is_a_call(make_project):
    """``assert_eq!(count_words("a b"), 2)``: a macro's arguments are tokens to tree-sitter, where
    Rust's tests make most of their calls (ripgrep's ``parse_excludes_file3`` and ``5`` were missing
    from its tests); a name followed by parenthesised tokens is read as a call (``macro_tokens``)."""
    project = make_project(RUST, name="macros")
    resync(project)
    assert {path for _, path, _ in covering(project, "count_words")} == {"src/config.rs"}
    answer = ask_project(project, "which tests cover count_words", now=NOW)
    titles = [ex.fact.title for ex in answer.excerpts]
    assert answer.mode == "graph" and titles == ["fn counts_words() {"], (answer.notes, titles)


def test_a_rust_function_its_tests_reach_without_a_call_gets_them_by_words(make_project):
    """``let measure: fn(&str) -> usize = word_len``: no call the graph links; the word fallback
    serves the test code that names it, found in the file it tests (``meta["test"]``: before, it
    served nothing, its path being no test's)."""
    project = make_project(RUST, name="pointer")
    resync(project)
    answer = ask_project(project, "which tests cover word_len", now=NOW)
    titles = [ex.fact.title for ex in answer.excerpts]
    assert titles and "fn measures_through_a_pointer()" in titles[0], (answer.notes, titles)
    assert all(ex.fact.meta.get("test") is True for ex in answer.excerpts)


MACRO_TESTS = {
    "Cargo.toml": '[package]\nname = "rg"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub fn smart_case(pattern: &str) -> bool {\n    pattern.chars().any(char::is_uppercase)\n}\n",
    "tests/feature.rs": (
        "use rg::smart_case;\n\n// Smart case: lower case searches ignore case.\n"
        'rgtest!(f70_smart_case, |dir: Dir, mut cmd: TestCommand| {\n    assert!(!smart_case("abc"));\n});\n\n'
        'rgtest!(f71_plain, |dir: Dir, mut cmd: TestCommand| {\n    cmd.arg("-s");\n});\n'
    ),
}


def test_a_test_a_rust_macro_defines_is_a_test_of_its_name(make_project):
    """ripgrep's 316 integration tests are ``rgtest!(name, |dir, cmd| { … })``: no symbol, their
    excerpts cut by size and titled after another test (walked as a new user). Each is a test
    function of its name (parser ``code/22``, ``rust_tests.macro_test_name``)."""
    project = make_project(MACRO_TESTS, name="rgtests")
    resync(project)
    assert {path for _, path, _ in covering(project, "smart_case")} == {"tests/feature.rs"}
    answer = ask_project(project, "which tests cover smart_case", now=NOW)
    titles = [ex.fact.title for ex in answer.excerpts]
    assert answer.mode == "graph" and titles == ["rgtest!(f70_smart_case, |dir: Dir, mut cmd: TestCommand| {"], (
        answer.notes,
        titles,
    )
    assert answer.excerpts[0].fact.meta["symbol"] == "f70_smart_case" and answer.excerpts[0].fact.source.uri.endswith(
        ":3-6"
    )


GUESSES = {
    "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub fn run() {\n    let stack = make();\n    stack.enqueue(1);\n}\n\npub fn make() -> Stack {\n"
    "    Stack\n}\n",
    "src/queue.rs": (
        "pub struct Queue;\n\nimpl Queue {\n    pub fn enqueue(&self, x: i32) {}\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    struct Fake;\n\n    impl Fake {\n"
        "        fn enqueue(&self, x: i32) {}\n    }\n}\n"
    ),
}


def test_a_guessed_call_from_code_reaches_no_method_of_a_rust_files_tests(make_project):
    """``stack.enqueue(1)`` on a value of unknown type is a guess (``heuristic``) among the methods named
    ``enqueue``; a guess from code reaches no test code, and a Rust file's ``mod tests`` is test code
    whatever the file's path (``graph.reference_rules.in_tests``): ``Queue.enqueue``, not ``tests.Fake.enqueue``."""
    project = make_project(GUESSES, name="guesses")
    resync(project)
    assert callees(project, "run") == {("Queue.enqueue", "heuristic"), ("make", "extracted")}
