"""Elixir through tree-sitter (``code``): a Phoenix-style app's modules, their functions (``def``,
``defp``, clauses, guards, ``defdelegate``), ExUnit's tests, and the ``alias`` and calls that link
them, asked in words."""

from __future__ import annotations

import pytest
from graph_edges import callees, calls_of, imported

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.elixir_source import module_path
from kenning.ingest.parsers import parser_for
from kenning.ingest.test_files import file_under_test
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lib/shop/accounts.ex": '''defmodule Shop.Accounts do
  @moduledoc """
  The accounts context.
  """
  import Ecto.Query, warn: false
  alias Shop.Repo
  alias Shop.Accounts.{User, Token}
  require Logger

  @timeout 5000

  @doc "A user by id, or nil."
  @spec get_user(integer) :: User.t() | nil
  def get_user(id) when is_integer(id) do
    Logger.debug("user #{id}")
    Repo.fetch(User, id) |> format_user()
  end

  def get_user(_), do: nil

  def list_users do
    Repo.all_of(User)
    |> Enum.map(&format_user/1)
  end

  defp format_user(%User{} = user) do
    Token.sign(user.email) && :crypto.hash(:sha256, user.name)
  end

  defdelegate count(query), to: Repo

  defmodule Stats do
    def total, do: 0
  end
end
''',
    "lib/shop/repo.ex": """defmodule Shop.Repo do
  def fetch(schema, id), do: {schema, id}
  def all_of(schema), do: [schema]
  def count(query), do: __MODULE__.all_of(query) |> length()
end
""",
    # a module and a module in it, each with its ``total``
    "lib/shop/cart.ex": """defmodule Shop.Cart do
  def total(items), do: Enum.sum(items)

  defmodule Line do
    def total(line), do: line
    def price(line), do: total(line)
  end
end
""",
    "lib/shop/accounts/user.ex": "defmodule Shop.Accounts.User do\n  defstruct [:email, :name]\nend\n",
    "lib/shop/accounts/token.ex": """defmodule Shop.Accounts.Token do
  def sign(text), do: text
end
""",
    # another module's homonym, never aliased by the accounts
    "lib/shop/billing/token.ex": """defmodule Shop.Billing.Token do
  def sign(amount), do: amount
end
""",
    "lib/shop_web/controllers/user_controller.ex": """defmodule ShopWeb.UserController do
  use ShopWeb, :controller
  alias Shop.Accounts, as: Users
  import ShopWeb.Helpers

  def show(conn, %{"id" => id}) do
    render(conn, :show, user: Users.get_user(id), by: audit_data(conn), title: gettext("User"))
  end
end
""",
    # Phoenix's router: a route calls its controller's action, the scope's alias before the controller's
    "lib/shop_web/router.ex": """defmodule ShopWeb.Router do
  use ShopWeb, :router

  scope "/", ShopWeb do
    pipe_through :browser
    get "/users/:id", UserController, :show
    post "/users/:id/delete", UserController, :delete
  end
end
""",
    # Phoenix function components: a module's own, an imported module's, an aliased module's, and
    # Phoenix.Component's ``<.link>``
    "lib/shop_web/components/core.ex": """defmodule ShopWeb.Core do
  use Phoenix.Component

  def button(assigns), do: ~H"<button>{render_slot(@inner_block)}</button>"
  def github_icon(assigns), do: ~H"<svg></svg>"
end
""",
    "lib/shop_web/live/user_page.ex": """defmodule ShopWeb.UserPage do
  use Phoenix.Component
  import ShopWeb.Core
  alias ShopWeb.Core, as: Icons

  def page(assigns) do
    ~H\"\"\"
    <.header>Users</.header>
    <.button kind="save">Save</.button>
    <Icons.github_icon /> <.link navigate="/">Home</.link>
    \"\"\"
  end

  defp header(assigns), do: ~H"<h1>{render_slot(@inner_block)}</h1>"
end
""",
    # a template file a module embeds (``embed_templates``): its components from the file
    "lib/shop_web/controllers/page_html/home.html.heex": '<.button kind="go">Go</.button>\n<.link href="/">x</.link>\n',
    # what ``use ShopWeb, :controller`` brings: the imports of the module's ``quote`` blocks
    "lib/shop_web.ex": """defmodule ShopWeb do
  def controller do
    quote do
      use Phoenix.Controller
      import ShopWeb.Gettext
    end
  end

  defmacro __using__(which) when is_atom(which), do: apply(__MODULE__, which, [])
end
""",
    "lib/shop_web/gettext.ex": "defmodule ShopWeb.Gettext do\n  def gettext(text), do: text\nend\n",
    # a script's bare call outside any module (``config`` of ``import Config``), and a homonym
    "config/config.exs": "import Config\n\nconfig :shop, timeout: 5000\n",
    "lib/shop/settings.ex": "defmodule Shop.Settings do\n  def config(key), do: key\nend\n",
    # a module of helpers the controller imports, and a homonym of one of them elsewhere
    "lib/shop_web/helpers.ex": "defmodule ShopWeb.Helpers do\n  def audit_data(conn), do: conn\nend\n",
    "lib/shop/audit.ex": (
        "defmodule Shop.Audit do\n  def audit_data(event), do: event\n  def link(event), do: event\n"
        "  def render(event), do: event\nend\n"
    ),
    "test/shop/accounts_test.exs": """defmodule Shop.AccountsTest do
  use ExUnit.Case
  alias Shop.Accounts

  describe "get_user/1" do
    test "finds a user by id" do
      assert Accounts.get_user(1)
    end

    test "is nil for v1.0 ids" do
      refute Accounts.get_user("x")
    end
  end

  property "any id" do
    assert Accounts.get_user(0) == nil
  end
end
""",
}


@pytest.mark.parametrize(
    ("module", "path"),
    [
        ("Shop.Accounts", "shop/accounts"),
        ("ShopWeb.UserController", "shop_web/user_controller"),
        ("HTTPClient.OAuth2", "http_client/o_auth2"),  # as Elixir's ``Macro.underscore`` writes them
        ("Hexpm.Accounts.TFA", "hexpm/accounts/tfa"),
    ],
)
def test_a_module_is_found_where_mix_keeps_it(module, path):
    assert module_path(module) == path


def test_elixir_is_read_by_its_grammar():
    path = "lib/shop/accounts.ex"
    assert parser_for(path).startswith("code/") and parser_for("test/shop/accounts_test.exs").startswith("code/")
    chunks, relations = parse_code_relations(FILES[path], path)
    assert [(s.qualname, s.kind, s.line_start, s.line_end) for s in relations.symbols] == [
        ("Shop.Accounts", "module", 1, 10),  # its head: up to its first member
        ("Shop.Accounts.get_user", "function", 12, 19),  # its ``@doc`` and ``@spec``, and its two clauses
        ("Shop.Accounts.list_users", "function", 21, 24),
        ("Shop.Accounts.format_user", "function", 26, 28),
        ("Shop.Accounts.count", "function", 30, 30),
        ("Shop.Accounts.Stats", "module", 32, 32),  # a nested module, named as Elixir names it
        ("Shop.Accounts.Stats.total", "function", 33, 33),
    ]
    assert relations.package == "Shop.Accounts"
    get_user = next(c for c in chunks if c.meta.get("symbol") == "Shop.Accounts.get_user")
    assert get_user.title == "def get_user(id) when is_integer(id) do"
    # each module imported or aliased, two for ``alias Shop.Accounts.{User, Token}``; Elixir's (``Logger``)
    # none (a library's, Ecto's, reaches no file of the project: the graph test below)
    assert [(r.target, r.line) for r in relations.refs if r.type == "imports"] == [
        ("ecto/query", 5),
        ("shop/repo", 6),
        ("shop/accounts/user", 7),
        ("shop/accounts/token", 7),
    ]
    calls = {(r.target, r.hint) for r in relations.refs if r.type == "calls"}
    # through a module: the one its ``alias`` names, in full
    assert {("fetch", "Shop.Repo"), ("all_of", "Shop.Repo"), ("sign", "Shop.Accounts.Token")} <= calls
    named = {target for target, _ in calls}
    assert "format_user" in named  # piped to, and captured (``&format_user/1``)
    # a head, an attribute, a map's field, Kernel's, Elixir's and Erlang's modules: no call
    assert not {"get_user", "timeout", "doc", "email", "name", "is_integer", "debug", "map", "hash"} & named


def test_a_phoenix_route_calls_its_controllers_action():
    path = "lib/shop_web/router.ex"
    chunks, relations = parse_code_relations(FILES[path], path)
    # the module's head, then its ``scope`` block: an excerpt of its own, not in the head
    assert [(c.title, c.line_start, c.line_end) for c in chunks] == [
        ("defmodule ShopWeb.Router do", 1, 2),
        ('scope "/", ShopWeb do', 4, 7),
    ]
    # the scope's alias before the controller's; no call of the verb (``get``), nor of ``scope``
    assert [(r.target, r.hint, r.line) for r in relations.refs if r.type == "calls"] == [
        ("show", "ShopWeb.UserController", 6),
        ("delete", "ShopWeb.UserController", 7),
    ]


def test_an_import_through_an_alias_imports_the_aliased_module():
    source = (
        "defmodule Shop.Page do\n  alias Shop.Helpers\n  import Helpers\n  alias Shop.Format, as: F\n  require F\nend\n"
    )
    _, relations = parse_code_relations(source, "lib/shop/page.ex")
    assert [(r.target, r.line) for r in relations.refs if r.type == "imports"] == [
        ("shop/helpers", 2),
        ("shop/helpers", 3),  # not the file ending ``helpers``
        ("shop/format", 4),
        ("shop/format", 5),
    ]


def test_exunit_tests_are_functions_named_after_their_describe():
    path = "test/shop/accounts_test.exs"
    _, relations = parse_code_relations(FILES[path], path)
    assert [s.qualname for s in relations.symbols] == [
        "Shop.AccountsTest",
        "Shop.AccountsTest.test get_user/1 finds a user by id",
        "Shop.AccountsTest.test get_user/1 is nil for v1_0 ids",  # a dot would read as a module's
        "Shop.AccountsTest.property any id",  # StreamData's
    ]
    calls = [r for r in relations.refs if r.type == "calls"]
    assert {r.scope for r in calls} == {s.qualname for s in relations.symbols[1:]}
    assert {r.target for r in calls} == {"get_user"}


@pytest.mark.parametrize(
    ("test", "tested"),
    [
        ("test/shop/accounts_test.exs", "lib/shop/accounts.ex"),
        ("apps/core/test/core/user_test.exs", "apps/core/lib/core/user.ex"),  # an umbrella's app
        ("test/test_helper.exs", None),
    ],
)
def test_a_mix_test_file_tests_the_file_under_lib(test, tested):
    assert file_under_test(test) == tested


def test_phoenix_templates_are_read_by_their_lines():
    assert parser_for("lib/shop_web/controllers/user_html/show.html.heex").startswith("script/")
    assert parser_for("lib/shop_web/templates/email/welcome.text.eex").startswith("script/")


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_an_elixir_apps_aliases_and_calls_in_the_graph(make_project, engine):
    project = make_project(FILES, name="shop", config=engine_config(engine, "shop"))
    resync(project)
    assert imported(project, "lib/shop/accounts.ex") == {
        "lib/shop/repo.ex",
        "lib/shop/accounts/user.ex",
        "lib/shop/accounts/token.ex",
    }
    # ``Token.sign`` after ``alias Shop.Accounts.Token``: that module's, not the billing's homonym
    assert {e.dst.qualname for e in calls_of(project, "Shop.Accounts.format_user")} == {"Shop.Accounts.Token.sign"}
    # a bare call in a module: its own function
    assert {e.dst.qualname for e in calls_of(project, "Shop.Accounts.get_user")} == {
        "Shop.Repo.fetch",
        "Shop.Accounts.format_user",
    }
    # ``__MODULE__.all_of()``: the module's own; a bare ``total()`` in ``Line``: its own, not the file's other
    assert callees(project, "Shop.Repo.count") == {("Shop.Repo.all_of", "extracted")}
    assert callees(project, "Shop.Cart.Line.price") == {("Shop.Cart.Line.total", "extracted")}
    # ``Users.get_user()`` after ``alias Shop.Accounts, as: Users``: that module's, certain; a bare
    # ``audit_data()``: the imported module's, not its homonym; ``gettext()``: the module's that
    # ``use ShopWeb, :controller`` imports; ``render()``, which Phoenix's module brings: no
    # homonym of the project's (an Elixir bare call is the module's own, an imported one's or a library's)
    assert callees(project, "ShopWeb.UserController.show") == {
        ("Shop.Accounts.get_user", "extracted"),
        ("ShopWeb.Helpers.audit_data", "extracted"),
        ("ShopWeb.Gettext.gettext", "extracted"),
    }
    assert not ask_project(project, "what calls Shop.Settings.config", now=NOW).excerpts
    # a HEEx template's function components: calls of their functions
    assert callees(project, "ShopWeb.UserPage.page") == {
        ("ShopWeb.UserPage.header", "extracted"),
        ("ShopWeb.Core.button", "extracted"),
        ("ShopWeb.Core.github_icon", "extracted"),
    }
    shown = ask_project(project, "what calls button", now=NOW)
    assert sorted(e.fact.source.uri for e in shown.excerpts) == [
        "lib/shop_web/controllers/page_html/home.html.heex:1-2",
        "lib/shop_web/live/user_page.ex:6-12",
    ]
    # a route: a call of its controller's action
    routes = ask_project(project, "what does ShopWeb.Router call", now=NOW)
    assert routes.excerpts[0].fact.source.uri == "lib/shop_web/controllers/user_controller.ex:6-8"
    routed = ask_project(project, "what calls UserController.show", now=NOW)
    assert [e.fact.source.uri for e in routed.excerpts] == ["lib/shop_web/router.ex:4-7"]  # its ``scope`` block
    answer = ask_project(project, "what calls get_user", now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == [
        "lib/shop_web/controllers/user_controller.ex:6-8",
        "test/shop/accounts_test.exs:15-17",
        "test/shop/accounts_test.exs:6-8",
        "test/shop/accounts_test.exs:10-12",
        "lib/shop_web/router.ex:4-7",  # through the action its route calls
    ]
    users = ask_project(project, "what imports Shop.Accounts", now=NOW)
    assert [e.fact.source.uri.split(":")[0] for e in users.excerpts][:2] == [
        "lib/shop_web/controllers/user_controller.ex",
        "test/shop/accounts_test.exs",
    ]
    tests = ask_project(project, "which tests cover Shop.Accounts", now=NOW)
    assert {e.fact.source.uri for e in tests.excerpts} >= {
        "test/shop/accounts_test.exs:6-8",
        "test/shop/accounts_test.exs:10-12",
    }
