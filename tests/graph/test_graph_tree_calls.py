"""Calls in the tree-sitter languages reach the graph (parser ``code/4``): a TypeScript and a Go
project answer who calls a function and which tests cover it, on both engines; a call through
a type the project does not define (``Object.keys()``) reaches none of its homonyms, and a
call through one of the project's modules stays ``heuristic`` however unique its name."""

from __future__ import annotations

import pytest
from graph_edges import callees, covering

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.relations import relation_of
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

TS = {
    "src/view.ts": (
        "export class View {\n  constructor(private model: string) {}\n"
        "  render(): string {\n    return escapeHtml(this.model);\n  }\n}\n\n"
        "export function escapeHtml(text: string): string {\n  return text.replace(/</g, '&lt;');\n}\n\n"
        "export function keys(): string[] {\n  return [];\n}\n"
    ),
    "src/router.ts": (
        "import { View } from './view';\nimport * as log from './log';\n\n"
        "export class Router {\n  handle(path: string): string {\n    log.record(path);\n"
        "    Object.keys({});\n    return new View(path).render();\n  }\n}\n\n"
        "export function page(p: string): string {\n  const view = new View(p);\n  return view.render();\n}\n"
    ),
    "src/log.ts": "export function record(line: string): void {\n  console.log(line);\n}\n",
    "test/view.test.ts": (
        "import { escapeHtml } from '../src/view';\n\n"
        "describe('escapeHtml', () => {\n  it('escapes', () => {\n"
        "    expect(escapeHtml('<b>')).toBe('&lt;b>');\n  });\n});\n"
    ),
}
GO = {
    "server.go": (
        'package app\n\nimport (\n  "fmt"\n)\n\ntype Server struct{}\n\n'
        "func (s *Server) Run() {\n  fmt.Println(1)\n  s.listen()\n  helper()\n}\n\n"
        "func (s *Server) listen() {}\n\nfunc (s *Server) Find() {\n  s.listen()\n}\n\nfunc helper() {}\n\n"
        "type Client struct{}\n\nfunc (c *Client) listen() {}\n\nfunc serve() {\n  c := &Client{}\n  c.listen()\n}\n\n"
        "type Hub struct {\n  client *Client\n}\n\nfunc (h *Hub) Start() {\n  h.client.listen()\n}\n"
    ),
    "server_test.go": 'package app\n\nimport "testing"\n\nfunc TestHelper(t *testing.T) {\n  helper()\n}\n',
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_typescript_calls_and_tests_reach_the_graph(make_project, engine):
    project = make_project(TS, name="tscalls", config=engine_config(engine, "tscalls"))
    resync(project)
    assert callees(project, "View.render") == {("escapeHtml", "extracted")}
    assert callees(project, "Router.handle") == {
        ("record", "extracted"),  # through `import * as log from './log'`: that file's
        ("View", "extracted"),  # `new View(...)`
        ("View.render", "extracted"),  # `new View(path).render()`: a call on the View it creates
    }  # and not the project's own `keys` for `Object.keys()`
    assert covering(project, "escapeHtml") == {("file", "test/view.test.ts", "extracted")}
    # `const view = new View(p); view.render()`: a call on a View
    assert callees(project, "page") == {("View", "extracted"), ("View.render", "extracted")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_go_methods_are_named_by_their_type_and_their_calls_reach_the_graph(make_project, engine):
    project = make_project(GO, name="gocalls", config=engine_config(engine, "gocalls"))
    resync(project)
    # `s.listen()` on the method's receiver: Server's, not Client's of the same file
    assert callees(project, "Server.Run") == {("Server.listen", "extracted"), ("helper", "extracted")}
    assert callees(project, "serve") == {("Client.listen", "extracted")}  # `c := &Client{}`
    assert callees(project, "Hub.Start") == {("Client.listen", "extracted")}  # `h.client`, a *Client field
    assert covering(project, "helper") == {("symbol", "server_test.go", "extracted")}


def test_a_relation_question_on_a_typescript_project_answers_with_the_callers(make_project):
    project = make_project(TS, name="tsask")
    resync(project)
    callers = ask_project(project, "who calls escapeHtml", now=NOW, limit=5)
    assert callers.mode == "graph"
    assert callers.excerpts[0].fact.source.uri == "src/view.ts:3-5"  # View.render
    tests = ask_project(project, "what tests cover escapeHtml", now=NOW, limit=5)
    assert tests.mode == "graph"
    assert [e.fact.source.uri.split(":")[0] for e in tests.excerpts] == ["test/view.test.ts"]


def test_a_go_method_named_like_a_common_word_is_a_name_when_typed_capitalised(make_project):
    """``find`` is a stop word; ``Find``, typed so after the question's first word, is Go's
    exported method: the walk starts from it. The question's own first word stays a word."""
    project = make_project(GO, name="gofind")
    resync(project)
    answer = ask_project(project, "what does Find call", now=NOW, limit=5)
    assert answer.mode == "graph"
    assert any("from Server.Find" in note for note in answer.notes), answer.notes
    assert answer.excerpts[0].fact.title.startswith("func (s *Server) listen()")
    plain = ask_project(project, "Find who calls helper", now=NOW, limit=5)
    assert any("callers (incoming) from helper" in note for note in plain.notes), plain.notes


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_no_call_reaches_a_symbol_of_another_language(make_project, engine):
    """Django's vendored Select2 calls ``translation.all()``: no caller of ``QuerySet.all``. Nor does
    a Python call reach a JavaScript function of its name; TypeScript reaches JavaScript."""
    files = {
        "app/__init__.py": "",
        "app/query.py": (
            "class QuerySet:\n    def all(self):\n        return self\n\n\n"
            "def lookup(qs):\n    return qs.all()\n\n\ndef render():\n    return format_date(1)\n"
        ),
        "static/select2.js": "function load(translation) {\n  return translation.all();\n}\n",
        "static/dates.js": "export function format_date(d) {\n  return d;\n}\n",
        "web/page.ts": (
            "import { format_date } from '../static/dates';\n\nexport function show() {\n  format_date(2);\n}\n"
        ),
    }
    project = make_project(files, name="crosslang", config=engine_config(engine, "crosslang"))
    resync(project)
    # its own file's, a guess: ``qs`` is of no type the code says
    assert callees(project, "app.query.lookup") == {("app.query.QuerySet.all", "heuristic")}
    assert callees(project, "load") == set()
    assert callees(project, "app.query.render") == set()
    assert callees(project, "show") == {("format_date", "extracted")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_bare_call_its_class_does_not_answer_is_a_guess_at_another_classs_member(make_project, engine):
    """lobsters' models read ``user`` (Rails' ``belongs_to :user``) bare: it was linked ``extracted``
    to ``Telebugs.user``, the project's only ``user`` (a module's own method, in an initializer). A
    bare call reaches its own class's methods, its bases', a function of no class, or (Java) its
    outer class's member; another class's homonym is a guess."""
    files = {
        "app/models/story.rb": (
            "class Story < ApplicationRecord\n  belongs_to :user\n\n  def owner_name\n    user.username\n  end\n\n"
            "  def tidy\n    helper_top\n  end\nend\n"
        ),
        "config/initializers/telebugs.rb": (
            "module Telebugs\n  def self.user\n    nil\n  end\nend\n\ndef helper_top\n  1\nend\n"
        ),
        "src/Outer.java": (
            "class Outer {\n  void helper() {}\n  class Inner {\n    void run() { helper(); }\n  }\n}\n"
            "class Other {\n  void work() { helper(); }\n}\n"
        ),
    }
    project = make_project(files, name="bare", config=engine_config(engine, "bare"))
    resync(project)
    assert callees(project, "Story.owner_name") == {("Telebugs.user", "heuristic")}
    assert callees(project, "Story.tidy") == {("helper_top", "extracted")}
    assert callees(project, "Outer.Inner.run") == {("Outer.helper", "extracted")}  # its outer class's
    assert callees(project, "Other.work") == {("Outer.helper", "heuristic")}


def test_rubys_class_methods_written_in_class_self_are_the_classs_methods(make_project):
    """sinatra, walked: ``class << self`` holds Base's DSL (``get``, ``route``, ``compile!``), which had
    no node ("no graph node named 'Base.route'"), its lines cut as "if block" runs, its calls
    reaching other classes' homonyms. Its methods are the class's, named as ``def self.get`` is."""
    files = {
        "lib/sinatra/base.rb": (
            "module Sinatra\n  class Base\n    class << self\n      def get(path)\n        route('GET', path)\n"
            "      end\n\n      def route(verb, path)\n        compile!(verb, path)\n      end\n\n      private\n\n"
            "      def compile!(verb, path)\n        verb\n      end\n    end\n  end\nend\n"
        ),
        "lib/sinatra/namespace.rb": (
            "module Sinatra\n  module Namespace\n    def compile!(pattern)\n      pattern\n    end\n\n"
            "    def route(verb)\n      verb\n    end\n  end\nend\n"
        ),
    }
    project = make_project(files, name="singleton")
    resync(project)
    assert callees(project, "Sinatra.Base.get") == {("Sinatra.Base.route", "extracted")}
    assert callees(project, "Sinatra.Base.route") == {("Sinatra.Base.compile!", "extracted")}
    answer = ask_project(project, "who calls compile!", now=NOW, limit=5)
    # its caller, then that caller's: Base's, never through Namespace's homonym
    assert [e.explain["node"]["name"] for e in answer.excerpts] == ["Sinatra.Base.route", "Sinatra.Base.get"]
    assert any("Sinatra.Base.compile! (exact)" in note for note in answer.notes), answer.notes


def test_a_call_a_files_own_lines_make_is_cited_by_the_excerpt_that_holds_it(make_project):
    """lobsters, walked: every RSpec caller was cited by its spec's first excerpt
    (``story_spec.rb:1-67``, for a call at line 390). A file's own lines are many excerpts (an
    ``it`` block, a ``describe(…)`` call): the one holding the call is served."""
    cases = "".join(
        f"describe('case {n}', () => {{\n"
        + "".join(
            f"  it('checks the amount of case {n}.{k} with its unit', () => {{\n"
            f"    expect(unit + {k}).toBe({k + 1});\n  }});\n"
            for k in range(6)
        )
        + "});\n\n"
        for n in range(8)
    )
    files = {
        "src/price.js": "export function price(x) {\n  return x;\n}\n",
        "test/price.test.js": "import { price } from '../src/price';\n\nconst unit = 1;\n\n"
        + cases
        + "describe('price', () => {\n  it('is the amount', () => {\n    expect(price(unit)).toBe(1);\n  });\n});\n",
    }
    project = make_project(files, name="holding")
    resync(project)
    answer = ask_project(project, "which tests cover price", now=NOW, limit=5)
    # the file's first excerpt is lines 1-66; the call is at line 173
    assert [e.fact.source.uri for e in answer.excerpts] == ["test/price.test.js:131-177"]


def test_a_rails_callback_calls_the_method_its_symbol_names(make_project):
    """lobsters, walked: "who calls require_logged_in_user" missed the 15 controllers whose
    ``before_action :require_logged_in_user`` runs it; "who calls record_initial_upvote" found none
    (``after_create :record_initial_upvote``)."""
    files = {
        "app/controllers/concerns/authenticatable.rb": (
            "module Authenticatable\n  def require_logged_in_user\n    true\n  end\nend\n"
        ),
        "app/controllers/application_controller.rb": (
            "class ApplicationController < ActionController::Base\n  include Authenticatable\nend\n"
        ),
        "app/controllers/stories_controller.rb": (
            "class StoriesController < ApplicationController\n"
            "  before_action :require_logged_in_user, only: [:upvote]\n\n  def upvote\n    1\n  end\nend\n"
        ),
        "app/models/story.rb": (
            "class Story < ApplicationRecord\n  after_create :record_initial_upvote\n  has_many :votes\n\n"
            "  def record_initial_upvote\n    votes.create\n  end\nend\n"
        ),
    }
    project = make_project(files, name="callbacks")
    resync(project)
    assert ("Authenticatable.require_logged_in_user", "extracted") in callees(project, "StoriesController")
    assert ("Story.record_initial_upvote", "extracted") in callees(project, "Story")
    answer = ask_project(project, "who calls record_initial_upvote", now=NOW, limit=5)
    assert [e.fact.source.uri for e in answer.excerpts][:1] == ["app/models/story.rb:1-3"]


def test_which_classes_include_a_ruby_module_is_asked_in_words(make_project):
    """lobsters, walked: "which classes include Token" was a word search (``include Token``, a mixin,
    is one of the class's bases); "which files include" stays C's ``#include``: an import."""
    files = {
        "app/models/token.rb": "module Token\n  def token_value\n    1\n  end\nend\n",
        "app/models/story.rb": "class Story < ApplicationRecord\n  include Token\nend\n",
        "app/models/comment.rb": "class Comment < ApplicationRecord\n  include Token\nend\n",
    }
    project = make_project(files, name="mixins")
    resync(project)
    answer = ask_project(project, "which classes include Token", now=NOW, limit=5)
    assert answer.rule == "relation" and {e.explain["node"]["name"] for e in answer.excerpts} == {"Story", "Comment"}
    assert relation_of("which files include jv.h").name == "dependents"


def test_rubys_core_methods_on_values_and_bare_names_outside_a_class_guess_no_module_member(make_project):
    """lobsters and sinatra, re-walked: ``x.id`` reached ``ShortId::CandidateId#id`` (an ``attr_accessor``),
    flooding "what depends on ShortId"; an RSpec ``let(:user)`` read bare was an ``extracted`` call of
    ``Telebugs.user``; ``dup.call!(env)``, a call on a copy of the object, lost its certainty."""
    files = {
        "lib/short_id.rb": "class ShortId\n  class CandidateId\n    attr_accessor :id\n  end\nend\n",
        "config/initializers/telebugs.rb": "module Telebugs\n  def self.user\n    nil\n  end\nend\n",
        "app/models/comment.rb": "class Comment\n  def parent_id\n    parent_comment.id\n  end\nend\n",
        "spec/requests/settings_spec.rb": "describe 'settings' do\n  it 'signs in' do\n    sign_in user\n  end\nend\n",
        "lib/sinatra/base.rb": (
            "class Base\n  def call(env)\n    dup.call!(env)\n  end\n\n  def call!(env)\n    env\n  end\nend\n"
        ),
    }
    project = make_project(files, name="rubyvalues")
    resync(project)
    assert callees(project, "Comment.parent_id") == set()
    answer = ask_project(project, "who calls Telebugs.user", now=NOW, limit=5)
    assert {s["link"] for e in answer.excerpts for s in e.path} <= {"heuristic"}, answer.excerpts
    assert ("Base.call!", "extracted") in callees(project, "Base.call")
